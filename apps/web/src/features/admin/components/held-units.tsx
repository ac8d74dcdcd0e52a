import { useState } from 'react';
import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { IconFlask } from '@tabler/icons-react';
import { PAGE_SIZE, type BloodUnit } from '@bloodbank/shared/admin';
import { COMPONENT_LABELS } from '@bloodbank/shared/components';
import { EmptyState } from '@/components/ui/empty-state';
import { errorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { paths } from '@/app/paths';
import { useFocusAfterAction } from '@/lib/use-focus-after-action';
import { useSingleFlight } from '@/lib/use-single-flight';
import { useUnits } from '../api/get-units';
import { useReleaseUnit } from '../api/release-unit';
import { ConfirmDialog } from './confirm-dialog';
import { DiscardUnitButton, DiscardUnitDialog } from './discard-unit-dialog';
import { canProcess, ProcessButton } from './process-unit-dialog';
import { type Column } from './data-table';
import { PagedTable } from './paged-table';
import { StatusBadge } from './status-badge';
import { notify } from '../notify';

/** Why a quarantined unit is not stock, in words. */
export function HoldBadge({ unit }: { unit: BloodUnit }) {
  return unit.hold_reason === 'lookback' ? (
    <StatusBadge status="lookback" label="Lookback hold" />
  ) : (
    <StatusBadge status="testing" label="In testing" />
  );
}

/**
 * Manage Blood's units that are not stock yet (PRODUCT.md 3.3): in testing (their donation awaits
 * its results, which decide them) and on a lookback hold (a later reactive test of the same donor),
 * which staff release to the shelf or discard.
 */
export function HeldUnits({
  page,
  onPageChange,
  onProcess,
}: {
  page: number;
  onPageChange: (page: number) => void;
  /** Opens the Process dialog for a whole-blood unit (in testing units may be separated too). */
  onProcess: (unit: BloodUnit) => void;
}) {
  const units = useUnits({ status: 'quarantined', page, pageSize: PAGE_SIZE.default });
  const release = useReleaseUnit();
  const [releasing, setReleasing] = useState<BloodUnit | null>(null);
  // Discarded with a reason staff type, as every discard: the lookback's outcome is in the audit log.
  const [discarding, setDiscarding] = useState<BloodUnit | null>(null);

  // The unit leaves this list with its hold: focus goes on from the section's heading.
  const afterAction = useFocusAfterAction();
  const heading = () => document.getElementById('held-heading');
  const openRelease = (unit: BloodUnit) => {
    release.reset();
    afterAction.reset();
    setReleasing(unit);
  };

  // Both clicks of a double-click arrive before the button shows busy: the second request would be
  // refused (the unit is no longer held) and its error would be all the dialog heard of.
  const singleFlight = useSingleFlight();
  const confirmRelease = () => {
    const unit = releasing;
    if (!unit) return;
    singleFlight((finish) => {
      release.mutate(unit.id, {
        onSettled: finish,
        onSuccess: (released) => {
          afterAction.moveTo(heading);
          setReleasing(null);
          notify({
            title: 'Unit released',
            // A unit whose own donation has no results yet goes back to testing, never to the shelf.
            message:
              released.status === 'available'
                ? `Unit #${unit.id} (${unit.bloodgroup}) is available again.`
                : `Unit #${unit.id} (${unit.bloodgroup}) is back in testing until its donation's results are in.`,
          });
        },
      });
    });
  };

  const columns: Column<BloodUnit>[] = [
    { key: 'id', header: 'Unit', title: true, nowrap: true, cell: (unit) => `#${unit.id}` },
    { key: 'bloodgroup', header: 'Blood Group', cell: (unit) => <Text fw={700}>{unit.bloodgroup}</Text> },
    { key: 'component', header: 'Component', nowrap: true, cell: (unit) => COMPONENT_LABELS[unit.component] },
    {
      key: 'source',
      header: 'Source',
      cell: (unit) =>
        unit.source === 'donation' ? (
          <Stack gap={0}>
            <Text size="sm">{`Donation #${unit.donation_id ?? '?'}`}</Text>
            {/* A lookback hold is about this donor: staff find them (and their deferral) from here. */}
            {unit.donor ? (
              <Anchor
                component={Link}
                to={`${paths.admin.donors}?search=${encodeURIComponent(unit.donor.username)}`}
                size="xs"
              >
                {unit.donor.name}
              </Anchor>
            ) : null}
          </Stack>
        ) : (
          'Received by hand'
        ),
    },
    { key: 'collected', header: 'Collected', nowrap: true, cell: (unit) => formatDate(unit.collected_on) },
    { key: 'expires', header: 'Expires', nowrap: true, cell: (unit) => formatDate(unit.expires_on) },
    { key: 'hold', header: 'Held for', cell: (unit) => <HoldBadge unit={unit} /> },
    {
      key: 'actions',
      header: 'Actions',
      label: false,
      cell: (unit) =>
        unit.hold_reason === 'lookback' ? (
          <Group gap="xs" wrap="nowrap">
            <Button
              size="xs"
              variant="light"
              onClick={() => openRelease(unit)}
              aria-label={`Release unit #${unit.id}`}
            >
              Release
            </Button>
            <DiscardUnitButton
              unit={unit}
              onDiscard={(held) => {
                afterAction.reset();
                setDiscarding(held);
              }}
            />
          </Group>
        ) : (
          <Group gap="xs" wrap="wrap">
            {canProcess(unit) ? <ProcessButton unit={unit} onProcess={onProcess} /> : null}
            <Text size="xs" c="dimmed">
              Decided by its test results
            </Text>
          </Group>
        ),
    },
  ];

  return (
    <section aria-labelledby="held-heading">
      <Stack gap={2} mb="sm">
        <Title order={2} size="h3" id="held-heading">
          In Testing and On Hold
        </Title>
        <Text size="sm" c="dimmed">
          Not stock: units waiting for their donation&apos;s test results, and units on a lookback hold after
          a reactive test of the same donor.
        </Text>
      </Stack>
      <PagedTable
        query={units}
        loadingLabel="Loading units in testing"
        errorText="The units in testing could not be loaded. Please try again."
        empty={
          <EmptyState
            title="No units in testing or on hold"
            description="Units appear here when a collection is recorded, until their results are in."
            icon={<IconFlask size={28} />}
          />
        }
        caption="Units in testing and on hold"
        columns={columns}
        rowKey={(unit) => unit.id}
        highlight={(unit) => unit.hold_reason === 'lookback'}
        pagesLabel="Units in testing"
        page={page}
        onPageChange={onPageChange}
      />
      <ConfirmDialog
        opened={releasing !== null}
        title={`Release unit #${releasing?.id ?? ''}?`}
        confirmLabel="Release unit"
        busyLabel="Releasing..."
        busy={release.isPending}
        color="blood"
        returnFocus={afterAction.returnFocus}
        error={
          release.isError
            ? errorMessage(release.error, 'The unit could not be released. Please try again.')
            : null
        }
        onConfirm={confirmRelease}
        onClose={() => setReleasing(null)}
      >
        {releasing
          ? `Unit #${releasing.id} (${releasing.bloodgroup}, collected ${formatDate(releasing.collected_on)}) leaves its lookback hold and becomes available stock (or goes back to testing, if its own donation awaits its results). Release it only when the lookback investigation has cleared it.`
          : ''}
      </ConfirmDialog>
      <DiscardUnitDialog
        unit={discarding}
        reasonExample="lookback: the donor's confirmatory test was positive"
        returnFocus={afterAction.returnFocus}
        onDiscarded={() => afterAction.moveTo(heading)}
        onClose={() => setDiscarding(null)}
      />
    </section>
  );
}
