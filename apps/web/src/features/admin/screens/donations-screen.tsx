import { useState } from 'react';
import { Badge, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconDroplet } from '@tabler/icons-react';
import { PAGE_SIZE, type AdminDonation } from '@bloodbank/shared/admin';
import { DONATION_STATUSES, type DonationStatus } from '@bloodbank/shared/donation';
import { errorMessage } from '@/lib/api-client';
import { useApproveDonation } from '../api/approve-donation';
import { useDonations } from '../api/get-donations';
import { useRejectDonation } from '../api/reject-donation';
import { type Column } from '../components/data-table';
import { PagedTable } from '../components/paged-table';
import { DecisionActions, DecisionsPage, DecisionStatus, NoDecisions } from '../components/decision-cells';
import { RejectDialog } from '../components/reject-dialog';
import { formatDate, unitsText } from '@/lib/format';
import { useListParams } from '../hooks/use-list-params';
import { TEXT_TONE } from '../tones';
import { notify } from '../notify';

/** Anything but "None" is something the admin must look at before approving. */
const needsAttention = (donation: AdminDonation) => donation.disease !== 'None';

export function HealthCondition({ condition }: { condition: string }) {
  if (condition === 'None') return <Text size="sm">None</Text>;
  return (
    <Badge
      variant="light"
      color="orange"
      c={TEXT_TONE.orange}
      radius="sm"
      leftSection={<IconAlertTriangle size={14} aria-hidden />}
      style={{ textTransform: 'none' }}
      // Never truncated to "Act…" when a table column is squeezed.
      styles={{ label: { overflow: 'visible' } }}
    >
      {condition}
    </Badge>
  );
}

/** Manage Donations: pending first with the donor's health condition in plain sight; approve; reject with a reason. */
export function DonationsScreen() {
  const { values, page, update } = useListParams({ status: '' }, { status: ['', ...DONATION_STATUSES] });
  const status = (values.status || undefined) as DonationStatus | undefined;
  const query = useDonations({ status, page, pageSize: PAGE_SIZE.default });

  const approve = useApproveDonation();
  const reject = useRejectDonation();
  const [rejecting, setRejecting] = useState<AdminDonation | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const busyId = approve.isPending ? approve.variables : null;

  const approveDonation = (donation: AdminDonation) => {
    setActionError(null);
    approve.mutate(donation.id, {
      onSuccess: (approved) =>
        notify({
          title: 'Donation approved',
          message: `${unitsText(approved.unit_ids.length)} of ${approved.bloodgroup} from ${approved.donor_name} added to the inventory.`,
        }),
      onError: (error) =>
        setActionError(errorMessage(error, 'The donation could not be approved. Please try again.')),
    });
  };

  const columns: Column<AdminDonation>[] = [
    {
      key: 'donor',
      header: 'Donor',
      title: true,
      cell: (donation) => (
        <Stack gap={0}>
          <Text fw={600} size="sm">
            {donation.donor_name}
          </Text>
          <Text size="xs" c="dimmed">
            {donation.donor_username} · #{donation.id}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'blood',
      header: 'Blood',
      nowrap: true,
      cell: (donation) => (
        <Text size="sm">
          <strong>{donation.bloodgroup}</strong> · {unitsText(donation.unit)}
        </Text>
      ),
    },
    { key: 'date', header: 'Donation date', nowrap: true, cell: (donation) => formatDate(donation.date) },
    {
      key: 'health',
      header: 'Health condition',
      cell: (donation) => <HealthCondition condition={donation.disease} />,
    },
    {
      key: 'last',
      header: 'Last donation',
      nowrap: true,
      cell: (donation) => formatDate(donation.lastDonation),
    },
    {
      key: 'status',
      header: 'Status',
      cell: (donation) => (
        <DecisionStatus
          status={donation.status}
          decidedAt={donation.decided_at}
          reason={donation.rejection_reason}
        />
      ),
    },
    {
      key: 'actions',
      header: 'Actions',
      label: false,
      cell: (donation) =>
        donation.status === 'pending' ? (
          <DecisionActions
            subject={`donation #${donation.id} from ${donation.donor_name}`}
            approving={busyId === donation.id}
            busy={busyId !== null}
            deciding={busyId === donation.id}
            onApprove={() => approveDonation(donation)}
            onReject={() => setRejecting(donation)}
          />
        ) : null,
    },
  ];

  return (
    <DecisionsPage
      title="Manage Donations"
      description="Donations awaiting approval come first. Check the donor's health condition before approving."
      exportName="donations"
      statuses={DONATION_STATUSES}
      status={values.status}
      onStatusChange={(next) => update({ status: next })}
      filters={
        <Group gap={6} wrap="nowrap" pb={6}>
          <IconAlertTriangle size={16} color="var(--mantine-color-orange-8)" aria-hidden />
          <Text size="sm" c="dimmed">
            Tinted rows: the donor reported a health condition.
          </Text>
        </Group>
      }
      actionError={actionError}
      dialogs={
        <RejectDialog
          subject={
            rejecting
              ? {
                  title: `Reject donation #${rejecting.id}`,
                  summary: `${rejecting.donor_name} booked ${unitsText(rejecting.unit)} of ${rejecting.bloodgroup} on ${formatDate(rejecting.date)} (health condition: ${rejecting.disease}).`,
                }
              : null
          }
          audience="the donor"
          onReject={async (reason) => {
            if (!rejecting) return;
            const rejected = await reject.mutateAsync({ id: rejecting.id, reason });
            setRejecting(null);
            notify({ title: 'Donation rejected', message: `${rejected.donor_name} will see the decision.` });
          }}
          onClose={() => setRejecting(null)}
        />
      }
    >
      <PagedTable
        query={query}
        loadingLabel="Loading donations"
        errorText="The donations could not be loaded. Please try again."
        empty={
          <NoDecisions
            status={status}
            plural="donations"
            firstTitle="No donations yet"
            appearWhen="Donations appear here as soon as a donor books one."
            icon={<IconDroplet size={28} />}
          />
        }
        caption="Blood donations"
        columns={columns}
        rowKey={(donation) => donation.id}
        highlight={(donation) => donation.status === 'pending' && needsAttention(donation)}
        pagesLabel="Donations"
        page={page}
        onPageChange={(next) => update({ page: next })}
      />
    </DecisionsPage>
  );
}
