import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BloodUnit } from '@bloodbank/shared/admin';
import { mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { DiscardUnitDialog } from './discard-unit-dialog';

const unit: BloodUnit = {
  id: 7,
  bloodgroup: 'O+',
  component: 'red_cells',
  parent_unit_id: null,
  source: 'donation',
  donation_id: 3,
  collected_on: '2026-11-01',
  expires_on: '2026-12-13',
  status: 'available',
  hold_reason: null,
  expired: false,
  request_id: null,
  issued_at: null,
  discarded_at: null,
  discard_reason: null,
  created_at: '2026-11-01T10:00:00.000Z',
};

describe('the Discard unit dialog', () => {
  it('puts focus on the Reason field when it is sent empty, so its message is read', async () => {
    const api = mockApi({});
    const { user } = renderScreen(<DiscardUnitDialog unit={unit} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Discard unit #7?' });
    const reason = within(dialog).getByRole('textbox', { name: /Reason/ });

    await user.click(within(dialog).getByRole('button', { name: 'Discard unit' }));
    expect(await within(dialog).findByText('Reason is required')).toBeInTheDocument();
    expect(reason).toHaveFocus();
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(reason).toHaveAccessibleDescription(/Reason is required/);
    expect(api.requests.some((request) => request.method === 'POST')).toBe(false);

    // Blank is empty too; focus left on the button is brought back to the field.
    await user.type(reason, '   ');
    await user.tab();
    await user.tab();
    await user.keyboard('{Enter}');
    expect(await within(dialog).findByText('Reason is required')).toBeInTheDocument();
    expect(reason).toHaveFocus();
  });
});
