import { Badge } from '@mantine/core';
import type { RequestStatus } from '@bloodbank/shared/blood-request';

/**
 * Text and background pairs chosen for contrast (all above 7:1): Mantine's light badges draw yellow
 * and green text that falls below 4.5:1 on their tint.
 */
const TONES = {
  pending: { bg: '#fff3bf', fg: '#5c3c00' },
  approved: { bg: '#d3f9d8', fg: '#1b4d24' },
  rejected: { bg: '#ffe3e3', fg: '#8a1116' },
  cancelled: { bg: '#e9ecef', fg: '#343a40' },
} as const;

const LABELS: Record<RequestStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
};

function ToneBadge({
  tone,
  children,
  size,
}: {
  tone: keyof typeof TONES;
  children: string;
  size?: 'xs' | 'sm' | 'md';
}) {
  const { bg, fg } = TONES[tone];
  return (
    <Badge
      size={size}
      variant="filled"
      color={bg}
      c={fg}
      radius="sm"
      tt="none"
      fw={700}
      style={{ flexShrink: 0, minWidth: 'max-content' }}
    >
      {children}
    </Badge>
  );
}

export function RequestStatusBadge({ status }: { status: RequestStatus }) {
  return <ToneBadge tone={status}>{LABELS[status]}</ToneBadge>;
}

/** Spec section 2: Available when units are above 0, otherwise Not Available. */
export function StockStatusBadge({ units, size }: { units: number; size?: 'xs' | 'sm' | 'md' }) {
  return units > 0 ? (
    <ToneBadge tone="approved" size={size}>
      Available
    </ToneBadge>
  ) : (
    <ToneBadge tone="rejected" size={size}>
      Not Available
    </ToneBadge>
  );
}
