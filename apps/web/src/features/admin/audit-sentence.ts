import type { AuditEntry } from '@bloodbank/shared/admin';
import { COMPONENT_LABELS, COMPONENT_WORDS, COMPONENTS, type Component } from '@bloodbank/shared/components';
import { formatDate, formatInstantDate, pluralize, unitNumbersText, unitsText } from '@/lib/format';

/**
 * The audit log in words: "Chief deactivated donor Asha Kumar at 10:38", then a line per detail
 * ("Reason: Low haemoglobin"). Times are the admin's own local time; ids and JSON never show.
 */

const timeFormat = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });

const sameLocalDay = (a: Date, b: Date) =>
  a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

/** "at 10:38" today, "on 24 Nov 2026 at 10:38" before, in the reader's time zone. */
export function whenText(iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const time = `at ${timeFormat.format(date)}`;
  return sameLocalDay(date, now) ? time : `on ${formatInstantDate(date.toISOString())} ${time}`;
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value : null;
const count = (value: unknown): number | null =>
  Array.isArray(value) ? value.length : typeof value === 'number' ? value : null;

/** " red cells" after "2 units of A+", when the entry says which component; else nothing. */
const componentText = (value: unknown): string =>
  typeof value === 'string' && (COMPONENTS as readonly string[]).includes(value)
    ? ` ${COMPONENT_WORDS[value as Component]}`
    : '';

/** The bags by number, so an entry can be found for a unit ("Units #12, #14"); ten at most, then how many more. */
function unitNumbersLine(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) return [];
  return [
    unitNumbersText(
      value.map((id) => valueText(id)),
      10,
    ),
  ];
}

const FIELD_LABELS: Record<string, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  email: 'Email',
  bloodgroup: 'Blood group',
  address: 'Address',
  mobile: 'Mobile',
  disease: 'Disease',
  age: 'Age',
  doctorname: 'Doctor',
  status: 'Status',
  reason: 'Reason',
  is_active: 'Active',
};

const fieldLabel = (field: string) => {
  const label = FIELD_LABELS[field] ?? field.replaceAll('_', ' ');
  return label.charAt(0).toUpperCase() + label.slice(1);
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A value as a person writes it: dates as dates, yes/no, lists joined, records as "key value". */
function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') {
    if (ISO_DATE.test(value)) return formatDate(value);
    if (ISO_INSTANT.test(value)) return whenText(value).replace(/^(at|on) /, '');
    return value;
  }
  if (Array.isArray(value)) return value.length ? value.map(valueText).join(', ') : '—';
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([key, inner]) => `${key.replaceAll('_', ' ')} ${valueText(inner)}`)
      .join(', ');
  }
  return String(value);
}

/** Every field that changed, "Mobile: 9876543210 → 9123456780"; ids of units are left out. */
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (field) => !field.endsWith('_ids'),
  );
  return fields.map((field) => {
    const had = field in before;
    const has = field in after;
    const label = fieldLabel(field);
    if (had && has) return `${label}: ${valueText(before[field])} → ${valueText(after[field])}`;
    return has ? `${label}: ${valueText(after[field])}` : `${label} was ${valueText(before[field])}`;
  });
}

const SITE_FIELDS: Record<string, string> = {
  name: 'Name',
  address: 'Address',
  slot_minutes: 'Slot length',
  capacity: 'Donors per slot',
  closed_dates: 'Closed dates',
  active: 'Active',
};

/** What changed on a donation site, field by field; the week's hours as one line. */
function siteChanges(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const lines: string[] = [];
  for (const [field, label] of Object.entries(SITE_FIELDS)) {
    if (!(field in after) || JSON.stringify(before[field]) === JSON.stringify(after[field])) continue;
    const shown = (value: unknown) =>
      field === 'slot_minutes' && typeof value === 'number' ? `${value} min` : valueText(value);
    lines.push(
      field in before
        ? `${label}: ${shown(before[field])} → ${shown(after[field])}`
        : `${label}: ${shown(after[field])}`,
    );
  }
  if ('hours' in after && JSON.stringify(before.hours) !== JSON.stringify(after.hours)) {
    lines.push('Opening hours changed');
  }
  return lines;
}

const PERSON_WORDS: Record<string, string> = { donor: 'donor', patient: 'patient', user: 'the account of' };

export interface AuditStory {
  sentence: string;
  details: string[];
}

/** The sentence and detail lines of one audit entry. */
export function auditStory(entry: AuditEntry, now: Date = new Date()): AuditStory {
  const detail = asRecord(entry.detail);
  const before = asRecord(detail.before);
  const after = asRecord(detail.after);
  const actor = entry.actor_name;
  const when = whenText(entry.at, now);
  const record = entry.entity_id !== null ? `#${entry.entity_id}` : '';
  const subject = entry.subject_name ?? record;
  /** "Asha Kumar's donation", or "donation #41" when the person is unknown. */
  const whose = (noun: string) =>
    entry.subject_name ? `${entry.subject_name}'s ${noun}` : `${noun} ${record}`;
  const reason = text(after.reason);
  const reasonLine = reason ? [`Reason: ${reason}`] : [];
  const say = (middle: string, details: string[] = []): AuditStory => ({
    sentence: `${actor} ${middle} ${when}`.replace(/\s+/g, ' ').trim(),
    details,
  });

  switch (entry.action) {
    case 'donor.updated':
    case 'patient.updated':
      return say(`updated ${entry.entity} ${subject}`, changedFields(before, after));
    case 'donor.deactivated':
    case 'patient.deactivated':
      return say(`deactivated ${entry.entity} ${subject}`);
    case 'donation.approved': {
      const units = count(after.unit_ids);
      const expires = text(after.expires_on);
      return say(`approved ${whose('donation')}`, [
        ...(units !== null ? [`${unitsText(units)} added to stock`] : []),
        ...(expires ? [`Expires on ${formatDate(expires)}`] : []),
      ]);
    }
    case 'donation.collected': {
      const units = count(after.unit_ids);
      return say(`recorded the collection of ${whose('donation')}`, [
        ...(units !== null ? [`${unitsText(units)} in testing`] : []),
      ]);
    }
    case 'donation.deferred': {
      const reasons = Array.isArray(after.reasons) ? after.reasons.map(valueText) : [];
      return say(`deferred ${whose('donation')} at screening`, reasons);
    }
    case 'donation.released': {
      const units = count(after.unit_ids);
      return say(`released ${whose('donation')}`, [
        ...(units !== null ? [`${unitsText(units)} now available`] : []),
      ]);
    }
    case 'donation.discarded': {
      const units = count(after.unit_ids);
      const held = count(after.lookback_unit_ids);
      return say(`discarded ${whose('donation')} after a reactive test`, [
        ...(units !== null ? [`${unitsText(units)} discarded`] : []),
        ...(held ? [`${unitsText(held)} put on a lookback hold`] : []),
      ]);
    }
    case 'donor.bloodgroup_corrected':
      return say(`corrected the blood group of ${subject}`, [
        `${text(before.bloodgroup) ?? '?'} → ${text(after.bloodgroup) ?? '?'}`,
      ]);
    case 'deferral.created': {
      const until = text(after.until);
      return say(`deferred ${entry.subject_name ?? `a donor (deferral ${record})`}`, [
        after.type === 'permanent' ? 'Permanently' : `Until ${until ? formatDate(until) : '?'}`,
        ...reasonLine,
      ]);
    }
    case 'deferral.lifted':
      return say(
        `lifted a deferral${entry.subject_name ? ` of ${entry.subject_name}` : ` (${record})`}`,
        reasonLine,
      );
    case 'unit.released':
      return say(`released unit ${record} from its lookback hold`);
    case 'unit.processed': {
      // "Red cells #2946, expires on 8 Jan 2027": one line per component made.
      const made = Array.isArray(after.components) ? after.components.map(asRecord) : [];
      return say(
        `separated whole-blood unit ${record} into ${made.length === 1 ? '1 component' : `${made.length} components`}`,
        made.map((part) => {
          const component = text(part.component);
          const label =
            component && component in COMPONENT_LABELS ? COMPONENT_LABELS[component as Component] : 'Unit';
          const expires = text(part.expires_on);
          return `${label} #${valueText(part.id)}${expires ? `, expires on ${formatDate(expires)}` : ''}`;
        }),
      );
    }
    case 'donation.rejected': {
      const game = asRecord(after.game);
      const withdrawn = Array.isArray(after.achievements_withdrawn) ? after.achievements_withdrawn : [];
      return say(`rejected ${whose('donation')}`, [
        ...reasonLine,
        ...(typeof game.points === 'number'
          ? [`Donor's game score: ${game.points} points, level ${valueText(game.level)}`]
          : []),
        ...(withdrawn.length ? [`Achievements withdrawn: ${valueText(withdrawn)}`] : []),
      ]);
    }
    case 'request.approved': {
      const units = count(after.unit_ids);
      const group = text(after.issued_bloodgroup);
      return say(`approved ${whose('blood request')}`, [
        ...(units !== null
          ? [`${unitsText(units)}${group ? ` of ${group}` : ''}${componentText(after.component)} issued`]
          : []),
        ...unitNumbersLine(after.unit_ids),
      ]);
    }
    case 'request.rejected':
      return say(`rejected ${whose('blood request')}`, reasonLine);
    case 'units.received': {
      const units = count(after.count) ?? count(after.unit_ids) ?? 0;
      const collected = text(after.collected_on);
      const expires = text(after.expires_on);
      return say(
        `received ${unitsText(units)} of ${text(after.bloodgroup) ?? 'blood'}${componentText(after.component)}`,
        [
          ...(collected ? [`Collected on ${formatDate(collected)}`] : []),
          ...(expires ? [`Expires on ${formatDate(expires)}`] : []),
          ...unitNumbersLine(after.unit_ids),
        ],
      );
    }
    case 'units.discarded': {
      const units = count(after.unit_ids) ?? 0;
      const group = text(after.bloodgroup);
      const expired = after.mode === 'expired';
      const what = unitsText(units).replace(' ', expired ? ' expired ' : ' ');
      // Every discard names its bags, so an entry can be found for a unit; expired units need no
      // reason beyond the word "expired".
      const named = unitNumbersLine(after.unit_ids);
      return say(
        `discarded ${what}${group ? ` of ${group}` : ''}${componentText(after.component)}`,
        expired ? named : [...named, ...reasonLine],
      );
    }
    case 'donation.cancelled': {
      // By staff's action (decisions 0016, 0017): a deferral, or the site closed at the booking's time.
      const cause = 'deferral_id' in after ? 'The donor was deferred.' : reason;
      return say(`cancelled ${whose('booking')}`, cause ? [`Reason: ${cause}`] : []);
    }
    case 'admin.create':
      return say(`created the admin account ${text(after.username) ?? subject}`);
    case 'user.password_reset':
      return say(`reset the password of ${subject}`);
    case 'password.reset':
      // The user themselves, through an e-mailed link.
      return say('reset their password with an e-mailed link');
    case 'password.changed':
      // The user themselves, signed in, with their current password (their profile).
      return say('changed their password');
    case 'callout.sent': {
      const notified = count(after.notified);
      return say(`called out donors for ${text(after.bloodgroup) ?? 'a blood group'}`, [
        ...(notified !== null ? [`${pluralize(notified, 'donor')} told`] : []),
      ]);
    }
    case 'site.created': {
      const address = text(after.address);
      return say(
        `added the donation site ${text(after.name) ?? record}`,
        address ? [`Address: ${address}`] : [],
      );
    }
    case 'site.updated':
      return say(
        `updated the donation site ${text(after.name) ?? text(before.name) ?? record}`,
        siteChanges(before, after),
      );
    case 'site.deactivated':
      return say(`deactivated the donation site ${text(after.name) ?? text(before.name) ?? record}`);
    case 'donation.checked_in':
      return say(`checked in ${entry.subject_name ?? `the donor of donation ${record}`}`);
    case 'donations.no_show': {
      const missed = count(after.donation_ids) ?? 0;
      return say(
        missed === 1 ? 'marked 1 booking as a no-show' : `marked ${pluralize(missed, 'booking')} as no-shows`,
      );
    }
    case 'demo.seeded':
      return say('filled the database with the demo data (npm run seed:demo)');
    default: {
      const action = entry.action.split('.').at(-1)?.replaceAll('_', ' ') ?? entry.action;
      const what = PERSON_WORDS[entry.entity] ?? entry.entity.replaceAll('_', ' ');
      return say(`${action} ${what} ${subject}`, changedFields(before, after));
    }
  }
}
