import { useState } from 'react';
import { Box, Group, NativeSelect, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconDroplet } from '@tabler/icons-react';
import { PAGE_SIZE, UNIT_FILTERS, type BloodUnit } from '@bloodbank/shared/admin';
import { BLOOD_GROUPS, type BloodGroup } from '@bloodbank/shared/blood-groups';
import { COMPONENT_LABELS, COMPONENTS, type Component } from '@bloodbank/shared/components';
import { daysBetween } from '@bloodbank/shared/dates';
import { useBankToday } from '@/lib/bank-today';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorAlert } from '@/components/ui/error-alert';
import { PageLoader } from '@/components/ui/page-loader';
import { useDashboard } from '../api/get-dashboard';
import { useUnits } from '../api/get-units';
import { FilterAnnouncement, useFilterAnnouncement } from '../components/filter-announcement';
import { AdminPage } from '../components/admin-page';
import { BloodStockSummary } from '../components/blood-stock-summary';
import { type Column } from '../components/data-table';
import { DiscardUnitsForms } from '../components/discard-units-form';
import { ExportButton } from '../components/export-button';
import { FindUnitButton } from '../components/find-unit-link';
import { HeldUnits, HoldBadge } from '../components/held-units';
import { PagedTable } from '../components/paged-table';
import { COMPONENT_ORDER } from '../components/component-options';
import { canProcess, ProcessButton, ProcessUnitDialog } from '../components/process-unit-dialog';
import { ReceiveUnitsForm } from '../components/receive-units-form';
import { SearchInput } from '../components/search-input';
import { DiscardUnitButton, DiscardUnitDialog } from '../components/discard-unit-dialog';
import { StatusBadge } from '../components/status-badge';
import { capitalize, formatDate, formatDateTime } from '@/lib/format';
import { useListParams } from '../hooks/use-list-params';
import { TEXT_TONE } from '../tones';
import { BLOOD_ANCHORS } from '../anchors';
import { useScrollToHash } from '@/lib/use-scroll-to-hash';
import { useFocusAfterAction } from '@/lib/use-focus-after-action';

const GROUP_FILTER = [
  { value: '', label: 'All groups' },
  ...BLOOD_GROUPS.map((group) => ({ value: group, label: group })),
];
const COMPONENT_FILTER = [
  { value: '', label: 'All components' },
  ...COMPONENT_ORDER.map((component) => ({ value: component, label: COMPONENT_LABELS[component] })),
];
/** The shelf first: "available" is the default; "all" shows the whole history. */
const STATUS_FILTER = [
  { value: 'all', label: 'All statuses' },
  ...UNIT_FILTERS.map((status) => ({
    value: status,
    label:
      status === 'expired'
        ? 'Expired (not discarded)'
        : status === 'quarantined'
          ? 'Quarantined (in testing or on hold)'
          : capitalize(status),
  })),
];

function ExpiryCell({ unit }: { unit: BloodUnit }) {
  const today = useBankToday();
  if (unit.status !== 'available') return <>{formatDate(unit.expires_on)}</>;
  const days = daysBetween(today, unit.expires_on);
  return (
    <Stack gap={0}>
      <Text size="sm">{formatDate(unit.expires_on)}</Text>
      {!unit.expired && days <= 7 ? (
        <Text size="xs" c={TEXT_TONE.orange}>
          {days <= 0 ? 'expires today' : days === 1 ? 'expires tomorrow' : `in ${days} days`}
        </Text>
      ) : null}
    </Stack>
  );
}

/** "Red cells", and for a separated unit the whole-blood unit it came from. */
function ComponentCell({ unit }: { unit: BloodUnit }) {
  return (
    <Stack gap={0}>
      <Text size="sm" fw={unit.component === 'whole_blood' ? 400 : 600} style={{ whiteSpace: 'nowrap' }}>
        {COMPONENT_LABELS[unit.component]}
      </Text>
      {unit.parent_unit_id !== null ? (
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          from unit #{unit.parent_unit_id}
        </Text>
      ) : null}
    </Stack>
  );
}

const columns = (
  onProcess: (unit: BloodUnit) => void,
  onDiscard: (unit: BloodUnit) => void,
): Column<BloodUnit>[] => [
  { key: 'id', header: 'Unit', title: true, nowrap: true, cell: (unit) => `#${unit.id}` },
  { key: 'bloodgroup', header: 'Blood Group', cell: (unit) => <Text fw={700}>{unit.bloodgroup}</Text> },
  { key: 'component', header: 'Component', cell: (unit) => <ComponentCell unit={unit} /> },
  {
    key: 'source',
    header: 'Source',
    cell: (unit) =>
      unit.source === 'donation' ? `Donation #${unit.donation_id ?? '?'}` : 'Received by hand',
  },
  { key: 'collected', header: 'Collected', nowrap: true, cell: (unit) => formatDate(unit.collected_on) },
  { key: 'expires', header: 'Expires', nowrap: true, cell: (unit) => <ExpiryCell unit={unit} /> },
  {
    key: 'status',
    header: 'Status',
    cell: (unit) =>
      unit.expired && unit.status === 'available' ? (
        <StatusBadge status="expired" />
      ) : (
        <StatusBadge status={unit.status} />
      ),
  },
  {
    key: 'detail',
    header: 'Details',
    cell: (unit) =>
      unit.status === 'issued' ? (
        <Text size="sm">
          Request #{unit.request_id} · {formatDateTime(unit.issued_at)}
        </Text>
      ) : unit.status === 'quarantined' ? (
        <HoldBadge unit={unit} />
      ) : unit.status === 'processed' ? (
        <Text size="sm">Separated into components</Text>
      ) : unit.status === 'discarded' ? (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {unit.discard_reason ?? 'Discarded'} · {formatDateTime(unit.discarded_at)}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          On the shelf
        </Text>
      ),
  },
  {
    key: 'actions',
    header: 'Actions',
    label: false,
    cell: (unit) =>
      canProcess(unit) || unit.status === 'available' ? (
        <Group gap="xs" wrap="nowrap">
          {canProcess(unit) ? <ProcessButton unit={unit} onProcess={onProcess} /> : null}
          {/* A bag on the shelf (expired ones too) can be discarded by its number. */}
          {unit.status === 'available' ? <DiscardUnitButton unit={unit} onDiscard={onDiscard} /> : null}
        </Group>
      ) : null,
  },
];

/** The bag number typed ("2879", "#2879" is cleaned before): a positive whole number, or undefined. */
const unitNumberOf = (text: string): number | undefined =>
  /^[1-9]\d{0,8}$/.test(text) ? Number(text) : undefined;

/** Manage Blood: stock per group, receive and discard forms, and the unit list by group and status. */
export function BloodScreen() {
  const { values, page, update } = useListParams(
    { bloodgroup: '', component: '', status: 'available', held: '1', unit: '' },
    { bloodgroup: ['', ...BLOOD_GROUPS], component: ['', ...COMPONENTS], status: ['all', ...UNIT_FILTERS] },
  );
  const [processing, setProcessing] = useState<BloodUnit | null>(null);
  const [discarding, setDiscarding] = useState<BloodUnit | null>(null);
  // A discarded unit leaves the shelf's list with its button: focus goes on from the Units heading.
  const afterDiscard = useFocusAfterAction();
  const openDiscard = (unit: BloodUnit) => {
    afterDiscard.reset();
    setDiscarding(unit);
  };
  // The dashboard's links open this page at the form or the table they name.
  useScrollToHash();
  const dashboard = useDashboard();
  // A bag in hand is found by its label's number, whatever became of it: the other filters step aside.
  const unitNumber = unitNumberOf(values.unit);
  const byNumber = unitNumber !== undefined;
  const units = useUnits(
    byNumber
      ? { unit: unitNumber, page, pageSize: PAGE_SIZE.default }
      : {
          bloodgroup: (values.bloodgroup || undefined) as BloodGroup | undefined,
          component: (values.component || undefined) as Component | undefined,
          status: values.status === 'all' ? undefined : (values.status as (typeof UNIT_FILTERS)[number]),
          page,
          pageSize: PAGE_SIZE.default,
        },
  );
  const filtered = byNumber || values.bloodgroup !== '' || values.component !== '' || values.status !== 'all';
  const { markFiltered, announcement } = useFilterAnnouncement(units, (total) =>
    total > 0 ? `${total} ${total === 1 ? 'unit' : 'units'} found.` : 'No units match these filters.',
  );
  /** A search or filter of the unit list: said to a screen reader once its list has come. */
  const filter = (changes: Partial<typeof values>) => {
    markFiltered();
    update(changes);
  };
  const expired = dashboard.data?.inventory.reduce((sum, row) => sum + row.expired, 0) ?? 0;

  return (
    <AdminPage
      title="Manage Blood"
      description="Stock counts only usable units: available and not past their expiry date."
      actions={
        <>
          <FindUnitButton />
          <ExportButton name="units" />
        </>
      }
    >
      <Stack gap="xl">
        <section aria-labelledby="stock-heading">
          <Title order={2} size="h3" id="stock-heading" mb="sm">
            Stock by Blood Group
          </Title>
          {dashboard.isPending ? (
            <PageLoader label="Loading stock" />
          ) : dashboard.isError ? (
            <ErrorAlert
              message="The stock could not be loaded. Please try again."
              onRetry={() => void dashboard.refetch()}
              retrying={dashboard.isFetching}
            />
          ) : (
            <BloodStockSummary
              inventory={dashboard.data.inventory}
              selected={values.bloodgroup as BloodGroup | ''}
              onSelect={(bloodgroup) => filter({ bloodgroup })}
            />
          )}
        </section>

        <HeldUnits
          page={Math.max(1, Number.parseInt(values.held, 10) || 1)}
          onPageChange={(next) => update({ held: String(next), page })}
          onProcess={setProcessing}
        />

        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <ReceiveUnitsForm />
          <DiscardUnitsForms
            expired={expired}
            stock={dashboard.data?.inventory}
            refreshStock={async () => (await dashboard.refetch()).data?.inventory}
          />
        </SimpleGrid>

        {/* The target of "Find a bag by its number": the part, its heading included, is brought
            under the sticky header and its first field, the unit number, is focused (use-scroll-to-hash.ts). */}
        <section aria-labelledby={BLOOD_ANCHORS.units} id={BLOOD_ANCHORS.unitSearch}>
          <Title order={2} size="h3" id={BLOOD_ANCHORS.units} mb="sm" tabIndex={-1}>
            Units
          </Title>
          <Stack gap="md">
            <Group gap="sm" align="flex-start" wrap="wrap">
              <Box style={{ flex: '1 1 260px' }}>
                <SearchInput
                  label="Unit number"
                  placeholder="The number on the bag's label"
                  inputMode="numeric"
                  value={values.unit}
                  error={values.unit !== '' && !byNumber ? 'Enter a unit number' : null}
                  onChange={(unit) => filter({ unit: unit.replace(/[#\s]/g, '') })}
                />
              </Box>
              <NativeSelect
                label="Blood Group"
                data={GROUP_FILTER}
                value={values.bloodgroup}
                disabled={byNumber}
                onChange={(event) => filter({ bloodgroup: event.currentTarget.value })}
                w={160}
              />
              <NativeSelect
                label="Component"
                data={COMPONENT_FILTER}
                value={values.component}
                disabled={byNumber}
                onChange={(event) => filter({ component: event.currentTarget.value })}
                w={180}
              />
              <NativeSelect
                label="Status"
                data={STATUS_FILTER}
                value={values.status}
                disabled={byNumber}
                onChange={(event) => filter({ status: event.currentTarget.value })}
                w={220}
              />
            </Group>
            {byNumber ? (
              <Text size="sm" c="dimmed">
                Showing the unit with this number and the components separated from it, whatever their group,
                component or status.
              </Text>
            ) : null}
            <PagedTable
              query={units}
              loadingLabel="Loading units"
              errorText="The units could not be loaded. Please try again."
              empty={
                <EmptyState
                  title={
                    byNumber
                      ? `No unit has the number ${values.unit}`
                      : !filtered
                        ? 'No blood units yet'
                        : values.status === 'available'
                          ? 'No units on the shelf'
                          : 'No units match these filters'
                  }
                  description={
                    byNumber
                      ? "Check the number on the bag's label, or clear the search to see every unit."
                      : filtered
                        ? 'Choose another blood group, component or status, or receive units above.'
                        : 'Units appear when a donation is collected or when you receive units above.'
                  }
                  icon={<IconDroplet size={28} />}
                />
              }
              caption="Blood units"
              columns={columns(setProcessing, openDiscard)}
              rowKey={(unit) => unit.id}
              pagesLabel="Units"
              page={page}
              onPageChange={(next) => update({ page: next })}
            />
            <FilterAnnouncement text={announcement} />
          </Stack>
        </section>
      </Stack>
      <ProcessUnitDialog unit={processing} onClose={() => setProcessing(null)} />
      <DiscardUnitDialog
        unit={discarding}
        returnFocus={afterDiscard.returnFocus}
        onDiscarded={() => afterDiscard.moveTo(() => document.getElementById(BLOOD_ANCHORS.units))}
        onClose={() => setDiscarding(null)}
      />
    </AdminPage>
  );
}
