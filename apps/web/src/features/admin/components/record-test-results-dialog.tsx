import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, List, NativeSelect, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import type { AdminDonation } from '@bloodbank/shared/admin';
import { BLOOD_GROUPS } from '@bloodbank/shared/blood-groups';
import {
  INFECTION_TEST_LABELS,
  INFECTION_TESTS,
  TestResultsSchema,
  type InfectionTest,
  type TestResultsInput,
} from '@bloodbank/shared/donation-lifecycle';
import { ApiError, errorMessage } from '@/lib/api-client';
import { applyServerFieldErrors, fieldBinder } from '@/lib/form-errors';
import { formatDate, unitNumbersText, unitsText } from '@/lib/format';
import { useRecordTestResults } from '../api/record-test-results';
import { notify } from '../notify';
import { DANGER } from '../tones';
import { StepModal } from './step-modal';

type ResultsValues = Record<InfectionTest, '' | 'negative' | 'reactive'> & { bloodgroup: string };
const FIELDS = [...INFECTION_TESTS, 'bloodgroup'] as const;

const GROUP_OPTIONS = BLOOD_GROUPS.map((group) => ({ value: group, label: group }));

/** What a reactive result sets off (PRODUCT.md 3.2), said before staff confirm it. */
export function reactiveConsequences(reactive: InfectionTest[]): string[] {
  const permanent = reactive.some((test) => test !== 'syphilis');
  return [
    'The units of this donation are discarded ("Reactive screening test").',
    permanent ? 'The donor is deferred permanently.' : 'The donor is deferred for 365 days (syphilis alone).',
    "Lookback: the donor's other units collected in the last 12 months that are in testing or available go on hold until staff release or discard them.",
    'The donor is only told that the donation needs follow-up.',
  ];
}

/**
 * What a confirmed group changes. The units carry the group the donation was booked with; the
 * donor's record may have been corrected since, so each is compared on its own (the server
 * relabels the units and corrects the donor's record independently).
 */
export function groupChanges(donation: AdminDonation, confirmed: string | undefined) {
  if (!confirmed) return { relabelsUnits: false, correctsDonorFrom: null };
  return {
    relabelsUnits: confirmed !== donation.bloodgroup,
    correctsDonorFrom:
      donation.donor_bloodgroup && donation.donor_bloodgroup !== confirmed ? donation.donor_bloodgroup : null,
  };
}

interface RecordTestResultsDialogProps {
  /** The collected donation; null keeps the dialog closed. */
  donation: AdminDonation | null;
  /** False once the results have removed the button that opened the dialog (useFocusAfterAction). */
  returnFocus?: boolean;
  /** The results were recorded (before the dialog closes). */
  onRecorded?: () => void;
  onClose: () => void;
}

/**
 * Record Test Results (PRODUCT.md 3.2): HIV, HBV, HCV and syphilis, each chosen by staff (no
 * default), and the confirmed ABO/Rh group (the donor's recorded group to start with). A changed
 * group and any reactive result are spelled out; a reactive result needs a second confirmation.
 */
export function RecordTestResultsDialog({
  donation,
  returnFocus,
  onRecorded,
  onClose,
}: RecordTestResultsDialogProps) {
  return (
    <StepModal
      item={donation}
      title={(item) => `Record test results: donation #${item.id}`}
      returnFocus={returnFocus}
      onClose={onClose}
    >
      {(item, onBusy) => (
        <ResultsFormBody donation={item} onRecorded={onRecorded} onClose={onClose} onBusy={onBusy} />
      )}
    </StepModal>
  );
}

function ResultsFormBody({
  donation,
  onRecorded,
  onClose,
  onBusy,
}: {
  donation: AdminDonation;
  onRecorded: (() => void) | undefined;
  onClose: () => void;
  onBusy: (busy: boolean) => void;
}) {
  const record = useRecordTestResults();
  const [failure, setFailure] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<TestResultsInput | null>(null);
  const form = useForm<ResultsValues, unknown, TestResultsInput>({
    resolver: zodResolver(TestResultsSchema) as unknown as Resolver<ResultsValues, unknown, TestResultsInput>,
    defaultValues: { hiv: '', hbv: '', hcv: '', syphilis: '', bloodgroup: donation.bloodgroup },
  });
  const field = fieldBinder(form);
  const values = useWatch({ control: form.control });
  const reactive = INFECTION_TESTS.filter((test) => values[test] === 'reactive');
  const changes = groupChanges(donation, values.bloodgroup);
  const groupChanged = changes.relabelsUnits || changes.correctsDonorFrom !== null;
  const busy = record.isPending;

  const send = async (input: TestResultsInput) => {
    setFailure(null);
    onBusy(true);
    try {
      const outcome = await record.mutateAsync({ id: donation.id, results: input });
      if (outcome.status === 'released') {
        const corrected = outcome.corrected_bloodgroup
          ? ` The donor's group was corrected to ${outcome.corrected_bloodgroup}.`
          : '';
        notify({
          title: `Donation #${donation.id} released`,
          message: `${unitsText(outcome.unit_ids.length)} of ${outcome.corrected_bloodgroup ?? donation.bloodgroup} now available.${corrected}`,
        });
      } else {
        const held = outcome.lookback_unit_ids.length;
        notify({
          title: `Donation #${donation.id} discarded`,
          message: `${unitsText(outcome.unit_ids.length)} discarded; ${donation.donor_name} is deferred${
            outcome.deferral?.until ? ` until ${formatDate(outcome.deferral.until)}` : ' permanently'
          }.${held > 0 ? ` ${unitsText(held)} on lookback hold.` : ''}`,
        });
      }
      onRecorded?.();
      onClose();
    } catch (error) {
      setConfirming(null);
      const unplaced = applyServerFieldErrors(form, error, FIELDS);
      const onFields =
        error instanceof ApiError && Object.keys(error.errors).length > Object.keys(unplaced).length;
      if (!onFields)
        setFailure(errorMessage(error, 'The test results could not be recorded. Please try again.'));
    } finally {
      onBusy(false);
    }
  };

  // Each step swap removes the button that had focus: the keyboard goes on at the confirming
  // step's button, and back (Back, or a refusal) at the button that asked for the review.
  const confirmButton = useRef<HTMLButtonElement>(null);
  const reviewButton = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);
  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
    else if (wasConfirming.current) reviewButton.current?.focus();
    wasConfirming.current = confirming !== null;
  }, [confirming]);

  // A reactive result, or a confirmed group that changes the units or the donor's record, is confirmed once more.
  const submit = form.handleSubmit(async (input) => {
    const changed = groupChanges(donation, input.bloodgroup);
    if (
      INFECTION_TESTS.some((test) => input[test] === 'reactive') ||
      changed.relabelsUnits ||
      changed.correctsDonorFrom
    ) {
      setConfirming(input);
      return;
    }
    await send(input);
  });

  if (confirming) {
    const tests = INFECTION_TESTS.filter((test) => confirming[test] === 'reactive');
    const confirmedChanges = groupChanges(donation, confirming.bloodgroup);
    const correction = confirmedChanges.correctsDonorFrom
      ? // After a reactive test the donor hears only the follow-up text (PRODUCT.md 3.2).
        `${donation.donor_name}'s recorded group changes from ${confirmedChanges.correctsDonorFrom} to ${confirming.bloodgroup}${tests.length > 0 ? '; the donor is not told until the follow-up.' : ', and the donor is told.'}`
      : `${donation.donor_name}'s record already says ${confirming.bloodgroup}; the donation was booked as ${donation.bloodgroup}.`;
    return (
      <Stack gap="md">
        {tests.length > 0 ? (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertTriangle aria-hidden />}
            title={`Record a reactive result (${tests.map((test) => INFECTION_TEST_LABELS[test]).join(', ')})?`}
            styles={{ title: { color: 'var(--mantine-color-red-9)' } }}
          >
            <List size="sm" spacing={4}>
              {[
                ...reactiveConsequences(tests),
                ...(confirmedChanges.correctsDonorFrom ? [correction] : []),
              ].map((line) => (
                <List.Item key={line}>{line}</List.Item>
              ))}
            </List>
          </Alert>
        ) : (
          <Alert
            color="orange"
            variant="light"
            icon={<IconAlertTriangle aria-hidden />}
            title={
              confirmedChanges.correctsDonorFrom
                ? `Correct the donor's group from ${confirmedChanges.correctsDonorFrom} to ${confirming.bloodgroup}?`
                : `Release the units as ${confirming.bloodgroup}, not ${donation.bloodgroup}?`
            }
            // Mantine's orange title on the light orange is too pale to read (contrast).
            styles={{ title: { color: 'var(--mantine-color-dark-7)' } }}
          >
            <List size="sm" spacing={4}>
              <List.Item>{correction}</List.Item>
              <List.Item>
                {`${unitsOfDonationText(donation)} ${donation.unit_ids.length === 1 ? 'carries' : 'carry'} ${confirming.bloodgroup} from now on: check the group was read from this donation's sample.`}
              </List.Item>
            </List>
          </Alert>
        )}
        <Text size="sm">This cannot be undone from the screen.</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => setConfirming(null)} disabled={busy}>
            Back
          </Button>
          <Button
            ref={confirmButton}
            color={tests.length > 0 ? DANGER : undefined}
            // Busy, not disabled: a disabled button drops the keyboard's focus to the page.
            onClick={() => {
              if (!busy) void send(confirming);
            }}
            aria-disabled={busy || undefined}
            data-disabled={busy || undefined}
          >
            {busy ? 'Saving...' : tests.length > 0 ? 'Discard and defer' : 'Correct group and release'}
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <form
      noValidate
      aria-label="Record test results"
      onSubmit={(event) => {
        if (busy) event.preventDefault();
        else void submit(event);
      }}
    >
      <Stack gap="md">
        <Text size="sm">
          {donation.donor_name}: {unitsText(donation.unit)} of {donation.bloodgroup}, collected{' '}
          {formatDate(donation.collected_on ?? donation.date)}. Choose each test result: none is chosen for
          you. The confirmed group starts as the donor's recorded group.
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {INFECTION_TESTS.map((test) => (
            <Controller
              key={test}
              control={form.control}
              name={test}
              render={({ field: radio, fieldState }) => (
                <Radio.Group
                  label={INFECTION_TEST_LABELS[test]}
                  withAsterisk
                  value={radio.value}
                  onChange={(value) => radio.onChange(value)}
                  name={`result-${test}`}
                  error={fieldState.error?.message}
                  errorProps={{ id: `result-${test}-error` }}
                >
                  <Group gap="lg" mt={6}>
                    <Radio
                      value="negative"
                      label="Negative"
                      ref={radio.ref}
                      // The first choice to make, not the dialog's close button (as Record Collection does).
                      data-autofocus={test === INFECTION_TESTS[0] ? true : undefined}
                      {...radioErrorProps(test, fieldState.error?.message)}
                    />
                    <Radio
                      value="reactive"
                      label="Reactive"
                      color={DANGER}
                      {...radioErrorProps(test, fieldState.error?.message)}
                    />
                  </Group>
                </Radio.Group>
              )}
            />
          ))}
        </SimpleGrid>
        <NativeSelect
          label="Confirmed blood group"
          description={
            donation.donor_bloodgroup && donation.donor_bloodgroup !== donation.bloodgroup
              ? `Booked as ${donation.bloodgroup}; the donor's record now says ${donation.donor_bloodgroup}`
              : `Recorded for the donor: ${donation.bloodgroup}`
          }
          data={GROUP_OPTIONS}
          withAsterisk
          w={{ base: '100%', xs: 260 }}
          {...field('bloodgroup')}
        />

        {/* What will happen, said as it changes: the status region is there from the start, as a
            region made together with its text is often not read (polite, not an error). */}
        <div role="status">
          <Stack gap="sm">
            {groupChanged ? (
              <Alert
                color="orange"
                variant="light"
                icon={<IconAlertTriangle aria-hidden />}
                title={
                  changes.correctsDonorFrom
                    ? "The confirmed group differs from the donor's record"
                    : 'The confirmed group differs from the booking'
                }
                styles={{ title: { color: 'var(--mantine-color-dark-7)' } }}
                role="none"
                data-testid="group-warning"
              >
                <Text size="sm">
                  {changes.correctsDonorFrom
                    ? reactive.length > 0
                      ? `The donor's group will be corrected from ${changes.correctsDonorFrom} to ${values.bloodgroup}.`
                      : `The donor's group will be corrected from ${changes.correctsDonorFrom} to ${values.bloodgroup} (the donor is told), and the units will carry ${values.bloodgroup}.`
                    : `The donation was booked as ${donation.bloodgroup}, the donor's record now says ${values.bloodgroup}: the units will carry ${values.bloodgroup}.`}
                </Text>
              </Alert>
            ) : null}
            {reactive.length > 0 ? (
              <Alert
                color="red"
                variant="light"
                icon={<IconAlertTriangle aria-hidden />}
                title={`Reactive: ${reactive.map((test) => INFECTION_TEST_LABELS[test]).join(', ')}`}
                styles={{ title: { color: 'var(--mantine-color-red-9)' } }}
                role="none"
                data-testid="reactive-warning"
              >
                <List size="sm" spacing={4}>
                  {reactiveConsequences(reactive).map((line) => (
                    <List.Item key={line}>{line}</List.Item>
                  ))}
                </List>
              </Alert>
            ) : null}
          </Stack>
        </div>

        {failure ? (
          <Alert color="red" variant="light" role="alert">
            {failure}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button
            ref={reviewButton}
            type="submit"
            color={reactive.length > 0 ? DANGER : undefined}
            aria-disabled={busy || undefined}
            data-disabled={busy || undefined}
          >
            {busy
              ? 'Saving...'
              : reactive.length > 0
                ? 'Review reactive result'
                : groupChanged
                  ? 'Review group correction'
                  : 'Record results'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * A radio of a test whose choice is missing: marked invalid and described by the group's message,
 * which a screen reader reads on the radio it lands on (a group's own description often is not).
 */
function radioErrorProps(test: string, error: string | undefined) {
  return error ? { 'aria-invalid': true, 'aria-describedby': `result-${test}-error` } : {};
}

/**
 * The bags that take the confirmed group, by number: the whole-blood units, or the components
 * already separated from them (a processed unit and its components all carry the group).
 */
function unitsOfDonationText(donation: AdminDonation): string {
  const ids = donation.unit_ids;
  if (ids.length === 0) return `The ${donation.unit === 1 ? 'unit' : 'units'} of this donation`;
  return `${unitNumbersText(ids)} of this donation`;
}
