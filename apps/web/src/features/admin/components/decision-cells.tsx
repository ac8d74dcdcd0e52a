import type { ReactNode } from 'react';
import { Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { EmptyState } from '@/components/ui/empty-state';
import { capitalize, formatDateTime } from '@/lib/format';
import { DANGER } from '../tones';
import { AdminPage } from './admin-page';
import { ExportButton } from './export-button';
import { StatusBadge } from './status-badge';

/** Who a donation or request is from: their name, then their username and the record's number. */
export function PersonCell({ name, username, id }: { name: string; username: string; id: number }) {
  return (
    <Stack gap={0}>
      <Text fw={600} size="sm">
        {name}
      </Text>
      <Text size="xs" c="dimmed">
        {username} · #{id}
      </Text>
    </Stack>
  );
}

/** A donation's or request's status, when it was decided and, if rejected, why. */
export function DecisionStatus({
  status,
  label,
  decidedAt,
  reason,
  note,
}: {
  status: string;
  /** The status in words, when the bare status word says too little ("Collected, in testing"). */
  label?: string;
  decidedAt: string | null;
  reason: string | null;
  /** A line more under the decision ("Units #12, #14": the bags to fetch). */
  note?: string | null;
}) {
  return (
    <Stack gap={2} maw={240}>
      <StatusBadge status={status} label={label} />
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
      {note ? <Text size="xs">{note}</Text> : null}
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
      <Button
        size="xs"
        onClick={onApprove}
        disabled={busy}
        aria-label={`Approve ${subject}`}
        data-action="approve"
      >
        {approving ? 'Approving...' : 'Approve'}
      </Button>
      <Button
        size="xs"
        variant="outline"
        color={DANGER}
        onClick={onReject}
        disabled={deciding}
        aria-label={`Reject ${subject}`}
        data-action="reject"
      >
        Reject
      </Button>
    </Group>
  );
}

/** The status filter of a list of decisions: every status, or all with the pending first. */
export function StatusFilter({
  statuses,
  value,
  onChange,
  labels,
  allLabel = 'All (pending first)',
}: {
  statuses: readonly string[];
  value: string;
  onChange: (status: string) => void;
  /** Each status in words; the capitalized status otherwise. */
  labels?: Record<string, string>;
  allLabel?: string;
}) {
  return (
    <NativeSelect
      label="Status"
      data={[
        { value: '', label: allLabel },
        ...statuses.map((status) => ({ value: status, label: labels?.[status] ?? capitalize(status) })),
      ]}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      w={220}
    />
  );
}

/** An empty list of decisions: none of this status, or none at all yet (and when they will appear). */
export function NoDecisions({
  status,
  plural,
  firstTitle,
  appearWhen,
  icon,
}: {
  status: string | undefined;
  plural: string;
  firstTitle: string;
  appearWhen: string;
  icon: ReactNode;
}) {
  return (
    <EmptyState
      title={status ? `No ${status} ${plural}` : firstTitle}
      description={status ? 'Choose another status to see the rest of the history.' : appearWhen}
      icon={icon}
    />
  );
}

/**
 * Manage Donations and Manage Requests: the page, its CSV export, the status filter (and `filters`
 * beside it), then the list (`children`); `dialogs` after the content (each shows its own error).
 */
export function DecisionsPage({
  title,
  description,
  exportName,
  statuses,
  status,
  onStatusChange,
  filters,
  dialogs,
  children,
}: {
  title: string;
  description: string;
  exportName: 'donations' | 'requests';
  statuses: readonly string[];
  status: string;
  onStatusChange: (status: string) => void;
  filters?: ReactNode;
  dialogs: ReactNode;
  children: ReactNode;
}) {
  return (
    <AdminPage title={title} description={description} actions={<ExportButton name={exportName} />}>
      <Stack gap="md">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <StatusFilter statuses={statuses} value={status} onChange={onStatusChange} />
          {filters}
        </Group>
        {children}
      </Stack>
      {dialogs}
    </AdminPage>
  );
}
