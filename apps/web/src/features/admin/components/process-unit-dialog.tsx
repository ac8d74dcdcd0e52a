import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Checkbox, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { ProcessUnitSchema, type BloodUnit } from '@bloodbank/shared/admin';
import {
  COMPONENT_LABELS,
  componentsInWords,
  SEPARATED_COMPONENTS,
  type SeparatedComponent,
} from '@bloodbank/shared/components';
import { MESSAGES } from '@bloodbank/shared/constants';
import { addDays } from '@bloodbank/shared/dates';
import { bankToday, useBankToday } from '@/lib/bank-today';
import { errorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useProcessUnit } from '../api/process-unit';
import { notify } from '../notify';
import { StatusBadge } from './status-badge';
import { useShelfLives } from '../api/use-shelf-lives';
import { StepModal } from './step-modal';
import { DANGER } from '../tones';

/**
 * Whether staff may separate a unit (PRODUCT.md 3.3): whole blood, quarantined or available, and not
 * expired. The server decides; this only offers the action where it can succeed.
 */
export function canProcess(unit: BloodUnit, today = bankToday()): boolean {
  return (
    unit.component === 'whole_blood' &&
    (unit.status === 'available' || unit.status === 'quarantined') &&
    !unit.expired &&
    unit.expires_on >= today
  );
}

/** Platelets are separated on the day of collection only. */
export const plateletsPossible = (unit: BloodUnit, today = bankToday()) => unit.collected_on === today;

/** The row action that opens the dialog, named by its unit for screen readers. */
export function ProcessButton({
  unit,
  onProcess,
}: {
  unit: BloodUnit;
  onProcess: (unit: BloodUnit) => void;
}) {
  return (
    <Button size="xs" variant="light" onClick={() => onProcess(unit)} aria-label={`Process unit #${unit.id}`}>
      Process
    </Button>
  );
}

interface ProcessUnitDialogProps {
  /** The whole-blood unit to separate; null keeps the dialog closed. */
  unit: BloodUnit | null;
  onClose: () => void;
}

/**
 * Process a whole-blood unit: choose red cells, plasma and (on the day of collection) platelets,
 * see what each will keep for, then the new units. A refusal (409) is shown in the dialog.
 */
export function ProcessUnitDialog({ unit, onClose }: ProcessUnitDialogProps) {
  return (
    <StepModal item={unit} title={(item) => `Process unit #${item.id}`} onClose={onClose}>
      {(item, onBusy) => <ProcessUnitBody unit={item} onClose={onClose} onBusy={onBusy} />}
    </StepModal>
  );
}

function ProcessUnitBody({
  unit,
  onClose,
  onBusy,
}: {
  unit: BloodUnit;
  onClose: () => void;
  onBusy: (busy: boolean) => void;
}) {
  const today = useBankToday();
  const platelets = plateletsPossible(unit, today);
  const shelfLives = useShelfLives();
  const [chosen, setChosen] = useState<string[]>(
    SEPARATED_COMPONENTS.filter((component) => component !== 'platelets' || platelets),
  );
  const [invalid, setInvalid] = useState<string | null>(null);
  const process = useProcessUnit();
  const [created, setCreated] = useState<BloodUnit[] | null>(null);

  const submit = () => {
    // In the catalogue's order, whatever order the boxes were ticked in.
    const components = SEPARATED_COMPONENTS.filter((component) => chosen.includes(component));
    const parsed = ProcessUnitSchema.safeParse({ components });
    if (!parsed.success) {
      setInvalid(parsed.error.issues[0]?.message ?? 'Choose at least one component');
      return;
    }
    setInvalid(null);
    onBusy(true);
    process.mutate(
      { id: unit.id, components: parsed.data.components },
      {
        onSuccess: ({ units }) => {
          setCreated(units);
          notify({
            title: 'Unit processed',
            message: `Unit #${unit.id} was separated into ${units.length} ${units.length === 1 ? 'component' : 'components'}.`,
          });
        },
        onSettled: () => onBusy(false),
      },
    );
  };

  if (created) return <ProcessResult parent={unit} units={created} onClose={onClose} />;

  const quarantined = unit.status === 'quarantined';
  // What could be made and is not: lost for good once the whole blood is processed (found by staff
  // who unticked red cells and saw nothing say so). Said, and named on the button.
  const leftOut = SEPARATED_COMPONENTS.filter(
    (component) => !chosen.includes(component) && (component !== 'platelets' || platelets),
  );
  // With nothing chosen the schema's own message speaks instead.
  const losesComponents = leftOut.length > 0 && chosen.length > 0;
  const leftOutWords = componentsInWords(leftOut);
  return (
    <Stack gap="md">
      <Text size="sm">
        Whole blood, <strong>{unit.bloodgroup}</strong>, collected {formatDate(unit.collected_on)}, expires{' '}
        {formatDate(unit.expires_on)}. The unit becomes <em>processed</em> and each component becomes a unit
        of its own, with the same group, donation and collection date.
        {quarantined
          ? ' The unit is in testing or on hold: its components stay quarantined until it is released.'
          : ''}
      </Text>
      <Checkbox.Group
        label="Separate into"
        description={
          shelfLives.configured
            ? "Expiry dates use this blood bank's shelf life of each component."
            : 'Expiry dates use the default shelf life of each component.'
        }
        value={chosen}
        onChange={(value) => {
          setChosen(value);
          setInvalid(null);
        }}
        error={invalid}
      >
        <Stack gap="sm" mt="xs">
          {SEPARATED_COMPONENTS.map((component) => (
            <Checkbox
              key={component}
              value={component}
              label={COMPONENT_LABELS[component]}
              disabled={component === 'platelets' && !platelets}
              description={componentDescription(unit, component, platelets, shelfLives)}
              // Mantine dims a disabled option's description below a readable contrast.
              styles={{ description: { color: 'var(--mantine-color-dimmed)' }, label: { color: 'inherit' } }}
            />
          ))}
        </Stack>
      </Checkbox.Group>
      {losesComponents ? (
        <Alert
          color="orange"
          variant="light"
          icon={<IconAlertTriangle aria-hidden />}
          role="status"
          data-testid="components-lost"
          styles={{ message: { color: 'var(--mantine-color-dark-7)' } }}
        >
          {`${leftOutWords.charAt(0).toUpperCase()}${leftOutWords.slice(1)} will not be made, and cannot be separated from this unit later.`}
        </Alert>
      ) : null}
      {process.isError ? (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(process.error, 'The unit could not be processed. Please try again.')}
        </Alert>
      ) : null}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose} disabled={process.isPending}>
          Cancel
        </Button>
        <Button onClick={submit} disabled={process.isPending} color={losesComponents ? DANGER : undefined}>
          {process.isPending
            ? 'Processing...'
            : losesComponents
              ? `Process without ${leftOutWords}`
              : 'Process unit'}
        </Button>
      </Group>
    </Stack>
  );
}

function componentDescription(
  unit: BloodUnit,
  component: SeparatedComponent,
  platelets: boolean,
  shelfLives: ReturnType<typeof useShelfLives>,
): string {
  if (component === 'platelets' && !platelets) {
    return `${MESSAGES.plateletsSameDay} This unit was collected on ${formatDate(unit.collected_on)}.`;
  }
  const days = shelfLives.days[component];
  return `${shelfLives.configured ? 'Shelf life' : 'Default shelf life'} ${days} days: expires ${formatDate(addDays(unit.collected_on, days))}`;
}

function ProcessResult({
  parent,
  units,
  onClose,
}: {
  parent: BloodUnit;
  units: BloodUnit[];
  onClose: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The form is gone: move the focus (and a screen reader) to what replaced it.
  useEffect(() => heading.current?.focus(), []);
  // The components inherit the unit's status: all on the shelf, or all held with it.
  const held = units.some((unit) => unit.status === 'quarantined');
  return (
    <Stack gap="md">
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <IconCircleCheck
          size={22}
          color="var(--mantine-color-teal-8)"
          aria-hidden
          style={{ flexShrink: 0 }}
        />
        <Title order={3} size="h5" ref={heading} tabIndex={-1} style={{ outline: 'none' }}>
          Unit #{parent.id} was separated into {units.length} {units.length === 1 ? 'unit' : 'units'}
        </Title>
      </Group>
      <Table
        verticalSpacing={6}
        horizontalSpacing="xs"
        aria-label="New component units"
        data-testid="process-result"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Unit</Table.Th>
            <Table.Th scope="col">Component</Table.Th>
            <Table.Th scope="col">Expires</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {units.map((unit) => (
            <Table.Tr key={unit.id}>
              <Table.Th scope="row">#{unit.id}</Table.Th>
              <Table.Td>{COMPONENT_LABELS[unit.component]}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(unit.expires_on)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group gap="xs" wrap="wrap">
        {held ? (
          <StatusBadge status="testing" label="In testing" />
        ) : (
          <StatusBadge status="available" label="Available" />
        )}
        <Text size="sm" style={{ flex: '1 1 200px' }}>
          {held
            ? 'They stay quarantined with the unit until it is released.'
            : 'They are on the shelf now, each until its expiry date.'}
        </Text>
      </Group>
      <Group justify="flex-end">
        <Button onClick={onClose}>Done</Button>
      </Group>
    </Stack>
  );
}
