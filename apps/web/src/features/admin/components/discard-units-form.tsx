import { useId, useState } from 'react';
import {
  Button,
  Divider,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { DiscardUnitsSchema, notEnoughToDiscard, type InventoryRow } from '@bloodbank/shared/admin';
import { BLOOD_GROUPS } from '@bloodbank/shared/blood-groups';
import { COMPONENT_WORDS, DEFAULT_COMPONENT, unitComponentsFor } from '@bloodbank/shared/components';
import { ApiError, errorMessage } from '@/lib/api-client';
import { applyServerFieldErrors, fieldBinder } from '@/lib/form-errors';
import { useDiscardUnits } from '../api/discard-units';
import { unitsText } from '@/lib/format';
import { useSingleFlight } from '@/lib/use-single-flight';
import { COMPONENT_OPTIONS } from './component-options';
import { ConfirmDialog } from './confirm-dialog';
import { FindUnitLink } from './find-unit-link';
import { SectionCard } from './section-card';
import { DANGER } from '../tones';
import { notify } from '../notify';

/** The "count of a group, with a reason" shape of the discard body. */
const countSchema = DiscardUnitsSchema.options[1];
type FormInput = z.input<typeof countSchema>;
type FormOutput = z.output<typeof countSchema>;
const FIELDS = ['bloodgroup', 'component', 'count', 'reason'] as const;

const GROUP_OPTIONS = [
  { value: '', label: 'Select blood group', disabled: true },
  ...BLOOD_GROUPS.map((group) => ({ value: group, label: group })),
];

/**
 * Two ways to take units off the shelf: every expired unit in one click (they are not stock any
 * more), or a counted number of a group with a reason (damaged bags, a recall), expiring first.
 */
export function DiscardUnitsForms({
  expired,
  stock,
  refreshStock,
}: {
  expired: number;
  /** Each group's usable units per component, when loaded: a count over it is refused before the confirmation. */
  stock?: readonly InventoryRow[] | undefined;
  /** Reads the stock again: units received meanwhile (by another admin) count before a refusal. */
  refreshStock?: () => Promise<readonly InventoryRow[] | undefined>;
}) {
  const discard = useDiscardUnits();
  const hintId = useId();
  const [confirmExpired, setConfirmExpired] = useState(false);
  /** The counted discard awaiting confirmation. */
  const [counted, setCounted] = useState<FormOutput | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(countSchema),
    defaultValues: {
      bloodgroup: '' as FormInput['bloodgroup'],
      component: DEFAULT_COMPONENT,
      count: '1',
      reason: '',
    },
  });
  const field = fieldBinder(form);

  // One discard per confirmation, whatever a double-click delivers.
  const singleFlight = useSingleFlight();
  const discardExpired = () =>
    singleFlight((finish) =>
      discard.mutate(
        { expired: true },
        {
          onSettled: finish,
          onSuccess: ({ discarded_unit_ids }) => {
            setConfirmExpired(false);
            notify({
              title: 'Expired units discarded',
              message: `${unitsText(discarded_unit_ids.length)} discarded.`,
            });
          },
        },
      ),
    );

  // A valid form asks first: discarding takes stock off the shelf for good.
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    // More than the shelf holds: said now, not after "Are you sure?". The stock shown may be a little
    // old, so it is read again before a refusal; the server checks once more when it is sent.
    const availableIn = (inventory: readonly InventoryRow[] | undefined) => {
      const row = inventory?.find((group) => group.bloodgroup === values.bloodgroup);
      return row
        ? unitComponentsFor(values.component).reduce((sum, component) => sum + row.components[component], 0)
        : null;
    };
    let available = availableIn(stock);
    if (available !== null && values.count > available && refreshStock)
      available = availableIn(await refreshStock());
    if (available !== null && values.count > available) {
      form.setError(
        'count',
        { message: notEnoughToDiscard(available, values.bloodgroup, values.component) },
        { shouldFocus: true },
      );
      return;
    }
    setCounted(values);
  });

  const discardCounted = () => {
    if (!counted) return;
    const values = counted;
    singleFlight((finish) =>
      discard.mutate(values, {
        onSettled: finish,
        onSuccess: ({ discarded_unit_ids }) => {
          setCounted(null);
          notify({
            title: 'Units discarded',
            message: `${unitsText(discarded_unit_ids.length)} of ${values.bloodgroup} ${COMPONENT_WORDS[values.component]} discarded.`,
          });
          form.reset({ bloodgroup: values.bloodgroup, component: values.component, count: '1', reason: '' });
        },
        onError: (error) => {
          // Said on the form, beside the fields it is about (too few units, say), with nothing typed lost.
          setCounted(null);
          applyServerFieldErrors(form, error, FIELDS);
          const onFields = error instanceof ApiError && FIELDS.some((name) => error.errors[name]);
          if (!onFields)
            setFailure(errorMessage(error, 'The units could not be discarded. Please try again.'));
        },
      }),
    );
  };

  const busy = discard.isPending;
  return (
    <SectionCard title="Discard Units" fill>
      <Stack gap="md">
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Text size="sm" style={{ flex: '1 1 200px' }}>
            {expired === 0
              ? 'No expired units are waiting to be discarded.'
              : `${unitsText(expired)} expired and still on the shelf.`}
          </Text>
          <Button
            color={DANGER}
            variant="light"
            disabled={expired === 0 || busy}
            onClick={() => {
              discard.reset();
              setConfirmExpired(true);
            }}
          >
            Discard expired units
          </Button>
        </Group>
        <Divider label="or a number of units" labelPosition="center" />
        <form
          noValidate
          aria-label="Discard units"
          aria-describedby={hintId}
          onSubmit={(event) => void submit(event)}
        >
          <Stack gap="sm">
            {/* Staff holding one damaged bag would otherwise discard another one: the first to expire. */}
            <Text size="sm" id={hintId}>
              Discards the group's first-expiring bags. For one particular bag,{' '}
              <FindUnitLink>find it by its number</FindUnitLink> and use its Discard button.
            </Text>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <NativeSelect label="Blood Group" withAsterisk data={GROUP_OPTIONS} {...field('bloodgroup')} />
              <NativeSelect
                label="Component"
                description="Red cells also take whole blood, expiring first"
                withAsterisk
                data={COMPONENT_OPTIONS}
                {...field('component')}
              />
              <TextInput
                label="Number of units"
                type="number"
                inputMode="numeric"
                min={1}
                withAsterisk
                {...field('count')}
              />
            </SimpleGrid>
            <Textarea
              label="Reason"
              withAsterisk
              autosize
              minRows={2}
              description="For example: recall of a batch."
              {...field('reason')}
            />
            {failure ? (
              <Text role="alert" c={DANGER} size="sm">
                {failure}
              </Text>
            ) : null}
            <Button
              type="submit"
              color={DANGER}
              variant="outline"
              disabled={busy}
              style={{ alignSelf: 'flex-start' }}
            >
              Discard units
            </Button>
          </Stack>
        </form>
      </Stack>

      <ConfirmDialog
        opened={confirmExpired}
        title="Discard every expired unit?"
        confirmLabel={`Discard ${unitsText(expired)}`}
        busyLabel="Discarding..."
        busy={busy}
        error={
          discard.isError && confirmExpired
            ? errorMessage(discard.error, 'The expired units could not be discarded. Please try again.')
            : null
        }
        onConfirm={discardExpired}
        onClose={() => setConfirmExpired(false)}
      >
        {`${unitsText(expired)} past their expiry date will be marked discarded (reason "Expired"). They are not counted as stock already.`}
      </ConfirmDialog>

      <ConfirmDialog
        opened={counted !== null}
        title={
          counted
            ? `Discard ${unitsText(counted.count)} of ${counted.bloodgroup} ${COMPONENT_WORDS[counted.component]}?`
            : ''
        }
        confirmLabel={counted ? `Discard ${unitsText(counted.count)}` : 'Discard'}
        busyLabel="Discarding..."
        busy={busy}
        onConfirm={discardCounted}
        onClose={() => setCounted(null)}
      >
        {counted
          ? `The ${counted.count === 1 ? 'unit' : `${counted.count} units`} of ${counted.bloodgroup} ${COMPONENT_WORDS[counted.component]} that expire first will be taken out of stock for good (reason "${counted.reason}").`
          : ''}
      </ConfirmDialog>
    </SectionCard>
  );
}
