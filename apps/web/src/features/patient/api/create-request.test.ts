import { describe, expect, it } from 'vitest';
import type { BloodRequest, BloodRequestInput } from '@bloodbank/shared/blood-request';
import { jsonResponse, mockApi } from '@/test/mock-api';
import { findSavedRequest } from './create-request';

const input: BloodRequestInput = {
  bloodgroup: 'O+',
  component: 'red_cells',
  unit: 2,
  date: '2026-12-20',
  // Typed as an e and a combining accent; the server keeps it in NFC.
  doctorname: 'Dr. Jose\u0301',
  hospitaladdress: 'City Hospital',
  reason: 'Surgery',
};

const stored = (overrides: Partial<BloodRequest>): BloodRequest => ({
  id: 1,
  bloodgroup: 'O+',
  component: 'red_cells',
  unit: 2,
  date: '2026-12-20',
  doctorname: 'Dr. Jos\u00e9',
  hospitaladdress: 'City Hospital',
  reason: 'Surgery',
  status: 'pending',
  rejection_reason: null,
  issued_bloodgroup: null,
  issued_unit_ids: [],
  created_at: new Date().toISOString(),
  decided_at: null,
  ...overrides,
});

describe('findSavedRequest (a request whose answer was lost)', () => {
  it('finds the request stored in NFC for text typed in another form, and never a cancelled one', async () => {
    mockApi({
      'GET /api/requests/mine': () =>
        jsonResponse(200, [stored({ id: 9, status: 'cancelled' }), stored({ id: 8 })]),
    });
    expect((await findSavedRequest(input, Date.now()))?.id).toBe(8);
  });

  it('finds nothing when the only match is cancelled, or older than the send', async () => {
    mockApi({
      'GET /api/requests/mine': () =>
        jsonResponse(200, [
          stored({ id: 9, status: 'cancelled' }),
          stored({ id: 7, created_at: new Date(Date.now() - 3_600_000).toISOString() }),
        ]),
    });
    expect(await findSavedRequest(input, Date.now())).toBeUndefined();
  });
});
