import { useEffect, type ReactNode } from 'react';
import { Alert, NativeSelect, Text } from '@mantine/core';
import { IconCalendarOff } from '@tabler/icons-react';
import { Controller, useWatch, type Control, type FieldValues, type Resolver } from 'react-hook-form';
import { BOOKING_DAYS_AHEAD } from '@bloodbank/shared/constants';
import { addDays, isValidIsoDate } from '@bloodbank/shared/dates';
import { useBankToday } from '@/lib/bank-today';
import type { QueryClient } from '@tanstack/react-query';
import { ApiError, errorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { SITE_MESSAGES, type PublicSite, type Slot } from '@bloodbank/shared/sites';
import { OpeningHours } from '@/components/ui/opening-hours';
import { slotLabel, weekdayName, weekdayOf } from '@/lib/site-hours';
import { useSlots } from '../api/get-slots';
import { donorKeys } from '../api/query-keys';

/** The part of a booking form these fields fill in (the Donate Blood form, the Move Booking form). */
export interface AppointmentValues {
  date: string;
  site_id?: number | null;
  slot?: string | null;
}

/** Whether a booking or a move was refused because its time filled up meanwhile (409 slot_full). */
export const isSlotFull = (error: unknown): boolean =>
  error instanceof ApiError && error.code === 'slot_full';

/**
 * Someone took the last place of the chosen time meanwhile: the time is let go, the server's words
 * go on the time field, and the free times are asked again. The two functions are the form's own.
 */
export function showSlotTaken(
  error: unknown,
  form: { clearSlot: () => void; setSlotError: (message: string) => void },
  queryClient: QueryClient,
): void {
  form.clearSlot();
  form.setSlotError(errorMessage(error, SITE_MESSAGES.slotFull));
  void queryClient.invalidateQueries({ queryKey: donorKeys.sites });
}

export const NO_FREE_TIMES = 'No free times at this site on this date. Please choose another date or site.';

/**
 * Why a date offers no time: the site is closed that day (a closed date, or its weekday), every
 * time has gone by (today), or every place is taken. A closed site must not look fully booked.
 */
export function noTimesText(site: PublicSite, date: string, slots: readonly Slot[], today: string): string {
  const another = 'Please choose another date or site.';
  if (slots.length > 0) return NO_FREE_TIMES;
  if (site.closed_dates.includes(date)) return `${site.name} is closed on ${formatDate(date)}. ${another}`;
  const weekday = weekdayOf(date);
  if (weekday && site.hours[weekday] === null)
    return `${site.name} is closed on ${weekdayName(weekday)}s. ${another}`;
  if (date === today) return `No more times today at ${site.name}. ${another}`;
  return `${site.name} has no times on ${formatDate(date)}. ${another}`;
}

/** Whether a booking may be made for `date` (today up to BOOKING_DAYS_AHEAD days on): only then are slots asked for. */
export function isBookableDate(date: string | null | undefined, today: string): date is string {
  if (!date || !isValidIsoDate(date)) return false;
  return date >= today && date <= addDays(today, BOOKING_DAYS_AHEAD);
}

/**
 * With donation sites configured (PRODUCT.md 3.6) a booking names a site and a slot: the shared
 * schema leaves both optional (the server decides), so the form asks for them here, beside the
 * schema's own messages of the same submit.
 */
export function requireAppointment<
  Values extends FieldValues & { site_id?: unknown; slot?: unknown },
  Output,
>(resolver: Resolver<Values, unknown, Output>, required: boolean): Resolver<Values, unknown, Output> {
  return async (values, context, options) => {
    const result = await resolver(values, context, options);
    if (!required) return result;
    const missing: Record<string, { type: string; message: string }> = {};
    if (values.site_id === null || values.site_id === undefined || values.site_id === '') {
      missing.site_id = { type: 'required', message: SITE_MESSAGES.siteRequired };
    }
    if (!values.slot) missing.slot = { type: 'required', message: SITE_MESSAGES.slotRequired };
    if (Object.keys(missing).length === 0) return result;
    return { values: {}, errors: { ...missing, ...result.errors } } as Awaited<ReturnType<typeof resolver>>;
  };
}

interface AppointmentFieldsProps {
  sites: PublicSite[];
  /** The booking form's control, seen as its date, site and slot. */
  control: Control<AppointmentValues>;
  /** Lets go of a time that is no longer offered (the form's setValue('slot', null)). */
  onSlotGone: () => void;
  siteError?: string | undefined;
  slotError?: string | undefined;
  /** The date field, placed between the site and the time (site, day, then the time of that day). */
  children: ReactNode;
  /** The first day the donor may donate (the interval or a deferral): no times are offered before it. */
  earliest?: string | null;
}

/**
 * The donation site and the time (PRODUCT.md 3.6): the sites to choose from, then the slots of the
 * chosen date that still have a place ("09:15 (2 places left)"). A time that is no longer offered
 * (another date, another site, the slot filled up) is let go.
 */
export function AppointmentFields({
  sites,
  control,
  onSlotGone,
  siteError,
  slotError,
  children,
  earliest,
}: AppointmentFieldsProps) {
  const [date, siteId, slotValue] = useWatch({ control, name: ['date', 'site_id', 'slot'] });
  const today = useBankToday();
  const chosenSite = sites.find((candidate) => candidate.id === siteId) ?? null;
  const tooEarly = !!earliest && !!date && date < earliest;
  const bookable = isBookableDate(date, today) && !tooEarly;
  const slots = useSlots(chosenSite?.id ?? null, bookable ? date : null);
  const free = (slots.data ?? []).filter((candidate) => candidate.available > 0);
  const offered = !!slotValue && free.some((candidate) => candidate.time === slotValue);

  useEffect(() => {
    if (slotValue && !slots.isFetching && !offered) onSlotGone();
  }, [slotValue, offered, slots.isFetching, onSlotGone]);

  let timeHint: string | null = null;
  let noTimes = false;
  // Says what is missing: a site, a date, or a date the donor can book.
  if (!chosenSite && !date) timeHint = 'Choose a date and a donation site first.';
  else if (!date) timeHint = 'Choose a date first.';
  else if (tooEarly) timeHint = `Choose a date from ${formatDate(earliest)} onwards first.`;
  else if (!bookable) timeHint = `Choose a date from today to ${BOOKING_DAYS_AHEAD} days ahead first.`;
  else if (!chosenSite) timeHint = 'Choose a donation site first.';
  else if (slots.isPending) timeHint = 'Looking for free times...';
  else if (slots.isError) timeHint = 'The free times could not be loaded. Please choose the date again.';
  else if (free.length === 0) noTimes = true;
  else timeHint = `${free.length} free ${free.length === 1 ? 'time' : 'times'}`;

  return (
    <>
      <Controller
        control={control}
        name="site_id"
        render={({ field }) => (
          <NativeSelect
            ref={field.ref}
            name={field.name}
            label="Donation Site"
            description={
              chosenSite ? (
                // The address, then the week on a line of its own (a time range never breaks in two).
                <>
                  <span style={{ display: 'block', overflowWrap: 'anywhere' }}>{chosenSite.address}</span>
                  <span style={{ display: 'block' }}>
                    <OpeningHours hours={chosenSite.hours} />
                  </span>
                </>
              ) : (
                'Where you will give blood'
              )
            }
            data={[
              { value: '', label: 'Select a donation site', disabled: true },
              ...sites.map((candidate) => ({ value: String(candidate.id), label: candidate.name })),
            ]}
            value={chosenSite ? String(chosenSite.id) : ''}
            onChange={(event) => {
              const value = event.currentTarget.value;
              field.onChange(value === '' ? null : Number(value));
            }}
            onBlur={field.onBlur}
            withAsterisk
            error={siteError}
          />
        )}
      />
      {children}
      <div>
        <Controller
          control={control}
          name="slot"
          render={({ field }) => (
            <NativeSelect
              ref={field.ref}
              name={field.name}
              label="Time"
              description={timeHint ?? undefined}
              data={[
                { value: '', label: 'Select a time', disabled: true },
                ...free.map((candidate) => ({ value: candidate.time, label: slotLabel(candidate) })),
              ]}
              value={offered && slotValue ? slotValue : ''}
              onChange={(event) => {
                const value = event.currentTarget.value;
                field.onChange(value === '' ? null : value);
              }}
              onBlur={field.onBlur}
              disabled={free.length === 0}
              withAsterisk
              error={slotError}
            />
          )}
        />
        {noTimes ? (
          <Alert
            color="yellow"
            variant="light"
            mt="xs"
            p="xs"
            icon={<IconCalendarOff size={18} aria-hidden />}
            role="status"
            data-testid="no-free-times"
          >
            <Text size="sm">
              {chosenSite && date ? noTimesText(chosenSite, date, slots.data ?? [], today) : NO_FREE_TIMES}
            </Text>
          </Alert>
        ) : null}
      </div>
    </>
  );
}
