import { useId, useState } from 'react';
import { Alert, Anchor, Badge, Button, Flex, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { AdminDashboard, AdminRequest, InsufficientStock } from '@bloodbank/shared/admin';
import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import { COMPONENT_WORDS } from '@bloodbank/shared/components';
import { paths } from '@/app/paths';
import { unitsText } from '@/lib/format';
import { useFocusOnShow } from '@/lib/use-focus-on-show';
import { useDashboard } from '../api/get-dashboard';
import { TEXT_TONE } from '../tones';

/** How the listed groups were chosen, for the components whose rule is not the spec's red-cell table. */
const RULES: Partial<Record<keyof typeof COMPONENT_WORDS, string>> = {
  plasma: 'Plasma runs the other way round from red cells: AB plasma can go to anyone, O plasma only to O.',
  platelets: 'Platelets can come from any group; the same ABO group is listed first.',
};

type Shortage = { request: AdminRequest; stock: InsufficientStock };
type CompatibleGroup = InsufficientStock['compatible'][number];

interface ShortStockDialogProps {
  /** The request that could not be approved and the server's 409 body; null keeps the dialog closed. */
  shortage: Shortage | null;
  /** The group being approved from right now, if any. */
  approvingFrom: BloodGroup | null;
  error: string | null;
  /** False once the approval has decided the row whose button opened the dialog (useFocusAfterAction). */
  returnFocus?: boolean;
  onApproveFrom: (group: BloodGroup) => void;
  onClose: () => void;
}

/**
 * The requested group lacks stock (PRODUCT.md 3.3): the server's words, then the compatible groups
 * that can cover the whole request. Choosing one first says what issuing from it leaves on its
 * shelf (under its low-stock line a call-out goes to donors), and only a second, deliberate click
 * issues the units.
 */
export function ShortStockDialog({
  shortage,
  approvingFrom,
  error,
  returnFocus = true,
  onApproveFrom,
  onClose,
}: ShortStockDialogProps) {
  const busy = approvingFrom !== null;
  return (
    <Modal
      opened={shortage !== null}
      onClose={busy ? () => undefined : onClose}
      title="Not enough stock"
      centered
      returnFocus={returnFocus}
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
      size="lg"
    >
      {shortage ? (
        <Stack gap="md">
          <Alert color="orange" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
            <Text size="sm" c="dark.8">
              {shortage.stock.detail}
            </Text>
          </Alert>
          <Text size="sm">
            Request #{shortage.request.id} from {shortage.request.patient_name} needs{' '}
            {unitsText(shortage.request.unit)} of <strong>{shortage.request.bloodgroup}</strong>{' '}
            {COMPONENT_WORDS[shortage.request.component]}.
          </Text>

          {shortage.stock.compatible.length > 0 ? (
            <CompatibleGroups
              shortage={shortage}
              approvingFrom={approvingFrom}
              onApproveFrom={onApproveFrom}
            />
          ) : (
            <Text size="sm">
              No compatible group has enough stock to cover this request. Receive units on{' '}
              <Anchor component={Link} to={paths.admin.blood}>
                Manage Blood
              </Anchor>
              , or reject the request.
            </Text>
          )}

          {error ? (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          ) : null}

          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Close
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

/** The list of groups, or what issuing from the chosen one will do, with its confirmation. */
function CompatibleGroups({
  shortage,
  approvingFrom,
  onApproveFrom,
}: {
  shortage: Shortage;
  approvingFrom: BloodGroup | null;
  onApproveFrom: (group: BloodGroup) => void;
}) {
  const { request, stock } = shortage;
  // The group chosen, for the stock it was chosen from: a fresh refusal (another admin took units
  // meanwhile) brings the list back with the new counts rather than a review of stale ones.
  const [chosen, setChosen] = useState<{
    group: BloodGroup;
    stock: InsufficientStock;
    reviewing: boolean;
  } | null>(null);
  const reviewing =
    chosen?.reviewing && chosen.stock === stock
      ? stock.compatible.find((group) => group.bloodgroup === chosen.group)
      : undefined;

  if (reviewing) {
    return (
      <IssueReview
        request={request}
        group={reviewing}
        approving={approvingFrom === reviewing.bloodgroup}
        busy={approvingFrom !== null}
        onConfirm={() => onApproveFrom(reviewing.bloodgroup)}
        onBack={() => setChosen({ group: reviewing.bloodgroup, stock, reviewing: false })}
      />
    );
  }
  return (
    <GroupList
      shortage={shortage}
      busy={approvingFrom !== null}
      // Back from a review: focus returns to the button that opened it.
      returnTo={chosen?.group ?? null}
      onChoose={(group) => setChosen({ group, stock, reviewing: true })}
    />
  );
}

function GroupList({
  shortage,
  busy,
  returnTo,
  onChoose,
}: {
  shortage: Shortage;
  busy: boolean;
  returnTo: BloodGroup | null;
  onChoose: (group: BloodGroup) => void;
}) {
  const returnButton = useFocusOnShow<HTMLButtonElement>(returnTo !== null);
  const component = shortage.request.component;
  return (
    <Stack gap="xs">
      <Text size="sm" fw={600}>
        Compatible groups with {COMPONENT_WORDS[component]} in stock
      </Text>
      {RULES[component] ? (
        <Text size="xs" c="dimmed">
          {RULES[component]}
        </Text>
      ) : null}
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {shortage.stock.compatible.map((group) => (
          <Paper key={group.bloodgroup} component="li" withBorder radius="md" p="sm">
            <Group justify="space-between" gap="sm" wrap="wrap">
              <Group gap="sm" wrap="nowrap">
                <Badge size="lg" variant="light" color="blood" c="blood.8" radius="sm">
                  {group.bloodgroup}
                </Badge>
                <Text size="sm">{unitsText(group.units)} available</Text>
              </Group>
              <Button
                ref={group.bloodgroup === returnTo ? returnButton : undefined}
                size="sm"
                onClick={() => onChoose(group.bloodgroup)}
                disabled={busy}
              >
                Approve from {group.bloodgroup}
              </Button>
            </Group>
          </Paper>
        ))}
      </Stack>
    </Stack>
  );
}

/**
 * The second step: how many units leave the chosen group and what it keeps. Red-cell units (red
 * cells and whole blood) under the threshold raise a call-out (PRODUCT.md 3.3, 3.8); plasma and
 * platelets have no low-stock line.
 */
function IssueReview({
  request,
  group,
  approving,
  busy,
  onConfirm,
  onBack,
}: {
  request: AdminRequest;
  group: CompatibleGroup;
  approving: boolean;
  busy: boolean;
  onConfirm: () => void;
  onBack: () => void;
}) {
  const dashboard = useDashboard();
  const titleId = useId();
  const summaryId = useId();
  const warningId = useId();
  // What replaced the button just clicked: focus moves here, so a screen reader reads what will happen.
  const review = useFocusOnShow<HTMLDivElement>();

  const from = group.bloodgroup;
  const component = request.component;
  const left = group.units - request.unit;
  // The bank's own line, never a guess: until the dashboard answers, no warning rather than a wrong one.
  const threshold = dashboard.data?.lowStockThreshold;
  const redCellsLeft = redCellUnitsLeft(request, group, dashboard.data);
  // The line the group falls under, when it does.
  const crossedLine =
    threshold !== undefined && redCellsLeft !== null && redCellsLeft < threshold ? threshold : null;

  return (
    <Paper
      ref={review}
      withBorder
      radius="md"
      p="md"
      tabIndex={-1}
      role="group"
      aria-labelledby={titleId}
      aria-describedby={crossedLine !== null ? `${summaryId} ${warningId}` : summaryId}
    >
      <Stack gap="sm">
        <Text size="sm" fw={600} id={titleId}>
          Approve from {from}?
        </Text>
        <Text size="sm" id={summaryId}>
          {unitsText(request.unit)} of {from} {COMPONENT_WORDS[component]} will be issued to{' '}
          {request.patient_name}; {from} will have{' '}
          {component === 'red_cells'
            ? unitsText(left)
            : `${unitsText(left)} of ${COMPONENT_WORDS[component]}`}{' '}
          left. This cannot be undone.
        </Text>
        {crossedLine !== null ? (
          <Alert
            id={warningId}
            color="orange"
            variant="light"
            icon={<IconAlertTriangle aria-hidden />}
            title="Under the low-stock line"
            // Read with the step it belongs to (aria-describedby), not announced a second time.
            role="note"
            styles={{ title: { color: TEXT_TONE.orange } }}
          >
            <Text size="sm" c="dark.8">
              {from} will be under its low-stock line of {unitsText(crossedLine)}, and donors may be called
              out.
            </Text>
          </Alert>
        ) : null}
        {/* On a phone the two do not fit side by side: full width, one under the other, in the
            order they are read and tabbed to. */}
        <Flex direction={{ base: 'column', xs: 'row' }} justify="flex-end" gap="sm">
          <Button variant="default" onClick={onBack} disabled={busy}>
            Back
          </Button>
          <Button
            onClick={(event) => {
              // The second click of a double-click on "Approve from" lands here: it is no decision.
              if (event.detail > 1) return;
              onConfirm();
            }}
            disabled={busy}
          >
            {approving ? 'Issuing...' : `Issue ${unitsText(request.unit)} of ${from}`}
          </Button>
        </Flex>
      </Stack>
    </Paper>
  );
}

/**
 * The group's red-cell units ("units of blood", the low-stock figure) once the request is issued,
 * or null when the request takes none. A red-cell request is counted in those very units; a
 * whole-blood one is part of them, read from the dashboard's stock.
 */
function redCellUnitsLeft(
  request: AdminRequest,
  group: CompatibleGroup,
  dashboard: AdminDashboard | undefined,
): number | null {
  if (request.component === 'red_cells') return group.units - request.unit;
  if (request.component !== 'whole_blood') return null;
  const row = dashboard?.inventory.find((stock) => stock.bloodgroup === group.bloodgroup);
  return row ? row.units - request.unit : null;
}
