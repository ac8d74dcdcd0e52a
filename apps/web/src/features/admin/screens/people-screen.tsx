import { useMemo, useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconUserOff, IconUsers } from '@tabler/icons-react';
import {
  PAGE_SIZE,
  PEOPLE_SORTS,
  PEOPLE_STATUSES,
  type AdminDonor,
  type AdminPatient,
} from '@bloodbank/shared/admin';
import { EmptyState } from '@/components/ui/empty-state';
import { errorMessage } from '@/lib/api-client';
import { useDeactivatePerson } from '../api/deactivate-person';
import { usePeople, type PersonKind } from '../api/get-people';
import { AdminPage } from '../components/admin-page';
import { ConfirmDialog } from '../components/confirm-dialog';
import { StatusFilter } from '../components/decision-cells';
import { type Column } from '../components/data-table';
import { FilterAnnouncement, useFilterAnnouncement } from '../components/filter-announcement';
import { PagedTable } from '../components/paged-table';
import { PersonDrawer } from '../components/person-drawer';
import { SearchInput } from '../components/search-input';
import { StatusBadge } from '../components/status-badge';
import { formatDate, fullName } from '@/lib/format';
import { useListParams } from '../hooks/use-list-params';
import { DANGER } from '../tones';
import { notify } from '../notify';

type Person = AdminDonor | AdminPatient;

const SCREENS = {
  donors: {
    title: 'Manage Donors',
    description: 'Find a donor, check or correct their details, or deactivate their account.',
    noun: 'donor',
    plural: 'donors',
  },
  patients: {
    title: 'Manage Patients',
    description: 'Find a patient, check or correct their details, or deactivate their account.',
    noun: 'patient',
    plural: 'patients',
  },
} as const;

/** An e-mail address that wraps before the "@" when the column is narrow, not mid-word. */
function EmailAddress({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  if (at <= 0) return <span style={{ overflowWrap: 'anywhere' }}>{email}</span>;
  return (
    <span style={{ overflowWrap: 'anywhere' }}>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </span>
  );
}

/** Newest first by default; names and groups read best from A. */
const FIRST_ORDER: Record<string, 'asc' | 'desc'> = {
  created_at: 'desc',
  name: 'asc',
  username: 'asc',
  bloodgroup: 'asc',
};

/** Manage Donors and Manage Patients: search, sort, page, view and edit, deactivate. */
export function PeopleScreen({ kind }: { kind: PersonKind }) {
  const screen = SCREENS[kind];
  const { values, page, update } = useListParams(
    { search: '', sort: 'created_at', order: 'desc', status: '' },
    { sort: PEOPLE_SORTS, order: ['asc', 'desc'], status: ['', ...PEOPLE_STATUSES] },
  );
  const query = usePeople(kind, {
    search: values.search,
    status: (values.status || undefined) as (typeof PEOPLE_STATUSES)[number] | undefined,
    sort: values.sort as (typeof PEOPLE_SORTS)[number],
    order: values.order as 'asc' | 'desc',
    page,
    pageSize: PAGE_SIZE.default,
  });

  const [openId, setOpenId] = useState<number | null>(null);
  const [confirming, setConfirming] = useState<Person | null>(null);
  const deactivate = useDeactivatePerson(kind);
  const { reset: resetDeactivate } = deactivate;
  const { markFiltered, announcement } = useFilterAnnouncement(query, (total) =>
    total > 0
      ? `${total} ${total === 1 ? screen.noun : screen.plural} found.`
      : values.search
        ? `No ${screen.plural} match "${values.search}".`
        : values.status
          ? `No ${values.status} ${screen.plural}.`
          : `No ${screen.plural} yet.`,
  );
  const filter = (changes: Partial<typeof values>) => {
    markFiltered();
    update(changes);
  };

  // The open person is read from the list, so the drawer shows what the server has now.
  const open = query.data?.items.find((person) => person.id === openId) ?? null;

  const columns = useMemo<Column<Person>[]>(() => {
    const shared: Column<Person>[] = [
      {
        key: 'name',
        header: 'Name',
        sort: 'name',
        title: true,
        cell: (person) => (
          <Stack gap={0}>
            <Text fw={600} size="sm">
              {fullName(person)}
            </Text>
            <Text size="xs" c="dimmed">
              {person.username}
            </Text>
          </Stack>
        ),
      },
      {
        key: 'bloodgroup',
        header: 'Blood Group',
        sort: 'bloodgroup',
        nowrap: true,
        cell: (person) => <Text fw={700}>{person.bloodgroup}</Text>,
      },
      {
        key: 'contact',
        header: 'Contact',
        cell: (person) => (
          <Stack gap={0}>
            <Text size="sm">
              <EmailAddress email={person.email} />
            </Text>
            <Text size="sm" c="dimmed">
              {person.mobile}
            </Text>
          </Stack>
        ),
      },
    ];
    const specific: Column<Person>[] =
      kind === 'donors'
        ? [
            {
              key: 'donations',
              header: 'Donations',
              align: 'right',
              cell: (person) => (person as AdminDonor).donations,
            },
          ]
        : [
            {
              key: 'medical',
              header: 'Medical',
              cell: (person) => {
                const patient = person as AdminPatient;
                return (
                  <Stack gap={0}>
                    <Text size="sm">
                      {patient.disease}, age {patient.age}
                    </Text>
                    <Text size="sm" c="dimmed">
                      {patient.doctorname}
                    </Text>
                  </Stack>
                );
              },
            },
            {
              key: 'requests',
              header: 'Requests',
              align: 'right',
              cell: (person) => (person as AdminPatient).requests,
            },
          ];
    return [
      ...shared,
      ...specific,
      {
        key: 'created_at',
        header: 'Registered',
        sort: 'created_at',
        nowrap: true,
        cell: (person) => formatDate(person.created_at),
      },
      {
        key: 'status',
        header: 'Status',
        cell: (person) => (
          <Stack gap={4} align="flex-start">
            <StatusBadge status={person.is_active ? 'active' : 'deactivated'} />
            {/* A deferred donor cannot book: staff see it without opening the details. */}
            {'deferred' in person && person.deferred ? (
              <>
                <StatusBadge status="deferred" label="Deferred" />
                <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {person.deferred.until ? `until ${formatDate(person.deferred.until)}` : 'permanently'}
                </Text>
              </>
            ) : null}
          </Stack>
        ),
      },
      {
        key: 'actions',
        header: 'Actions',
        label: false,
        nowrap: true,
        cell: (person) => (
          <Group gap="xs" wrap="nowrap">
            <Button
              size="xs"
              variant="light"
              onClick={() => setOpenId(person.id)}
              // The username too: two people of one name (common) would read the same.
              aria-label={`Details of ${fullName(person)} (${person.username})`}
            >
              Details
            </Button>
            {person.is_active ? (
              <Button
                size="xs"
                variant="subtle"
                color={DANGER}
                // The subtle variant takes its text from red 6, too light on white.
                c={DANGER}
                onClick={() => {
                  resetDeactivate();
                  setConfirming(person);
                }}
                aria-label={`Deactivate ${fullName(person)} (${person.username})`}
              >
                Deactivate
              </Button>
            ) : null}
          </Group>
        ),
      },
    ];
  }, [kind, resetDeactivate]);

  const confirmDeactivate = () => {
    if (!confirming) return;
    const person = confirming;
    deactivate.mutate(person.id, {
      onSuccess: () => {
        setConfirming(null);
        notify({
          title: `${screen.noun === 'donor' ? 'Donor' : 'Patient'} deactivated`,
          message: `${fullName(person)} can no longer sign in.`,
        });
      },
    });
  };

  return (
    <AdminPage title={screen.title} description={screen.description}>
      <Stack gap="md">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <SearchInput
            label={`Search ${screen.plural}`}
            placeholder="Name, username, e-mail, mobile or blood group"
            value={values.search}
            onChange={(search) => filter({ search })}
          />
          {/* Active only: the dashboard's total; deactivated ones stay for their history. */}
          <StatusFilter
            statuses={PEOPLE_STATUSES}
            labels={{ active: 'Active', deactivated: 'Deactivated' }}
            allLabel="Active and deactivated"
            value={values.status}
            onChange={(status) => filter({ status })}
          />
        </Group>
        <FilterAnnouncement text={announcement} />

        <PagedTable
          query={query}
          loadingLabel={`Loading ${screen.plural}`}
          errorText={`The ${screen.plural} could not be loaded. Please try again.`}
          empty={
            values.search ? (
              <EmptyState
                title={`No ${screen.plural} match "${values.search}"`}
                description="Try part of a name, a username, an e-mail address, a mobile number or a blood group."
                icon={<IconUsers size={28} />}
                action={
                  <Button variant="light" onClick={() => filter({ search: '' })}>
                    Clear search
                  </Button>
                }
              />
            ) : values.status ? (
              <EmptyState
                title={`No ${values.status} ${screen.plural}`}
                description={`Choose "Active and deactivated" to see every ${screen.noun}.`}
                icon={<IconUsers size={28} />}
                action={
                  <Button variant="light" onClick={() => filter({ status: '' })}>
                    Show every {screen.noun}
                  </Button>
                }
              />
            ) : (
              <EmptyState
                title={`No ${screen.plural} yet`}
                description={`${screen.noun === 'donor' ? 'Donors' : 'Patients'} appear here once they register.`}
                icon={<IconUsers size={28} />}
              />
            )
          }
          caption={screen.title}
          columns={columns}
          rowKey={(person) => person.id}
          sort={{
            by: values.sort,
            order: values.order as 'asc' | 'desc',
            onSort: (by) =>
              update(
                by === values.sort
                  ? { order: values.order === 'asc' ? 'desc' : 'asc' }
                  : { sort: by, order: FIRST_ORDER[by] ?? 'asc' },
              ),
          }}
          pagesLabel={screen.title}
          page={page}
          onPageChange={(next) => update({ page: next })}
        />
      </Stack>

      <PersonDrawer
        kind={kind}
        person={open}
        onClose={() => setOpenId(null)}
        covered={confirming !== null}
        onDeactivate={(person) => {
          deactivate.reset();
          setConfirming(person);
        }}
      />

      <ConfirmDialog
        opened={confirming !== null}
        title={`Deactivate ${confirming ? fullName(confirming) : screen.noun}?`}
        confirmLabel={`Deactivate ${screen.noun}`}
        busyLabel="Deactivating..."
        busy={deactivate.isPending}
        error={
          deactivate.isError
            ? errorMessage(deactivate.error, 'The account could not be deactivated. Please try again.')
            : null
        }
        onConfirm={confirmDeactivate}
        onClose={() => setConfirming(null)}
      >
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <IconUserOff size={24} aria-hidden style={{ flexShrink: 0 }} />
          <Text size="sm">
            {confirming ? `${fullName(confirming)} (${confirming.username})` : 'This account'} will no longer
            be able to sign in, and any session they have open ends now.{' '}
            {kind === 'donors'
              ? 'A booking they have waiting is cancelled, and their place freed. Their donations stay in the history.'
              : 'Their requests stay in the history.'}
          </Text>
        </Group>
      </ConfirmDialog>
    </AdminPage>
  );
}
