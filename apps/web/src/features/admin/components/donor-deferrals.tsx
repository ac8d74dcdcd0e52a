import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Button,
  Group,
  Modal,
  Paper,
  Radio,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { addDays } from '@bloodbank/shared/dates';
import { bankToday, useBankToday } from '@/lib/bank-today';
import {
  LiftDeferralSchema,
  newDeferralSchema,
  type Deferral,
  type DeferralSource,
  type LiftDeferralInput,
  type NewDeferralInput,
} from '@bloodbank/shared/donation-lifecycle';
import { PageLoader } from '@/components/ui/page-loader';
import { ErrorAlert } from '@/components/ui/error-alert';
import { ApiError, errorMessage } from '@/lib/api-client';
import { applyServerFieldErrors, fieldBinder } from '@/lib/form-errors';
import { formatDate, formatDateTime } from '@/lib/format';
import { useAddDeferral } from '../api/add-deferral';
import { useDeferrals } from '../api/get-deferrals';
import { useLiftDeferral } from '../api/lift-deferral';
import { StatusBadge } from './status-badge';
import { DANGER } from '../tones';
import { notify } from '../notify';
import { useFocusNextRow } from '../focus-next-row';

const SOURCE_LABELS: Record<DeferralSource, string> = {
  manual: 'Set by staff',
  screening: 'Failed screening',
  test: 'Reactive test',
};

function deferralTitle(deferral: Deferral): string {
  return deferral.type === 'permanent' ? 'Permanent' : `Temporary, until ${formatDate(deferral.until)}`;
}

function deferralState(deferral: Deferral): { status: string; label: string } {
  if (deferral.lifted_at) return { status: 'lifted', label: 'Lifted' };
  if (deferral.active) return { status: 'deferred', label: 'Active' };
  return { status: 'lifted', label: 'Ended' };
}

/**
 * A donor's deferrals on their page (PRODUCT.md 3.7): every deferral with its reason and source,
 * whether it still applies and, if lifted, by whom and why; staff add one by hand or lift one.
 */
export function DonorDeferrals({
  donorId,
  donorName,
  onDialogChange,
}: {
  donorId: number;
  donorName: string;
  /** Told when a dialog of this section (add, lift) opens over the page and when it is gone. */
  onDialogChange?: (open: boolean) => void;
}) {
  const deferrals = useDeferrals(donorId);
  const [adding, setAdding] = useState(false);
  const [lifting, setLifting] = useState<Deferral | null>(null);
  const dialogOpen = adding || lifting !== null;
  // A lifted deferral loses its Lift button: focus goes on to the next one's Lift, else to the
  // section's heading, inside the person's drawer rather than out of it to the top of the page.
  const afterLift = useFocusNextRow();
  const section = useRef<HTMLElement>(null);
  const headingId = `deferrals-${donorId}`;
  const heading = () => document.getElementById(headingId);
  useEffect(() => {
    if (!dialogOpen || !onDialogChange) return;
    onDialogChange(true);
    return () => onDialogChange(false);
  }, [dialogOpen, onDialogChange]);

  let body;
  if (deferrals.isPending) body = <PageLoader label="Loading deferrals" />;
  else if (deferrals.isError)
    body = (
      <ErrorAlert
        message={errorMessage(deferrals.error, 'The deferrals could not be loaded. Please try again.')}
        onRetry={() => void deferrals.refetch()}
        retrying={deferrals.isFetching}
      />
    );
  else if (deferrals.data.length === 0)
    body = (
      <Text size="sm" c="dimmed">
        {donorName} has never been deferred.
      </Text>
    );
  else
    body = (
      <Stack
        component="ul"
        gap="sm"
        style={{ listStyle: 'none', margin: 0, padding: 0 }}
        aria-label="Deferrals"
      >
        {deferrals.data.map((deferral) => {
          const state = deferralState(deferral);
          return (
            <Paper component="li" key={deferral.id} data-row-key={deferral.id} withBorder radius="md" p="sm">
              <Group justify="space-between" gap="xs" wrap="wrap" align="flex-start">
                <Stack gap={2} style={{ flex: '1 1 220px', minWidth: 0 }}>
                  <Text fw={600} size="sm">
                    {deferralTitle(deferral)}
                  </Text>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {deferral.reason}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {SOURCE_LABELS[deferral.source]}
                    {deferral.donation_id ? ` (donation #${deferral.donation_id})` : ''} ·{' '}
                    {deferral.created_by}, {formatDateTime(deferral.created_at)}
                  </Text>
                  {deferral.lifted_at ? (
                    <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
                      Lifted by {deferral.lifted_by ?? 'staff'} on {formatDateTime(deferral.lifted_at)}:{' '}
                      {deferral.lift_reason}
                    </Text>
                  ) : null}
                </Stack>
                <Stack gap={6} align="flex-end">
                  <StatusBadge status={state.status} label={state.label} />
                  {deferral.active ? (
                    <Button
                      size="xs"
                      variant="outline"
                      onClick={() => {
                        afterLift.open(section.current, deferral.id, 'lift', heading);
                        setLifting(deferral);
                      }}
                      aria-label={`Lift deferral: ${deferralTitle(deferral)}`}
                      data-action="lift"
                    >
                      Lift
                    </Button>
                  ) : null}
                </Stack>
              </Group>
            </Paper>
          );
        })}
      </Stack>
    );

  return (
    <section aria-labelledby={headingId} ref={section}>
      <Group justify="space-between" gap="sm" mb="sm" wrap="wrap">
        <Title order={3} size="h4" id={headingId} tabIndex={-1}>
          Deferrals
        </Title>
        <Button size="xs" variant="light" onClick={() => setAdding(true)}>
          Add deferral
        </Button>
      </Group>
      {body}
      <Modal
        opened={adding}
        onClose={() => setAdding(false)}
        title={`Defer ${donorName}`}
        centered
        closeButtonProps={{ 'aria-label': 'Close dialog' }}
      >
        {adding ? (
          <AddDeferralForm donorId={donorId} donorName={donorName} onDone={() => setAdding(false)} />
        ) : null}
      </Modal>
      <Modal
        opened={lifting !== null}
        onClose={() => setLifting(null)}
        title="Lift deferral"
        centered
        returnFocus={afterLift.returnFocus}
        closeButtonProps={{ 'aria-label': 'Close dialog' }}
      >
        {lifting ? (
          <LiftDeferralForm
            deferral={lifting}
            donorName={donorName}
            stillDeferred={deferrals.data?.some((other) => other.active && other.id !== lifting.id) ?? false}
            onLifted={afterLift.done}
            onDone={() => setLifting(null)}
          />
        ) : null}
      </Modal>
    </section>
  );
}

type AddValues = { type: 'temporary' | 'permanent'; until: string; reason: string };

function AddDeferralForm({
  donorId,
  donorName,
  onDone,
}: {
  donorId: number;
  donorName: string;
  onDone: () => void;
}) {
  const schema = useMemo(() => newDeferralSchema(() => bankToday()), []);
  const today = useBankToday();
  const add = useAddDeferral(donorId);
  const form = useForm<AddValues, unknown, NewDeferralInput>({
    resolver: zodResolver(schema) as unknown as Resolver<AddValues, unknown, NewDeferralInput>,
    defaultValues: { type: 'temporary', until: '', reason: '' },
  });
  const field = fieldBinder(form);
  const type = useWatch({ control: form.control, name: 'type' });
  const [failure, setFailure] = useState<string | null>(null);
  const busy = add.isPending;

  const submit = form.handleSubmit((values) => {
    setFailure(null);
    add.mutate(values, {
      onSuccess: (deferral) => {
        notify({
          title: 'Donor deferred',
          message: `${
            deferral.type === 'permanent'
              ? `${donorName} is deferred permanently.`
              : `${donorName} is deferred until ${formatDate(deferral.until)}.`
          }${
            // Said to staff as the donor hears it: the booking will not come back if the deferral is lifted.
            deferral.cancelled_booking
              ? ` Their booking for ${formatDate(deferral.cancelled_booking.date)} is cancelled, and they are told.`
              : ''
          }`,
        });
        onDone();
      },
      onError: (error) => {
        const unplaced = applyServerFieldErrors(form, error, ['type', 'until', 'reason']);
        const onFields =
          error instanceof ApiError && Object.keys(error.errors).length > Object.keys(unplaced).length;
        if (!onFields) setFailure(errorMessage(error, 'The deferral could not be saved. Please try again.'));
      },
    });
  });

  return (
    <form noValidate aria-label="Add deferral" onSubmit={(event) => void submit(event)}>
      <Stack gap="md">
        <Controller
          control={form.control}
          name="type"
          render={({ field: radio, fieldState }) => (
            <Radio.Group
              label="Type"
              withAsterisk
              value={radio.value}
              onChange={radio.onChange}
              name="deferral-type"
              error={fieldState.error?.message}
            >
              <Stack gap={6} mt={6}>
                <Radio value="temporary" label="Temporary, until a date" ref={radio.ref} />
                <Radio value="permanent" label="Permanent" />
              </Stack>
            </Radio.Group>
          )}
        />
        {type === 'temporary' ? (
          <TextInput
            label="End date"
            description="The first day the donor may donate again."
            type="date"
            min={addDays(today, 1)}
            withAsterisk
            {...field('until')}
          />
        ) : null}
        <Textarea
          label="Reason"
          description="Seen by staff only. At most 500 characters."
          withAsterisk
          autosize
          minRows={2}
          {...field('reason')}
        />
        <Text size="sm" c="dimmed">
          A booking on a day this deferral covers is cancelled, and the donor is told.
        </Text>
        {failure ? (
          <Alert color="red" variant="light" role="alert">
            {failure}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" color={DANGER} disabled={busy}>
            {busy ? 'Saving...' : 'Defer donor'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function LiftDeferralForm({
  deferral,
  donorName,
  stillDeferred,
  onLifted,
  onDone,
}: {
  deferral: Deferral;
  donorName: string;
  /** Another of the donor's deferrals is active: lifting this one does not let them book. */
  stillDeferred: boolean;
  /** The deferral was lifted (before the dialog closes). */
  onLifted: () => void;
  /** Closes the dialog: lifted, or cancelled. */
  onDone: () => void;
}) {
  const lift = useLiftDeferral();
  const form = useForm<LiftDeferralInput>({
    resolver: zodResolver(LiftDeferralSchema),
    defaultValues: { reason: '' },
  });
  const field = fieldBinder(form);
  const [failure, setFailure] = useState<string | null>(null);
  const busy = lift.isPending;

  const submit = form.handleSubmit((values) => {
    setFailure(null);
    lift.mutate(
      { id: deferral.id, reason: values.reason },
      {
        onSuccess: () => {
          notify({
            title: 'Deferral lifted',
            message: stillDeferred
              ? `${donorName} is still deferred by another deferral.`
              : `${donorName} may book a donation again.`,
          });
          onLifted();
          onDone();
        },
        onError: (error) => {
          const unplaced = applyServerFieldErrors(form, error, ['reason']);
          const onFields =
            error instanceof ApiError && Object.keys(error.errors).length > Object.keys(unplaced).length;
          if (!onFields)
            setFailure(errorMessage(error, 'The deferral could not be lifted. Please try again.'));
        },
      },
    );
  });

  return (
    <form noValidate aria-label="Lift deferral" onSubmit={(event) => void submit(event)}>
      <Stack gap="md">
        <Text size="sm">
          {donorName}: {deferralTitle(deferral)} ({deferral.reason})
        </Text>
        <Textarea
          label="Reason for lifting"
          description="Recorded in the audit log. At most 500 characters."
          withAsterisk
          autosize
          minRows={2}
          data-autofocus
          {...field('reason')}
        />
        {failure ? (
          <Alert color="red" variant="light" role="alert">
            {failure}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Lifting...' : 'Lift deferral'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
