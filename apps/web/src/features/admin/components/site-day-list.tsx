import { useRef, useState } from 'react';
import { Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCalendarEvent, IconCalendarOff, IconPrinter } from '@tabler/icons-react';
import {
  APPOINTMENT_STATE_LABELS,
  APPOINTMENT_STATES,
  type AppointmentState,
  type DayAppointment,
  type SiteDay,
} from '@bloodbank/shared/sites';
import { useBankToday } from '@/lib/bank-today';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorAlert } from '@/components/ui/error-alert';
import { PageLoader } from '@/components/ui/page-loader';
import { errorMessage } from '@/lib/api-client';
import { formatBankTimeOfDay, formatDate, unitsText } from '@/lib/format';
import { useSingleFlight } from '@/lib/use-single-flight';
import { useCheckInDonation } from '../api/check-in-donation';
import { useSiteDay } from '../api/get-site-day';
import { notify } from '../notify';
import { DataTable, type Column } from './data-table';
import { RecordCollectionDialog, type CollectionSubject } from './record-collection-dialog';
import { StatusBadge } from './status-badge';
import { TEXT_TONE } from '../tones';
import { useFocusNextRow } from '../focus-next-row';

/** Waiting is neutral, arrived is blue, given is green; deferred and missed stand out. */
const STATE_TONES: Record<AppointmentState, keyof typeof TEXT_TONE> = {
  booked: 'gray',
  checked_in: 'blue',
  collected: 'teal',
  deferred: 'orange',
  no_show: 'red',
};

/**
 * One site's day (PRODUCT.md 3.6): how many are booked, checked in, collected, deferred or did not
 * come, then who comes when. Staff check a donor in on the day and record the collection from here.
 */
export function SiteDayList({ siteId, date }: { siteId: number; date: string }) {
  const day = useSiteDay(siteId, date);
  const checkIn = useCheckInDonation();
  // Both clicks of a double-click arrive before the buttons show busy: the second check-in would be
  // refused (already checked in) and only its failure would be shown. One check-in at a time.
  const singleFlight = useSingleFlight();
  const [collecting, setCollecting] = useState<CollectionSubject | null>(null);
  // A recorded collection takes the row's button away: focus goes on to the next donor's Record
  // collection, else to the heading of the section the list is in.
  const afterCollection = useFocusNextRow();
  const list = useRef<HTMLDivElement>(null);
  const heading = () => list.current?.closest('section')?.querySelector<HTMLElement>('h1, h2, h3') ?? null;
  const today = useBankToday();

  if (day.isPending) return <PageLoader label="Loading the day list" />;
  if (day.isError && !day.data) {
    return (
      <ErrorAlert
        message={errorMessage(day.error, 'The day list could not be loaded. Please try again.')}
        onRetry={() => void day.refetch()}
        retrying={day.isFetching}
      />
    );
  }
  const data = day.data;

  const columns: Column<DayAppointment>[] = [
    // The time leads each card on a phone.
    {
      key: 'time',
      header: 'Time',
      title: true,
      nowrap: true,
      cell: (row) => <Text fw={700}>{row.time}</Text>,
    },
    {
      key: 'donor',
      header: 'Donor',
      cell: (row) => (
        <Stack gap={0}>
          <Text fw={600} size="sm">
            {row.donor_name}
          </Text>
          <Text size="xs" c="dimmed">
            Donation #{row.donation_id}
          </Text>
        </Stack>
      ),
    },
    { key: 'group', header: 'Group', nowrap: true, cell: (row) => <strong>{row.bloodgroup}</strong> },
    { key: 'units', header: 'Units', nowrap: true, cell: (row) => unitsText(row.units) },
    {
      key: 'state',
      header: 'State',
      cell: (row) => (
        <Stack gap={2} align="flex-start">
          <StatusBadge
            status={row.state}
            label={APPOINTMENT_STATE_LABELS[row.state]}
            tone={STATE_TONES[row.state]}
          />
          {row.checked_in_at ? (
            <Text size="xs" c="dimmed">
              Arrived {formatBankTimeOfDay(row.checked_in_at)}
            </Text>
          ) : null}
          {/* The slot is over and nobody checked the donor in: staff may call them or expect a no-show. */}
          {row.late ? (
            <Text size="xs" c={TEXT_TONE.orange} fw={600}>
              Late: not checked in
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'actions',
      header: 'Actions',
      label: false,
      cell: (row) => (
        <DayActions
          row={row}
          date={data.date}
          today={today}
          checkingIn={checkIn.isPending && checkIn.variables === row.donation_id}
          busy={checkIn.isPending}
          onCheckIn={() =>
            singleFlight((finish) =>
              checkIn.mutate(row.donation_id, {
                onSettled: finish,
                onSuccess: () => {
                  notify({
                    title: 'Checked in',
                    message: `${row.donor_name} is checked in for ${row.time}.`,
                  });
                  // Check in leaves the row, and focus would fall to the top of the page: it goes on
                  // to the row's next step instead.
                  requestAnimationFrame(() =>
                    document.querySelector<HTMLElement>(`[data-collect-for="${row.donation_id}"]`)?.focus(),
                  );
                },
                onError: (error) =>
                  notify({
                    failed: true,
                    title: 'Check-in failed',
                    message: errorMessage(error, 'The donor could not be checked in. Please try again.'),
                  }),
              }),
            )
          }
          onCollect={() => {
            afterCollection.open(list.current, row.donation_id, 'collect', heading);
            setCollecting({
              id: row.donation_id,
              donor_name: row.donor_name,
              unit: row.units,
              bloodgroup: row.bloodgroup,
              date: data.date,
              disease: row.disease,
              lastDonation: row.lastDonation,
            });
          }}
        />
      ),
    },
  ];

  return (
    <Stack gap="md" ref={list}>
      {day.isError ? (
        <ErrorAlert
          message={errorMessage(day.error, 'The day list could not be loaded. Please try again.')}
          onRetry={() => void day.refetch()}
          retrying={day.isFetching}
        />
      ) : null}
      <DayHeadline day={data} />
      <DayCounts day={data} />
      {!data.open && data.appointments.length === 0 ? (
        <Paper withBorder radius="md">
          <EmptyState
            title="Closed on this day"
            description={`${data.site.name} does not open on ${formatDate(data.date)}. Choose another date to see its bookings.`}
            icon={<IconCalendarOff size={28} />}
          />
        </Paper>
      ) : data.appointments.length === 0 ? (
        <Paper withBorder radius="md">
          <EmptyState
            title="No bookings at this site on this day"
            description="Bookings appear here as soon as donors make them."
            icon={<IconCalendarEvent size={28} />}
          />
        </Paper>
      ) : (
        <DataTable
          caption={`Bookings at ${data.site.name} on ${formatDate(data.date)}`}
          columns={columns}
          rows={data.appointments}
          rowKey={(row) => row.donation_id}
          busy={day.isFetching && day.isPlaceholderData}
        />
      )}
      <RecordCollectionDialog
        donation={collecting}
        returnFocus={afterCollection.returnFocus}
        onRecorded={afterCollection.done}
        onClose={() => setCollecting(null)}
      />
    </Stack>
  );
}

/** The day, its hours and the site: on paper too, where the site and date pickers are not. */
function DayHeadline({ day }: { day: SiteDay }) {
  return (
    <Group justify="space-between" align="center" gap="xs" wrap="wrap">
      <Text size="sm" data-testid="day-hours" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
        <strong>{day.site.name}</strong>
        {' · '}
        <strong>{formatDate(day.date)}</strong>
        {' · '}
        {day.open && day.hours ? `Open ${day.hours.open}–${day.hours.close}` : 'Closed'}
        {' · '}
        {day.site.address}
      </Text>
      {day.appointments.length > 0 ? (
        // The list on paper, for the desk of a drive or when the network is down.
        <Button
          variant="default"
          size="xs"
          leftSection={<IconPrinter size={14} aria-hidden />}
          onClick={() => window.print()}
        >
          Print list
        </Button>
      ) : null}
    </Group>
  );
}

function DayCounts({ day }: { day: SiteDay }) {
  return (
    <SimpleGrid
      cols={{ base: 3, md: 5 }}
      spacing="sm"
      component="ul"
      aria-label="Counts of the day"
      p={0}
      m={0}
    >
      {APPOINTMENT_STATES.map((state) => (
        <Paper
          key={state}
          component="li"
          withBorder
          radius="md"
          p={{ base: 'xs', sm: 'sm' }}
          style={{ listStyle: 'none', minWidth: 0 }}
          data-testid={`count-${state}`}
        >
          <Text fw={700} fz={24} lh={1.1}>
            {day.counts[state]}
          </Text>
          <Text size="sm" c="dimmed">
            {APPOINTMENT_STATE_LABELS[state]}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

function DayActions({
  row,
  date,
  today,
  checkingIn,
  busy,
  onCheckIn,
  onCollect,
}: {
  row: DayAppointment;
  date: string;
  today: string;
  checkingIn: boolean;
  busy: boolean;
  onCheckIn: () => void;
  onCollect: () => void;
}) {
  const canCheckIn = row.state === 'booked' && date === today;
  const canCollect = (row.state === 'booked' || row.state === 'checked_in') && date <= today;
  if (!canCheckIn && !canCollect) {
    if ((row.state === 'booked' || row.state === 'checked_in') && date > today) {
      return (
        <Text size="xs" c="dimmed">
          Check-in and collection from {formatDate(date)}.
        </Text>
      );
    }
    return null;
  }
  return (
    <Group gap="xs" wrap="wrap">
      {canCheckIn ? (
        <Button
          size="xs"
          variant="outline"
          onClick={onCheckIn}
          disabled={busy}
          aria-label={`Check in ${row.donor_name} (${row.time})`}
        >
          {checkingIn ? 'Checking in...' : 'Check in'}
        </Button>
      ) : null}
      {canCollect ? (
        <Button
          size="xs"
          onClick={onCollect}
          data-collect-for={row.donation_id}
          data-action="collect"
          aria-label={`Record collection for ${row.donor_name} (${row.time})`}
        >
          Record collection
        </Button>
      ) : null}
    </Group>
  );
}
