import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '@bloodbank/shared/admin';
import { auditStory } from './audit-sentence';

const now = new Date(2026, 10, 25, 12, 0);
const at = new Date(2026, 10, 25, 10, 38).toISOString();

const entry = (fields: Partial<AuditEntry> & Pick<AuditEntry, 'action' | 'entity'>): AuditEntry => ({
  id: 1,
  at,
  actor: 'chief',
  actor_name: 'Chief',
  entity_id: 5,
  subject_name: null,
  detail: {},
  ...fields,
});

const site = {
  id: 4,
  name: 'City Centre Donor Unit',
  address: '12 Park Street',
  hours: { monday: { open: '08:00', close: '16:00' } },
  slot_minutes: 15,
  capacity: 2,
  closed_dates: [],
  active: true,
};

describe('auditStory for cancelled bookings and chosen discards', () => {
  it("names the booking's donor and why staff's action cancelled it, never raw keys", () => {
    expect(
      auditStory(
        entry({
          action: 'donation.cancelled',
          entity: 'donation',
          subject_name: 'Harish Reddy',
          detail: { before: { status: 'pending' }, after: { status: 'cancelled', deferral_id: 53 } },
        }),
        now,
      ),
    ).toEqual({
      sentence: "Chief cancelled Harish Reddy's booking at 10:38",
      details: ['Reason: The donor was deferred.'],
    });
    expect(
      auditStory(
        entry({
          action: 'donation.cancelled',
          entity: 'donation',
          subject_name: 'Asha Kumar',
          detail: {
            before: { status: 'pending' },
            after: { status: 'cancelled', reason: 'The site is closed at that time.' },
          },
        }),
        now,
      ).details,
    ).toEqual(['Reason: The site is closed at that time.']);
  });

  it('names the units discarded one by one', () => {
    expect(
      auditStory(
        entry({
          action: 'units.discarded',
          entity: 'blood_unit',
          detail: { after: { status: 'discarded', mode: 'selected', reason: 'Lookback', unit_ids: [2352] } },
        }),
        now,
      ),
    ).toEqual({ sentence: 'Chief discarded 1 unit at 10:38', details: ['Unit #2352', 'Reason: Lookback'] });
  });
});

describe('auditStory for the actions of issue 23', () => {
  it('reads call-outs, password resets, sites, check-ins and no-shows as sentences', () => {
    const stories = [
      entry({
        action: 'callout.sent',
        entity: 'callout',
        detail: { after: { bloodgroup: 'O-', notified: 12 } },
      }),
      entry({
        action: 'password.reset',
        entity: 'user',
        actor_name: 'Asha Kumar',
        subject_name: 'Asha Kumar',
      }),
      entry({
        action: 'password.changed',
        entity: 'user',
        actor_name: 'Asha Kumar',
        subject_name: 'Asha Kumar',
      }),
      entry({ action: 'site.created', entity: 'site', detail: { after: site } }),
      entry({
        action: 'site.updated',
        entity: 'site',
        detail: {
          before: site,
          after: {
            ...site,
            slot_minutes: 20,
            capacity: 3,
            hours: { monday: { open: '09:00', close: '16:00' } },
          },
        },
      }),
      entry({
        action: 'site.deactivated',
        entity: 'site',
        detail: { before: site, after: { ...site, active: false } },
      }),
      entry({
        action: 'donation.checked_in',
        entity: 'donation',
        subject_name: 'Ravi Iyer',
        detail: { after: { checked_in_at: at } },
      }),
      entry({
        action: 'donations.no_show',
        entity: 'donation',
        entity_id: null,
        actor_name: 'System',
        detail: { after: { donation_ids: [3, 4, 9] } },
      }),
      entry({
        action: 'donations.no_show',
        entity: 'donation',
        entity_id: null,
        actor_name: 'System',
        detail: { after: { donation_ids: [3] } },
      }),
    ].map((story) => auditStory(story, now));

    expect(stories).toEqual([
      { sentence: 'Chief called out donors for O- at 10:38', details: ['12 donors told'] },
      { sentence: 'Asha Kumar reset their password with an e-mailed link at 10:38', details: [] },
      { sentence: 'Asha Kumar changed their password at 10:38', details: [] },
      {
        sentence: 'Chief added the donation site City Centre Donor Unit at 10:38',
        details: ['Address: 12 Park Street'],
      },
      {
        sentence: 'Chief updated the donation site City Centre Donor Unit at 10:38',
        details: ['Slot length: 15 min → 20 min', 'Donors per slot: 2 → 3', 'Opening hours changed'],
      },
      { sentence: 'Chief deactivated the donation site City Centre Donor Unit at 10:38', details: [] },
      { sentence: 'Chief checked in Ravi Iyer at 10:38', details: [] },
      { sentence: 'System marked 3 bookings as no-shows at 10:38', details: [] },
      { sentence: 'System marked 1 booking as a no-show at 10:38', details: [] },
    ]);
  });
});

describe('auditStory for components and deferrals', () => {
  it('reads a separation as the components made, not raw keys', () => {
    const story = auditStory(
      entry({
        action: 'unit.processed',
        entity: 'blood_unit',
        entity_id: 2940,
        detail: {
          before: { status: 'available', component: 'whole_blood' },
          after: {
            status: 'processed',
            components: [
              { id: 2946, component: 'red_cells', expires_on: '2027-01-06' },
              { id: 2947, component: 'plasma', expires_on: '2027-11-25' },
            ],
          },
        },
      }),
      now,
    );
    expect(story.sentence).toBe('Chief separated whole-blood unit #2940 into 2 components at 10:38');
    expect(story.details).toEqual([
      'Red cells #2946, expires on 6 Jan 2027',
      'Plasma #2947, expires on 25 Nov 2027',
    ]);
  });

  it('names the deferred donor the server resolved', () => {
    const story = auditStory(
      entry({
        action: 'deferral.created',
        entity: 'deferral',
        subject_name: 'Sunil Rao',
        detail: { after: { type: 'temporary', until: '2026-12-27', reason: 'Recent tattoo' } },
      }),
      now,
    );
    expect(story.sentence).toBe('Chief deferred Sunil Rao at 10:38');
    expect(story.details).toEqual(['Until 27 Dec 2026', 'Reason: Recent tattoo']);
  });
});
