import { Badge } from '@mantine/core';
import { capitalize } from '@/lib/format';
import { TEXT_TONE } from '../tones';

/**
 * Text colours are dark enough for the light badges to keep a 4.5:1 contrast;
 * the word itself carries the meaning, the colour only helps to scan.
 */
const TONES: Record<string, keyof typeof TEXT_TONE> = {
  pending: 'orange',
  approved: 'teal',
  collected: 'blue',
  released: 'teal',
  deferred: 'orange',
  quarantined: 'orange',
  testing: 'blue',
  lookback: 'red',
  lifted: 'gray',
  processed: 'gray',
  available: 'teal',
  active: 'teal',
  rejected: 'red',
  expired: 'red',
  deactivated: 'gray',
  cancelled: 'gray',
  discarded: 'gray',
  no_show: 'gray',
  inactive: 'gray',
  issued: 'blue',
  low: 'red',
  ok: 'teal',
};

export function StatusBadge({
  status,
  label,
  tone: toneOverride,
}: {
  status: string;
  label?: string;
  /** Where the status word alone would take another screen's colour (a day list's "collected"). */
  tone?: keyof typeof TEXT_TONE;
}) {
  const tone = toneOverride ?? TONES[status] ?? 'gray';
  return (
    <Badge
      variant="light"
      color={tone}
      c={TEXT_TONE[tone]}
      radius="sm"
      style={{ textTransform: 'none' }}
      // Never truncated to "Act…" when a table column is squeezed.
      styles={{ label: { overflow: 'visible' } }}
    >
      {label ?? capitalize(status)}
    </Badge>
  );
}
