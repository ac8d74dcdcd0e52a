import { useState } from 'react';
import { Alert, Button, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import type { AdminDonation } from '@bloodbank/shared/admin';
import {
  CollectionSchema,
  failedScreeningReasons,
  SCREENING_FIELDS,
  SCREENING_POSSIBLE_RANGES,
  type CollectionInput,
  type ScreeningField,
  type ScreeningThresholds,
} from '@bloodbank/shared/donation-lifecycle';
import { ApiError, errorMessage } from '@/lib/api-client';
import { applyServerFieldErrors, fieldBinder } from '@/lib/form-errors';
import { DONATION_INTERVAL_DAYS } from '@bloodbank/shared/constants';
import { daysBetween } from '@bloodbank/shared/dates';
import { formatDate, unitsText } from '@/lib/format';
import { useCollectDonation } from '../api/collect-donation';
import { useScreeningThresholds } from '../api/get-screening-thresholds';
import { notify } from '../notify';
import { TEXT_TONE } from '../tones';
import { StepModal } from './step-modal';
import { DraftNotice } from '@/components/ui/draft-notice';
import { useAuth } from '@/lib/auth/auth-context';
import { useFormDraft } from '@/lib/form-draft';

type CollectionValues = Record<ScreeningField, string>;

const EMPTY: CollectionValues = {
  haemoglobin_g_dl: '',
  weight_kg: '',
  bp_systolic: '',
  bp_diastolic: '',
  pulse: '',
};

const FIELD_LABELS: Record<ScreeningField, string> = {
  haemoglobin_g_dl: 'Haemoglobin (g/dL)',
  weight_kg: 'Weight (kg)',
  bp_systolic: 'Blood pressure, systolic (mmHg)',
  bp_diastolic: 'Blood pressure, diastolic (mmHg)',
  pulse: 'Pulse (beats/min)',
};

/** What a donor must meet, next to each field: "At least 12.5 g/dL", "90–180 mmHg". */
export function thresholdText(field: ScreeningField, thresholds: ScreeningThresholds): string {
  const unit = SCREENING_POSSIBLE_RANGES[field].unit;
  switch (field) {
    case 'haemoglobin_g_dl':
      return `To donate: at least ${thresholds.haemoglobin_min_g_dl} ${unit}`;
    case 'weight_kg':
      return `To donate: at least ${thresholds.weight_min_kg} ${unit}`;
    case 'bp_systolic':
      return `To donate: ${thresholds.bp_systolic_min}–${thresholds.bp_systolic_max} ${unit}`;
    case 'bp_diastolic':
      return `To donate: ${thresholds.bp_diastolic_min}–${thresholds.bp_diastolic_max} ${unit}`;
    case 'pulse':
      return `To donate: ${thresholds.pulse_min}–${thresholds.pulse_max} ${unit}`;
  }
}

const alertTitle = (color: 'red' | 'dark') => ({
  title: { color: color === 'red' ? 'var(--mantine-color-red-9)' : 'var(--mantine-color-dark-7)' },
});

/** The booking being collected: a row of Manage Donations, or of a site's day list. */
export type CollectionSubject = Pick<AdminDonation, 'id' | 'donor_name' | 'unit' | 'bloodgroup' | 'date'> & {
  disease?: string;
  /** The last donation the donor declared on the form (perhaps elsewhere, so the server cannot check it). */
  lastDonation?: string | null;
};

/** The donor's own word on their last donation, and a warning when it is inside the interval. */
function DeclaredLastDonation({ lastDonation, bookedFor }: { lastDonation: string; bookedFor: string }) {
  const days = daysBetween(lastDonation, bookedFor);
  if (days >= DONATION_INTERVAL_DAYS) {
    return (
      <Text size="sm">
        Last donation declared: <strong>{formatDate(lastDonation)}</strong> ({days} days before this booking).
      </Text>
    );
  }
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconAlertTriangle size={18} aria-hidden />}
      title="Check the last donation"
      // Mantine's orange title is under 4.5:1 on its light background.
      styles={{ title: { color: TEXT_TONE.orange } }}
    >
      The donor declared a donation on {formatDate(lastDonation)}, {days} days before this booking: less than
      the {DONATION_INTERVAL_DAYS} days between donations. Ask before you collect.
    </Alert>
  );
}

interface RecordCollectionDialogProps {
  /** The booking being collected; null keeps the dialog closed. */
  donation: CollectionSubject | null;
  /** False once the collection has removed the button that opened the dialog (useFocusAfterAction). */
  returnFocus?: boolean;
  /** The collection was recorded (before the dialog closes). */
  onRecorded?: () => void;
  onClose: () => void;
}

/**
 * Record Collection (PRODUCT.md 3.2): the four screening measurements, checked here with the
 * shared CollectionSchema, the thresholds beside each field and, as soon as every value is
 * possible, what the server will decide (collected, or deferred and why).
 */
export function RecordCollectionDialog({
  donation,
  returnFocus,
  onRecorded,
  onClose,
}: RecordCollectionDialogProps) {
  return (
    <StepModal
      item={donation}
      title={(item) => `Record collection: donation #${item.id}`}
      returnFocus={returnFocus}
      onClose={onClose}
    >
      {(item, onBusy) => (
        <CollectionFormBody donation={item} onRecorded={onRecorded} onClose={onClose} onBusy={onBusy} />
      )}
    </StepModal>
  );
}

function CollectionFormBody({
  donation,
  onRecorded,
  onClose,
  onBusy,
}: {
  donation: CollectionSubject;
  onRecorded: (() => void) | undefined;
  onClose: () => void;
  onBusy: (busy: boolean) => void;
}) {
  const thresholds = useScreeningThresholds();
  const collect = useCollectDonation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<CollectionValues, unknown, CollectionInput>({
    resolver: zodResolver(CollectionSchema) as unknown as Resolver<
      CollectionValues,
      unknown,
      CollectionInput
    >,
    defaultValues: EMPTY,
  });
  const field = fieldBinder(form);
  // Kept while typed (this tab only): a session that ends mid-collection, or a dialog closed by
  // mistake, finds the measurements again when the dialog is opened for this donation.
  const auth = useAuth();
  const draft = useFormDraft(form, `record-collection-${donation.id}`, { owner: auth.user?.userId ?? null });
  const values = useWatch({ control: form.control });
  const parsed = CollectionSchema.safeParse(values);
  const reasons =
    parsed.success && thresholds.data ? failedScreeningReasons(parsed.data, thresholds.data) : null;
  const busy = form.formState.isSubmitting;

  const submit = form.handleSubmit(async (input) => {
    setFailure(null);
    onBusy(true);
    try {
      const result = await collect.mutateAsync({ id: donation.id, values: input });
      if (result.status === 'collected') {
        notify({
          title: 'Collection recorded',
          message: `${unitsText(result.unit_ids.length)} of ${donation.bloodgroup} from ${donation.donor_name} ${result.unit_ids.length === 1 ? 'is' : 'are'} in testing.`,
        });
      } else {
        const until = result.deferral.until ? ` until ${formatDate(result.deferral.until)}` : '';
        notify({
          title: 'Donor deferred',
          message: `${donation.donor_name} is deferred${until}: ${result.reasons.join(' ')}`,
        });
      }
      draft.clear();
      onRecorded?.();
      onClose();
    } catch (error) {
      const unplaced = applyServerFieldErrors(form, error, SCREENING_FIELDS);
      const onFields =
        error instanceof ApiError && Object.keys(error.errors).length > Object.keys(unplaced).length;
      if (!onFields)
        setFailure(errorMessage(error, 'The collection could not be recorded. Please try again.'));
    } finally {
      onBusy(false);
    }
  });

  return (
    <form noValidate aria-label="Record collection" onSubmit={(event) => void submit(event)}>
      <Stack gap="md">
        <Text size="sm">
          {donation.donor_name} booked {unitsText(donation.unit)} of {donation.bloodgroup} for{' '}
          {formatDate(donation.date)}.
          {donation.disease !== undefined ? (
            <>
              {' '}
              Health condition declared: <strong>{donation.disease}</strong>.
            </>
          ) : null}
        </Text>
        {donation.lastDonation ? (
          <DeclaredLastDonation lastDonation={donation.lastDonation} bookedFor={donation.date} />
        ) : null}
        <DraftNotice draft={draft} onStartOver={() => form.reset(EMPTY)} />
        {thresholds.isError ? (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(thresholds.error, 'The screening thresholds could not be loaded.')} The server still
            checks every measurement.
          </Alert>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {SCREENING_FIELDS.map((name, index) => (
            <TextInput
              key={name}
              label={FIELD_LABELS[name]}
              description={
                thresholds.data ? thresholdText(name, thresholds.data) : 'Loading the threshold...'
              }
              inputMode={name === 'haemoglobin_g_dl' || name === 'weight_kg' ? 'decimal' : 'numeric'}
              autoComplete="off"
              withAsterisk
              data-autofocus={index === 0 ? true : undefined}
              {...field(name)}
            />
          ))}
        </SimpleGrid>

        {/* What will happen, said as it changes: the status region is there from the start, as a
            region made together with its text is often not read (polite, not an error). */}
        <div role="status">
          {reasons === null ? null : reasons.length > 0 ? (
            <Alert
              color="orange"
              variant="light"
              icon={<IconAlertTriangle aria-hidden />}
              title={`This donor will be deferred for ${thresholds.data?.deferral_days ?? 30} days:`}
              styles={alertTitle('dark')}
              role="none"
              data-testid="screening-preview"
            >
              <Stack gap={2}>
                {reasons.map((reason) => (
                  <Text size="sm" key={reason}>
                    {reason}
                  </Text>
                ))}
              </Stack>
            </Alert>
          ) : (
            <Alert
              color="teal"
              variant="light"
              icon={<IconCircleCheck aria-hidden />}
              styles={alertTitle('dark')}
              title="Every measurement meets its threshold."
              role="none"
              data-testid="screening-preview"
            >
              <Text size="sm">
                {unitsText(donation.unit)} of whole blood will be collected and held in testing until the
                results are in.
              </Text>
            </Alert>
          )}
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
          <Button type="submit" disabled={busy}>
            {busy ? 'Saving...' : reasons && reasons.length > 0 ? 'Record and defer' : 'Record collection'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
