import { useState } from 'react';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCalendarEvent,
  IconClipboardCheck,
  IconDroplet,
  IconFlask,
} from '@tabler/icons-react';
import { PAGE_SIZE, type AdminDonation } from '@bloodbank/shared/admin';
import { useBankToday } from '@/lib/bank-today';
import { DONATION_STATUSES, type DonationStatus } from '@bloodbank/shared/donation';
import { EmptyState } from '@/components/ui/empty-state';
import { useDonations, type DonationsListQuery } from '../api/get-donations';
import { useRejectDonation } from '../api/reject-donation';
import { AdminPage } from '../components/admin-page';
import { type Column } from '../components/data-table';
import { FilterAnnouncement, useFilterAnnouncement } from '../components/filter-announcement';
import { DecisionStatus, PersonCell, StatusFilter } from '../components/decision-cells';
import { ExportButton } from '../components/export-button';
import { PagedTable } from '../components/paged-table';
import { RecordCollectionDialog } from '../components/record-collection-dialog';
import { RecordTestResultsDialog } from '../components/record-test-results-dialog';
import { RejectDialog } from '../components/reject-dialog';
import { OnePersonOnly, personIdOf } from '../components/one-person-only';
import { PartLinks } from '../components/part-links';
import { ScreenSection } from '../components/screen-section';
import { formatDate, unitsText } from '@/lib/format';
import { useListParams } from '../hooks/use-list-params';
import { DANGER, TEXT_TONE } from '../tones';
import { notify } from '../notify';
import { useScrollToHash } from '@/lib/use-scroll-to-hash';
import { sectionHeading, useFocusNextRow } from '../focus-next-row';

/** Each donation status in the words staff read it (PRODUCT.md 3.2). */
export const DONATION_STATUS_LABELS: Record<DonationStatus, string> = {
  pending: 'Booked',
  cancelled: 'Cancelled by donor',
  rejected: 'Rejected',
  deferred: 'Deferred at screening',
  collected: 'Collected, in testing',
  released: 'Released',
  discarded: 'Discarded',
  no_show: 'No-show',
};

/** The history's filter: one status holds the bookings the donor cancelled and those staff's actions did. */
const DONATION_FILTER_LABELS: Record<DonationStatus, string> = {
  ...DONATION_STATUS_LABELS,
  cancelled: 'Cancelled (by donor or staff)',
};

/**
 * A donation's status in its row: a booking cancelled by staff's action (a deferral, a site closed
 * at its time: decision 0017) carries the reason, and was not cancelled by the donor.
 */
const statusLabelOf = (donation: AdminDonation) =>
  donation.status === 'cancelled' && donation.outcome_reason
    ? 'Cancelled by staff'
    : DONATION_STATUS_LABELS[donation.status];

/** Anything but "None" is something staff must look at before collecting. */
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

const donorColumn: Column<AdminDonation> = {
  key: 'donor',
  header: 'Donor',
  title: true,
  cell: (donation) => (
    <PersonCell name={donation.donor_name} username={donation.donor_username} id={donation.id} />
  ),
};

const bloodColumn: Column<AdminDonation> = {
  key: 'blood',
  header: 'Blood',
  nowrap: true,
  cell: (donation) => (
    <Text size="sm">
      <strong>{donation.bloodgroup}</strong> · {unitsText(donation.unit)}
    </Text>
  ),
};

const healthColumn: Column<AdminDonation> = {
  key: 'health',
  header: 'Health condition',
  cell: (donation) => <HealthCondition condition={donation.disease} />,
};

function BookedDate({ donation: { date, appointment }, today }: { donation: AdminDonation; today: string }) {
  return (
    <Stack gap={0}>
      <Text size="sm">{formatDate(date)}</Text>
      {appointment ? (
        // The time and the site, so staff can plan the day from this list as from the site's.
        <Text size="xs" style={{ whiteSpace: 'normal' }}>
          {appointment.time}, {appointment.site_name}
        </Text>
      ) : null}
      {date < today ? (
        <Text size="xs" c={TEXT_TONE.orange}>
          overdue
        </Text>
      ) : date === today ? (
        <Text size="xs" c="dimmed">
          today
        </Text>
      ) : null}
    </Stack>
  );
}

/** The screening values recorded at collection, for the staff who record the results. */
function ScreeningSummary({ donation }: { donation: AdminDonation }) {
  const screening = donation.screening;
  if (!screening) return <Text size="sm">—</Text>;
  return (
    <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
      Hb {screening.haemoglobin_g_dl} g/dL · {screening.weight_kg} kg · BP {screening.bp_systolic}/
      {screening.bp_diastolic} · pulse {screening.pulse}
    </Text>
  );
}

const pageOf = (value: string) => {
  const page = Number.parseInt(value, 10);
  return Number.isFinite(page) && page >= 1 ? page : 1;
};

/**
 * Manage Donations (PRODUCT.md 2, 3.2): the bookings due today (overdue ones too) to collect or
 * reject, later bookings (reject only), collected donations awaiting their test results, then the
 * whole history with its status filter.
 */
export function DonationsScreen() {
  const { values, page, update } = useListParams(
    { status: '', due: '1', upcoming: '1', results: '1', donor: '' },
    { status: ['', ...DONATION_STATUSES] },
  );
  const status = (values.status || undefined) as DonationStatus | undefined;
  const today = useBankToday();
  const list = (query: Omit<DonationsListQuery, 'pageSize'>) => ({ ...query, pageSize: PAGE_SIZE.default });
  const due = useDonations(list({ status: 'pending', due: 'true', page: pageOf(values.due) }));
  // `due=false`: booked for a later day.
  const upcoming = useDonations(list({ status: 'pending', due: 'false', page: pageOf(values.upcoming) }));
  const awaiting = useDonations(list({ status: 'collected', page: pageOf(values.results) }));
  // One donor's donations, from their details in Manage Donors (`?donor=11#history`).
  const donorId = personIdOf(values.donor);
  const history = useDonations(list({ status, page, donor_id: donorId }));
  const { markFiltered, announcement } = useFilterAnnouncement(history, (total) =>
    total > 0
      ? `${total} ${total === 1 ? 'donation' : 'donations'} found.`
      : status
        ? `No donations: ${DONATION_FILTER_LABELS[status].toLowerCase()}.`
        : 'No donations.',
  );
  const filterHistory = (changes: Partial<typeof values>) => {
    markFiltered();
    update(changes);
  };
  useScrollToHash();

  const reject = useRejectDonation();
  const [rejecting, setRejecting] = useState<AdminDonation | null>(null);
  const [collecting, setCollecting] = useState<AdminDonation | null>(null);
  const [testing, setTesting] = useState<AdminDonation | null>(null);
  // Each action takes the row's button away (the booking leaves its list): focus goes on to the same
  // action in the next row, else to the section's heading, not to the top of the page.
  const afterCollection = useFocusNextRow();
  const afterResults = useFocusNextRow();
  const afterRejection = useFocusNextRow();
  const section = (id: 'due' | 'upcoming' | 'results') => document.getElementById(id);

  const rejectButton = (donation: AdminDonation, sectionId: 'due' | 'upcoming') => (
    <Button
      size="xs"
      variant="outline"
      color={DANGER}
      onClick={() => {
        afterRejection.open(section(sectionId), donation.id, 'reject', sectionHeading(sectionId));
        setRejecting(donation);
      }}
      aria-label={`Reject donation #${donation.id} from ${donation.donor_name}`}
      data-action="reject"
    >
      Reject
    </Button>
  );

  const dueColumns: Column<AdminDonation>[] = [
    donorColumn,
    bloodColumn,
    {
      key: 'date',
      header: 'Booked for',
      nowrap: true,
      cell: (d) => <BookedDate donation={d} today={today} />,
    },
    healthColumn,
    {
      key: 'actions',
      header: 'Actions',
      label: false,
      cell: (donation) => (
        <Group gap="xs" wrap="wrap">
          <Button
            size="xs"
            onClick={() => {
              afterCollection.open(section('due'), donation.id, 'collect', sectionHeading('due'));
              setCollecting(donation);
            }}
            aria-label={`Record collection of donation #${donation.id} from ${donation.donor_name}`}
            data-action="collect"
          >
            Record collection
          </Button>
          {rejectButton(donation, 'due')}
        </Group>
      ),
    },
  ];

  const upcomingColumns: Column<AdminDonation>[] = [
    donorColumn,
    bloodColumn,
    {
      key: 'date',
      header: 'Booked for',
      nowrap: true,
      cell: (d) => <BookedDate donation={d} today={today} />,
    },
    healthColumn,
    {
      key: 'actions',
      header: 'Actions',
      label: false,
      cell: (donation) => (
        <Stack gap={4} align="flex-start">
          <Text size="xs" c="dimmed">
            Can be collected from {formatDate(donation.date)}.
          </Text>
          {rejectButton(donation, 'upcoming')}
        </Stack>
      ),
    },
  ];

  const awaitingColumns: Column<AdminDonation>[] = [
    donorColumn,
    bloodColumn,
    {
      key: 'collected',
      header: 'Collected',
      nowrap: true,
      cell: (d) => formatDate(d.collected_on ?? d.date),
    },
    { key: 'screening', header: 'Screening', cell: (d) => <ScreeningSummary donation={d} /> },
    {
      key: 'actions',
      header: 'Actions',
      label: false,
      cell: (donation) => (
        <Button
          size="xs"
          onClick={() => {
            afterResults.open(section('results'), donation.id, 'results', sectionHeading('results'));
            setTesting(donation);
          }}
          aria-label={`Record test results of donation #${donation.id} from ${donation.donor_name}`}
          data-action="results"
        >
          Record test results
        </Button>
      ),
    },
  ];

  const historyColumns: Column<AdminDonation>[] = [
    donorColumn,
    bloodColumn,
    { key: 'date', header: 'Booked for', nowrap: true, cell: (d) => formatDate(d.date) },
    healthColumn,
    {
      key: 'status',
      header: 'Status',
      cell: (donation) => (
        <DecisionStatus
          status={donation.status}
          label={statusLabelOf(donation)}
          decidedAt={donation.decided_at}
          reason={donation.rejection_reason ?? donation.outcome_reason}
        />
      ),
    },
  ];

  return (
    <AdminPage
      title="Manage Donations"
      description="Collect today's bookings (check the donor's health condition first), then record each donation's test results."
      actions={<ExportButton name="donations" />}
    >
      <Stack gap="xl">
        <PartLinks
          parts={[
            { id: 'due', label: 'Bookings due today', count: due.data?.total },
            { id: 'upcoming', label: 'Upcoming bookings', count: upcoming.data?.total },
            { id: 'results', label: 'Awaiting test results', count: awaiting.data?.total },
            { id: 'history', label: 'History' },
          ]}
        />
        <ScreenSection
          id="due"
          title="Bookings due today"
          description="Booked for today or earlier. Record the screening at collection, or reject the booking."
        >
          <PagedTable
            query={due}
            loadingLabel="Loading the bookings due today"
            errorText="The bookings due today could not be loaded. Please try again."
            empty={
              <EmptyState
                title="No bookings due today"
                description="Bookings for today appear here; later ones are listed below."
                icon={<IconCalendarEvent size={28} />}
              />
            }
            caption="Bookings due today"
            columns={dueColumns}
            rowKey={(donation) => donation.id}
            highlight={needsAttention}
            pagesLabel="Bookings due today"
            page={pageOf(values.due)}
            onPageChange={(next) => update({ due: String(next), page })}
          />
        </ScreenSection>

        <ScreenSection
          id="upcoming"
          title="Upcoming bookings"
          description="A booking can be collected from its booked date; until then it can only be rejected."
        >
          <PagedTable
            query={upcoming}
            loadingLabel="Loading upcoming bookings"
            errorText="The upcoming bookings could not be loaded. Please try again."
            empty={
              <EmptyState
                title="No upcoming bookings"
                description="Bookings for later dates appear here as soon as donors make them."
                icon={<IconCalendarEvent size={28} />}
              />
            }
            caption="Upcoming bookings"
            columns={upcomingColumns}
            rowKey={(donation) => donation.id}
            highlight={needsAttention}
            pagesLabel="Upcoming bookings"
            page={pageOf(values.upcoming)}
            onPageChange={(next) => update({ upcoming: String(next), page })}
          />
        </ScreenSection>

        <ScreenSection
          id="results"
          title="Awaiting test results"
          description="Collected units stay in testing, never in stock, until their results are recorded."
        >
          <PagedTable
            query={awaiting}
            loadingLabel="Loading donations awaiting results"
            errorText="The donations awaiting results could not be loaded. Please try again."
            empty={
              <EmptyState
                title="No donations awaiting results"
                description="A donation appears here once its collection is recorded."
                icon={<IconFlask size={28} />}
              />
            }
            caption="Donations awaiting test results"
            columns={awaitingColumns}
            rowKey={(donation) => donation.id}
            pagesLabel="Donations awaiting results"
            page={pageOf(values.results)}
            onPageChange={(next) => update({ results: String(next), page })}
          />
        </ScreenSection>

        <ScreenSection
          id="history"
          title="History"
          description="Every donation, with its status."
          actions={
            <StatusFilter
              statuses={DONATION_STATUSES}
              labels={DONATION_FILTER_LABELS}
              allLabel="All statuses"
              value={values.status}
              onChange={(next) => filterHistory({ status: next })}
            />
          }
        >
          {donorId ? (
            <OnePersonOnly
              what="donations"
              name={history.data?.items[0]?.donor_name ?? `donor #${donorId}`}
              clearLabel="Show every donor's"
              onClear={() => filterHistory({ donor: '' })}
            />
          ) : null}
          <FilterAnnouncement text={announcement} />
          <PagedTable
            query={history}
            loadingLabel="Loading donations"
            errorText="The donations could not be loaded. Please try again."
            empty={
              <EmptyState
                title={
                  status
                    ? `No donations: ${DONATION_FILTER_LABELS[status].toLowerCase()}`
                    : 'No donations yet'
                }
                description={
                  status
                    ? 'Choose another status to see the rest of the history.'
                    : 'Donations appear here as soon as a donor books one.'
                }
                icon={status ? <IconClipboardCheck size={28} /> : <IconDroplet size={28} />}
              />
            }
            caption="Blood donations"
            columns={historyColumns}
            rowKey={(donation) => donation.id}
            pagesLabel="Donations"
            page={page}
            onPageChange={(next) => update({ page: next })}
          />
        </ScreenSection>
      </Stack>

      <RecordCollectionDialog
        donation={collecting}
        returnFocus={afterCollection.returnFocus}
        onRecorded={afterCollection.done}
        onClose={() => setCollecting(null)}
      />
      <RecordTestResultsDialog
        donation={testing}
        returnFocus={afterResults.returnFocus}
        onRecorded={afterResults.done}
        onClose={() => setTesting(null)}
      />
      <RejectDialog
        subject={
          rejecting
            ? {
                title: `Reject donation #${rejecting.id}`,
                summary: `${rejecting.donor_name} booked ${unitsText(rejecting.unit)} of ${rejecting.bloodgroup} for ${formatDate(rejecting.date)} (health condition: ${rejecting.disease}).`,
              }
            : null
        }
        audience="the donor"
        returnFocus={afterRejection.returnFocus}
        onReject={async (reason) => {
          if (!rejecting) return;
          const rejected = await reject.mutateAsync({ id: rejecting.id, reason });
          afterRejection.done();
          setRejecting(null);
          notify({ title: 'Donation rejected', message: `${rejected.donor_name} will see the decision.` });
        }}
        onClose={() => setRejecting(null)}
      />
    </AdminPage>
  );
}
