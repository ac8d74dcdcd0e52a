import { Badge } from '@mantine/core';
import { capitalize } from '../format';

/**
 * Text colours are the darkest shade of each colour, so the light badges keep a 4.5:1 contrast;
 * the word itself carries the meaning, the colour only helps to scan.
 */
const TONES: Record<string, { color: string; text: string }> = {
  pending: { color: 'orange', text: 'orange.9' },
  approved: { color: 'teal', text: 'teal.9' },
  available: { color: 'teal', text: 'teal.9' },
  active: { color: 'teal', text: 'teal.9' },
  rejected: { color: 'red', text: 'red.9' },
  expired: { color: 'red', text: 'red.9' },
  deactivated: { color: 'gray', text: 'dark.6' },
  cancelled: { color: 'gray', text: 'dark.6' },
  discarded: { color: 'gray', text: 'dark.6' },
  issued: { color: 'blue', text: 'blue.9' },
  low: { color: 'red', text: 'red.9' },
  ok: { color: 'teal', text: 'teal.9' },
};

export function StatusBadge({ status, label }: { status: string; label?: string }) {
  const tone = TONES[status] ?? { color: 'gray', text: 'dark.6' };
  return (
    <Badge variant="light" color={tone.color} c={tone.text} radius="sm" style={{ textTransform: 'none' }}>
      {label ?? capitalize(status)}
    </Badge>
  );
}
