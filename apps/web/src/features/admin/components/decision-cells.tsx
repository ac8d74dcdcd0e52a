import { Button, Group, Stack, Text } from '@mantine/core';
import { formatDateTime } from '@/lib/format';
import { DANGER } from '../tones';
import { StatusBadge } from './status-badge';

/** A donation's or request's status, when it was decided and, if rejected, why. */
export function DecisionStatus({
  status,
  decidedAt,
  reason,
}: {
  status: string;
  decidedAt: string | null;
  reason: string | null;
}) {
  return (
    <Stack gap={2} maw={240}>
      <StatusBadge status={status} />
      {decidedAt ? (
        <Text size="xs" c="dimmed">
          {formatDateTime(decidedAt)}
        </Text>
      ) : null}
      {reason ? (
        <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
          Reason: {reason}
        </Text>
      ) : null}
    </Stack>
  );
}

interface DecisionActionsProps {
  /** Names the buttons for screen readers: "donation #12 from Asha Kumar". */
  subject: string;
  /** This row's approval is on its way. */
  approving: boolean;
  /** Another decision is on its way: one at a time. */
  busy: boolean;
  /** This row is being decided. */
  deciding: boolean;
  onApprove: () => void;
  onReject: () => void;
}

/** Approve and Reject for a pending donation or request. */
export function DecisionActions({
  subject,
  approving,
  busy,
  deciding,
  onApprove,
  onReject,
}: DecisionActionsProps) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Button size="xs" onClick={onApprove} disabled={busy} aria-label={`Approve ${subject}`}>
        {approving ? 'Approving...' : 'Approve'}
      </Button>
      <Button
        size="xs"
        variant="outline"
        color={DANGER}
        onClick={onReject}
        disabled={deciding}
        aria-label={`Reject ${subject}`}
      >
        Reject
      </Button>
    </Group>
  );
}
