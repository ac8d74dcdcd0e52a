import { useEffect, useRef, useState } from 'react';
import { Button, Group, NativeSelect, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconBuildingHospital, IconPlus } from '@tabler/icons-react';
import { isValidIsoDate } from '@bloodbank/shared/dates';
import { useBankToday } from '@/lib/bank-today';
import type { Site } from '@bloodbank/shared/sites';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorAlert } from '@/components/ui/error-alert';
import { PageLoader } from '@/components/ui/page-loader';
import { errorMessage } from '@/lib/api-client';
import { pluralize } from '@/lib/format';
import { OpeningHours } from '@/components/ui/opening-hours';
import { useSites } from '../api/get-sites';
import { useUpdateSite } from '../api/update-site';
import { AdminPage } from '../components/admin-page';
import { ConfirmDialog } from '../components/confirm-dialog';
import { DataTable, type Column } from '../components/data-table';
import { ScreenSection } from '../components/screen-section';
import { SiteDayList } from '../components/site-day-list';
import { SiteFormDrawer } from '../components/site-form-drawer';
import { StatusBadge } from '../components/status-badge';
import { useListParams } from '../hooks/use-list-params';
import { notify } from '../notify';
import { DANGER } from '../tones';
import { busyButtonProps } from '@/lib/busy-button';

/**
 * Sites and Appointments (PRODUCT.md 3.6): the donation sites with their week, slot length and
 * capacity (add, edit, deactivate), then one site's day list for a chosen date.
 */
export function SitesScreen() {
  const sites = useSites();
  const { values, update } = useListParams({ site: '', date: '' });
  const today = useBankToday();
  const [editing, setEditing] = useState<Site | 'new' | null>(null);
  const [deactivating, setDeactivating] = useState<Site | null>(null);
  const changeSite = useUpdateSite();

  // Activate gives way to Deactivate once the list has the site as active: the keyboard goes on there.
  const activated = useRef<number | null>(null);
  const focusDeactivate = () => {
    const deactivate = document.querySelector<HTMLElement>(`[data-deactivate-site="${activated.current}"]`);
    if (!deactivate) return;
    deactivate.focus();
    activated.current = null;
  };
  useEffect(() => {
    if (activated.current !== null) focusDeactivate();
  }, [sites.data]);

  const setActive = (site: Site, active: boolean, onDone?: () => void) =>
    changeSite.mutate(
      { id: site.id, changes: { active } },
      {
        onSuccess: (saved) => {
          notify({
            title: active ? 'Site activated' : 'Site deactivated',
            message: active
              ? `Donors can book at ${saved.name} again.`
              : `Donors can no longer book at ${saved.name}. Its bookings stay.`,
          });
          onDone?.();
        },
        onError: (error) => {
          if (!active) return;
          notify({
            failed: true,
            title: 'Activation failed',
            message: errorMessage(error, `${site.name} could not be activated. Please try again.`),
          });
        },
      },
    );

  const columns: Column<Site>[] = [
    {
      key: 'site',
      header: 'Site',
      title: true,
      cell: (site) => (
        <Stack gap={0}>
          <Text fw={600} size="sm">
            {site.name}
          </Text>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {site.address}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'hours',
      header: 'Open',
      cell: (site) => (
        <Stack gap={0}>
          <Text size="sm">
            <OpeningHours hours={site.hours} />
          </Text>
          {site.closed_dates.length > 0 ? (
            <Text size="xs" c="dimmed">
              Closed on {pluralize(site.closed_dates.length, 'date')}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'slots',
      header: 'Slots',
      nowrap: true,
      cell: (site) => (
        <Text size="sm">
          {site.slot_minutes} min · {pluralize(site.capacity, 'donor')} each
        </Text>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      cell: (site) => (
        <StatusBadge
          status={site.active ? 'active' : 'inactive'}
          label={site.active ? 'Active' : 'Inactive'}
        />
      ),
    },
    {
      key: 'actions',
      header: 'Actions',
      label: false,
      cell: (site) => (
        <Group gap="xs" wrap="nowrap">
          <Button
            size="xs"
            variant="default"
            onClick={() => setEditing(site)}
            aria-label={`Edit ${site.name}`}
          >
            Edit
          </Button>
          {site.active ? (
            <Button
              size="xs"
              variant="outline"
              color={DANGER}
              onClick={() => setDeactivating(site)}
              aria-label={`Deactivate ${site.name}`}
              data-deactivate-site={site.id}
            >
              Deactivate
            </Button>
          ) : (
            <Button
              size="xs"
              variant="outline"
              onClick={() => {
                if (changeSite.isPending) return;
                setActive(site, true, () => {
                  activated.current = site.id;
                  // The list may have the site as active already; else it will in a moment.
                  focusDeactivate();
                });
              }}
              {...busyButtonProps(changeSite.isPending)}
              aria-label={`Activate ${site.name}`}
            >
              Activate
            </Button>
          )}
        </Group>
      ),
    },
  ];

  let body;
  if (sites.isPending) {
    body = <PageLoader label="Loading donation sites" />;
  } else if (sites.isError) {
    body = (
      <ErrorAlert
        message={errorMessage(sites.error, 'The donation sites could not be loaded. Please try again.')}
        onRetry={() => void sites.refetch()}
        retrying={sites.isFetching}
      />
    );
  } else if (sites.data.length === 0) {
    body = (
      <Paper withBorder radius="md">
        <EmptyState
          title="No donation sites yet"
          description="Donors book by date alone until you add a site. Once a site is active, each booking names a site and a time."
          icon={<IconBuildingHospital size={28} />}
          action={
            <Button variant="light" mt="xs" onClick={() => setEditing('new')}>
              Add the first site
            </Button>
          }
        />
      </Paper>
    );
  } else {
    body = (
      <DataTable caption="Donation sites" columns={columns} rows={sites.data} rowKey={(site) => site.id} />
    );
  }

  const siteList = sites.data ?? [];
  const chosenSite = siteList.find((site) => String(site.id) === values.site) ?? siteList[0] ?? null;
  // A date typed into the address by hand that is no date at all shows today.
  const date = isValidIsoDate(values.date) ? values.date : today;

  return (
    <AdminPage
      title="Sites and Appointments"
      description="Where donors can book, when each site opens, and who comes when."
      actions={
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
          Add site
        </Button>
      }
    >
      <Stack gap="xl">
        {/* A printed page is the day list, for the drive's desk. */}
        <ScreenSection
          id="sites"
          printed={false}
          title="Donation sites"
          description="Active sites take bookings in slots; deactivate a site to stop new bookings there."
        >
          {body}
        </ScreenSection>

        {chosenSite ? (
          <ScreenSection
            id="day"
            title="Day list"
            description="Who comes when at one site on one day. Check donors in on the day and record the collection."
            actions={
              <Group gap="sm" align="flex-end" wrap="wrap" data-print="hide">
                <NativeSelect
                  label="Site"
                  data={siteList.map((site) => ({
                    value: String(site.id),
                    label: site.active ? site.name : `${site.name} (inactive)`,
                  }))}
                  value={String(chosenSite.id)}
                  onChange={(event) => update({ site: event.currentTarget.value })}
                  w={{ base: '100%', xs: 240 }}
                />
                <DayInput value={date} onChange={(next) => update({ date: next === today ? '' : next })} />
              </Group>
            }
          >
            <SiteDayList siteId={chosenSite.id} date={date} />
          </ScreenSection>
        ) : null}
      </Stack>

      <SiteFormDrawer site={editing} onClose={() => setEditing(null)} />
      <ConfirmDialog
        opened={deactivating !== null}
        title={deactivating ? `Deactivate ${deactivating.name}?` : ''}
        confirmLabel="Deactivate"
        busyLabel="Deactivating..."
        busy={changeSite.isPending}
        error={
          deactivating && changeSite.isError
            ? errorMessage(changeSite.error, 'The site could not be deactivated. Please try again.')
            : null
        }
        onConfirm={() => {
          if (deactivating) setActive(deactivating, false, () => setDeactivating(null));
        }}
        onClose={() => {
          changeSite.reset();
          setDeactivating(null);
        }}
      >
        {deactivating
          ? `Donors can no longer book at ${deactivating.name}. Bookings already made stay on its day lists, and you can activate the site again at any time.`
          : ''}
      </ConfirmDialog>
    </AdminPage>
  );
}

/** The day to list: any valid date, kept in the address; typing a half date changes nothing yet. */
function DayInput({ value, onChange }: { value: string; onChange: (date: string) => void }) {
  const [draft, setDraft] = useState(value);
  const [shown, setShown] = useState(value);
  // The address changed the date (Back, a link): show it.
  if (value !== shown) {
    setShown(value);
    setDraft(value);
  }
  return (
    <TextInput
      label="Date"
      type="date"
      value={draft}
      onChange={(event) => {
        const next = event.currentTarget.value;
        setDraft(next);
        if (isValidIsoDate(next)) onChange(next);
      }}
      w={{ base: '100%', xs: 180 }}
    />
  );
}
