import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import type { BloodUnit } from '@bloodbank/shared/admin';
import { COMPONENT_WORDS } from '@bloodbank/shared/components';
import { errorMessage } from '@/lib/api-client';
import { focusFirstInvalidField } from '@/lib/form-errors';
import { formatDate } from '@/lib/format';
import { useSingleFlight } from '@/lib/use-single-flight';
import { useDiscardUnits } from '../api/discard-units';
import { notify } from '../notify';
import { DANGER } from '../tones';

const MAX_REASON = 500;

/** The Units table's Discard: one bag staff hold in their hand (damaged, leaking), by its number. */
export function DiscardUnitButton({
  unit,
  onDiscard,
}: {
  unit: BloodUnit;
  onDiscard: (unit: BloodUnit) => void;
}) {
  return (
    <Button
      size="xs"
      variant="outline"
      color={DANGER}
      onClick={() => onDiscard(unit)}
      aria-label={`Discard unit #${unit.id}`}
    >
      Discard
    </Button>
  );
}

/**
 * Discards one chosen unit with a reason (PRODUCT.md 3.3: units discarded by id). A counted discard
 * takes the first-expiring units of a group; a damaged bag is this one, so it is named by number.
 */
export function DiscardUnitDialog({
  unit,
  reasonExample = 'bag damaged in transport',
  returnFocus = true,
  onDiscarded,
  onClose,
}: {
  unit: BloodUnit | null;
  /** What a reason looks like here, in the field's description. */
  reasonExample?: string;
  /** False once the discard has removed the button that opened the dialog (useFocusAfterAction). */
  returnFocus?: boolean;
  /** The unit was discarded (before the dialog closes). */
  onDiscarded?: () => void;
  onClose: () => void;
}) {
  const discard = useDiscardUnits();
  // The last unit's refusal must not greet the next one: the dialog (and its mutation) stays mounted.
  const close = () => {
    if (discard.isPending) return;
    discard.reset();
    onClose();
  };
  return (
    <Modal
      opened={unit !== null}
      onClose={close}
      returnFocus={returnFocus}
      title={unit ? `Discard unit #${unit.id}?` : ''}
      centered
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      {unit ? (
        <DiscardUnitBody
          key={unit.id}
          unit={unit}
          reasonExample={reasonExample}
          discard={discard}
          onDiscarded={onDiscarded}
          onClose={close}
        />
      ) : null}
    </Modal>
  );
}

function DiscardUnitBody({
  unit,
  reasonExample,
  discard,
  onDiscarded,
  onClose,
}: {
  unit: BloodUnit;
  reasonExample: string;
  onDiscarded: (() => void) | undefined;
  discard: ReturnType<typeof useDiscardUnits>;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const singleFlight = useSingleFlight();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    const trimmed = reason.trim();
    const problem = !trimmed
      ? 'Reason is required'
      : trimmed.length > MAX_REASON
        ? `Must be at most ${MAX_REASON} characters`
        : null;
    if (problem) {
      setInvalid(problem);
      // Focus on the field, as in every form: a screen reader reads it with its message.
      focusFirstInvalidField({ reason: { type: 'invalid', message: problem } }, event);
      return;
    }
    setInvalid(null);
    singleFlight((finish) =>
      discard.mutate(
        { unit_ids: [unit.id], reason: trimmed },
        {
          onSettled: finish,
          onSuccess: () => {
            notify({
              title: 'Unit discarded',
              message: `Unit #${unit.id} (${unit.bloodgroup} ${COMPONENT_WORDS[unit.component]}) was discarded.`,
            });
            onDiscarded?.();
            onClose();
          },
        },
      ),
    );
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit(event);
      }}
    >
      <Stack gap="md">
        <Text size="sm">
          {`${unit.bloodgroup} ${COMPONENT_WORDS[unit.component]}, expires ${formatDate(unit.expires_on)}. It is discarded for good and never issued.`}
        </Text>
        <Textarea
          label="Reason"
          name="reason"
          withAsterisk
          description={`For example: ${reasonExample}. Kept in the audit log.`}
          autosize
          minRows={2}
          maxRows={6}
          data-autofocus
          value={reason}
          onChange={(event) => {
            setReason(event.currentTarget.value);
            setInvalid(null);
          }}
          error={invalid}
        />
        {discard.isError ? (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(discard.error, 'The unit could not be discarded. Please try again.')}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={discard.isPending}>
            Cancel
          </Button>
          <Button type="submit" color={DANGER} disabled={discard.isPending}>
            {discard.isPending ? 'Discarding...' : 'Discard unit'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
