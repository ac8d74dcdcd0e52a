import { useCallback, useEffect, useMemo } from 'react';
import { Alert, Button, Flex, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle } from '@tabler/icons-react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useForm, type Control, type Resolver } from 'react-hook-form';
import { bankToday, useBankToday } from '@/lib/bank-today';
import {
  rescheduleFormSchema,
  type Donation,
  type RescheduleForm,
  type RescheduleInput,
} from '@bloodbank/shared/donation';
import type { PublicSite } from '@bloodbank/shared/sites';
import { ApiError, errorMessage } from '@/lib/api-client';
import { applyServerFieldErrors } from '@/lib/form-errors';
import { formatDate } from '@/lib/format';
import { PageLoader } from '@/components/ui/page-loader';
import { useSites } from '../api/get-sites';
import { useRescheduleDonation } from '../api/reschedule-donation';
import { useSingleFlight } from '@/lib/use-single-flight';
import {
  AppointmentFields,
  isSlotFull,
  requireAppointment,
  showSlotTaken,
  type AppointmentValues,
} from './appointment-fields';

type MoveValues = RescheduleForm;
type MoveOutput = RescheduleInput;

const FIELDS = ['date', 'site_id', 'slot'] as const;

/**
 * Move a pending booking to another day, site or time (PRODUCT.md 3.6): the same choices and
 * messages as the Donate Blood form. Open while `donation` is not null.
 */
export function MoveBookingModal({ donation, onClose }: { donation: Donation | null; onClose: () => void }) {
  const reschedule = useRescheduleDonation();
  const close = () => {
    if (reschedule.isPending) return;
    reschedule.reset();
    onClose();
  };
  return (
    <Modal
      opened={donation !== null}
      onClose={close}
      title="Move your booking"
      centered
      radius="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      {donation ? (
        <MoveBookingForm
          key={donation.id}
          donation={donation}
          reschedule={reschedule}
          onCancel={close}
          onMoved={() => {
            reschedule.reset();
            onClose();
          }}
        />
      ) : null}
    </Modal>
  );
}

type Reschedule = ReturnType<typeof useRescheduleDonation>;

interface MoveFormProps {
  donation: Donation;
  reschedule: Reschedule;
  onCancel: () => void;
  onMoved: () => void;
}

function MoveBookingForm(props: MoveFormProps) {
  const sites = useSites();
  if (sites.isPending) return <PageLoader label="Loading the donation sites" />;
  return <MoveForm {...props} sites={sites.data ?? []} />;
}

function MoveForm({
  donation,
  reschedule,
  onCancel,
  onMoved,
  sites,
}: MoveFormProps & { sites: PublicSite[] }) {
  const queryClient = useQueryClient();
  const today = useBankToday();
  const atSites = sites.length > 0;
  const resolver = useMemo(
    () =>
      requireAppointment(
        zodResolver(rescheduleFormSchema(() => bankToday())) as unknown as Resolver<
          MoveValues,
          unknown,
          MoveOutput
        >,
        atSites,
      ),
    [atSites],
  );
  const currentSite = sites.find((site) => site.id === donation.appointment?.site_id)?.id;
  const form = useForm<MoveValues, unknown, MoveOutput>({
    resolver,
    defaultValues: {
      date: donation.date,
      site_id: currentSite ?? (sites.length === 1 ? sites[0]!.id : null),
      slot: null,
    },
  });
  const { errors } = form.formState;
  // The dialog places focus when it opens; while the sites were loading that was on Close, so the
  // form takes it to its first field once it appears.
  useEffect(() => form.setFocus('date'), [form]);
  const clearSlot = useCallback(() => form.setValue('slot', null), [form]);
  const setSlotError = (message: string) =>
    form.setError('slot', { type: 'server', message }, { shouldFocus: true });
  const busy = reschedule.isPending;

  const singleFlight = useSingleFlight();
  const submit = form.handleSubmit((values) =>
    singleFlight((finish) => {
      // The last answer's message goes; only here, where no move is on its way: a reset while one
      // is would detach the form from it (no busy button, no error shown).
      reschedule.reset();
      const move = atSites
        ? { date: values.date, site_id: values.site_id, slot: values.slot }
        : { date: values.date };
      // The promise's outcome, not mutate's callbacks, which TanStack drops for a mutation that
      // was reset or started again meanwhile.
      reschedule
        .mutateAsync({ id: donation.id, move })
        .then(
          (moved) => {
            notifications.show({
              color: 'green',
              message: moved.appointment
                ? `Your booking is moved to ${formatDate(moved.date)} at ${moved.appointment.time}, ${moved.appointment.site_name}.`
                : `Your booking is moved to ${formatDate(moved.date)}.`,
              closeButtonProps: { 'aria-label': 'Close notification' },
            });
            onMoved();
          },
          (error: unknown) => {
            if (isSlotFull(error)) {
              showSlotTaken(error, { clearSlot, setSlotError }, queryClient);
              return;
            }
            applyServerFieldErrors(form, error, FIELDS);
          },
        )
        .finally(finish);
    }),
  );

  const onFields =
    reschedule.error instanceof ApiError &&
    (isSlotFull(reschedule.error) ||
      Object.keys(reschedule.error.errors).some((name) => (FIELDS as readonly string[]).includes(name)));
  const dateInput = (
    <TextInput
      label="Donation Date"
      type="date"
      min={today}
      withAsterisk
      error={errors.date?.message}
      data-autofocus
      {...form.register('date')}
    />
  );

  return (
    <form noValidate aria-label="Move your booking" onSubmit={(event) => void submit(event)}>
      <Stack gap="md">
        <Text size="sm">
          {donation.appointment
            ? `You are booked for ${formatDate(donation.date)} at ${donation.appointment.time}, ${donation.appointment.site_name}.`
            : `You are booked for ${formatDate(donation.date)}.`}{' '}
          Choose a new {atSites ? 'date, site and time' : 'date'}; your current place is freed when you move.
        </Text>
        {reschedule.isError && !onFields ? (
          <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
            {errorMessage(reschedule.error, 'Failed to move your booking. Please try again.')}
          </Alert>
        ) : null}
        {atSites ? (
          <AppointmentFields
            sites={sites}
            control={form.control as unknown as Control<AppointmentValues>}
            onSlotGone={clearSlot}
            siteError={errors.site_id?.message}
            slotError={errors.slot?.message}
          >
            {dateInput}
          </AppointmentFields>
        ) : (
          dateInput
        )}
        {/* The safe choice first: on the left on a wide screen, on top (both full width) on a phone. */}
        <Flex direction={{ base: 'column', xs: 'row' }} justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            Keep Current Booking
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Moving...' : 'Move Booking'}
          </Button>
        </Flex>
      </Stack>
    </form>
  );
}
