import { useCallback, useEffect, useId, useMemo, useState, type ReactNode, type Ref } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconAlertTriangle, IconCalendarEvent, IconCircleCheck } from '@tabler/icons-react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useForm, useWatch, type Control } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import {
  BOOKING_DAYS_AHEAD,
  DONATION_INTERVAL_DAYS,
  DONATION_UNITS,
  DONOR_HEALTH_OPTIONS,
  ELIGIBILITY_STATEMENT,
  MESSAGES,
} from '@bloodbank/shared/constants';
import { addDays, isValidIsoDate } from '@bloodbank/shared/dates';
import { bankToday, useBankToday } from '@/lib/bank-today';
import {
  DONOR_COLLECTED_STATUSES,
  donationFormSchema,
  type DonationForm as DonationFormInput,
  type Donation,
  type DonationInput,
} from '@bloodbank/shared/donation';
import { paths } from '@/app/paths';
import { PageLoader } from '@/components/ui/page-loader';
import { errorMessage } from '@/lib/api-client';
import { DraftNotice } from '@/components/ui/draft-notice';
import { useAuth } from '@/lib/auth/auth-context';
import { useFormDraft } from '@/lib/form-draft';
import { applyServerFieldErrors, focusFirstInvalidField } from '@/lib/form-errors';
import { useCompleteDonation } from '../api/complete-donation';
import { useDonorSummary } from '../api/get-donor-summary';
import { useMyDonations } from '../api/get-my-donations';
import { useSites } from '../api/get-sites';
import { useSubmitDonation } from '../api/submit-donation';
import { formatDate, readableDates } from '@/lib/format';
import { useFocusOnShow } from '@/lib/use-focus-on-show';
import {
  AppointmentFields,
  isSlotFull,
  requireAppointment,
  showSlotTaken,
  type AppointmentValues,
} from './appointment-fields';
import { AddToCalendarButton, AppointmentSummary } from './appointment-summary';
import type { GameLocationState } from './game-location-state';
import { alertTitleStyles } from './readable-colors';
import { LoadError } from './load-error';
import { dayOf } from './donation-status';
import { OfflineNotice } from '@/components/ui/offline-notice';
import { RewardsPanel } from './rewards-panel';

const FIELDS = ['unit', 'date', 'disease', 'lastDonation', 'confirmation', 'site_id', 'slot'] as const;

// Every field a draft may fill has a default: the draft is matched against the form's values while
// the form still waits for the donor's summary and the sites (lib/form-draft.ts).
const DEFAULT_VALUES: Partial<DonationFormInput> = {
  unit: DONATION_UNITS.default,
  date: '',
  // No choice yet: the select shows its placeholder until the donor picks one.
  disease: '' as DonationFormInput['disease'],
  lastDonation: '',
  site_id: null,
  slot: null,
};

const HEALTH_OPTIONS = [
  { value: '', label: 'Select health condition', disabled: true },
  ...DONOR_HEALTH_OPTIONS.map((option) => ({ value: option, label: option })),
];

const COLLECTED = new Set<string>(DONOR_COLLECTED_STATUSES);

/** The day of the donor's latest donation the bank collected, or null when they have not given yet. */
export function lastGivenDate(donations: readonly Donation[], today: string): string | null {
  let latest: string | null = null;
  for (const donation of donations) {
    const day = dayOf(donation);
    if (COLLECTED.has(donation.status) && day <= today && (latest === null || day > latest)) {
      latest = day;
    }
  }
  return latest;
}

/**
 * The Donate Blood form (spec sections 2 and 5): idle, submitting, then success with the Blood
 * Hero reward. The server has the last word on eligibility; the donor summary lets the form say so
 * before the donor fills anything in.
 */
export function DonationForm() {
  const auth = useAuth();
  const navigate = useNavigate();
  const summary = useDonorSummary();
  const history = useMyDonations();
  const sites = useSites();
  const submission = useSubmitDonation();
  const reward = useCompleteDonation();
  const queryClient = useQueryClient();
  const [rewardsOpen, setRewardsOpen] = useState(true);
  // Make Another Donation: what replaces the success message is brought into view (below).
  const [startedAgain, setStartedAgain] = useState(false);

  // With active donation sites (PRODUCT.md 3.6) a booking names a site and a time; with none it is
  // by date alone, as in the spec. Until they load, no form is offered (below).
  const siteList = sites.data ?? [];
  const atSites = siteList.length > 0;

  // "Today" is read at each validation, so a form left open past midnight moves with the calendar.
  const schema = useMemo(() => donationFormSchema(() => bankToday()), []);
  // useForm reads its options on every render: the rule follows the sites once they are loaded.
  const resolver = useMemo(() => requireAppointment(zodResolver(schema), atSites), [schema, atSites]);
  const form = useForm<DonationFormInput, unknown, DonationInput>({
    resolver,
    defaultValues: DEFAULT_VALUES,
    // react-hook-form would focus the first field registered (the date, drawn before the site).
    shouldFocusError: false,
  });
  // Kept while typing (lib/form-draft.ts); the confirmation is always given again.
  const draft = useFormDraft(form, 'donate-blood', {
    owner: auth.user?.userId ?? null,
    // The last donation comes from the history when the bank knows it: never kept from an earlier visit.
    omit: ['confirmation', 'lastDonation'],
  });
  const { errors } = form.formState;
  const confirmationErrorId = useId();
  const clearSlot = useCallback(() => form.setValue('slot', null), [form]);
  const setSlotError = (message: string) =>
    form.setError('slot', { type: 'server', message }, { shouldFocus: true });

  // One site: it is the donor's choice already.
  const onlySiteId = siteList.length === 1 ? siteList[0]!.id : null;
  useEffect(() => {
    if (onlySiteId !== null && form.getValues('site_id') == null) form.setValue('site_id', onlySiteId);
  }, [form, onlySiteId]);

  // Eligibility as the server sees it, from the summary loaded when the form opened.
  const hasPending = (summary.data?.pending ?? 0) > 0;
  const eligibleFrom =
    summary.data?.not_eligible_reason && summary.data.next_eligible_date
      ? summary.data.next_eligible_date
      : null;
  const eligibilityMessage = summary.data?.not_eligible_reason
    ? readableDates(summary.data.not_eligible_reason)
    : null;
  const permanentlyDeferred = summary.data?.deferred?.type === 'permanent';
  const today = useBankToday();
  // The bank knows when the donor last gave: the field shows it and is not asked again. A history
  // that failed to load leaves the field to the donor, as before.
  const knownLastDonation = history.data ? lastGivenDate(history.data, today) : null;
  useEffect(() => {
    if (knownLastDonation) form.setValue('lastDonation', knownLastDonation);
  }, [form, knownLastDonation]);

  const eligibilityText = eligibleFrom
    ? (eligibilityMessage ?? MESSAGES.donateAgainFrom(formatDate(eligibleFrom)))
    : undefined;
  /** A date before the first day the donor may donate (the interval, or a deferral). */
  const isTooEarly = (date: string | undefined) => !!eligibleFrom && !!date && date < eligibleFrom;
  const chosenDate = useWatch({ control: form.control, name: 'date' });
  const dateTooEarly = isTooEarly(chosenDate);
  // A whole date outside the booking window is said as it is typed, as the submit would say it.
  const lastBookableDay = addDays(today, BOOKING_DAYS_AHEAD);
  const dateOutsideWindow =
    !chosenDate || !/^\d{4}-\d{2}-\d{2}$/.test(chosenDate)
      ? undefined
      : chosenDate < today
        ? 'Date cannot be in the past'
        : chosenDate > lastBookableDay
          ? `Please choose a date within the next ${BOOKING_DAYS_AHEAD} days`
          : undefined;

  // A donation the donor declares (perhaps at another bank) the server cannot check: staff ask at
  // collection (record-collection-dialog.tsx). Said here first, so the donor can choose a later day.
  const declaredLastDonation = useWatch({ control: form.control, name: 'lastDonation' });
  const declaredIntervalEnds =
    !knownLastDonation &&
    declaredLastDonation &&
    isValidIsoDate(declaredLastDonation) &&
    declaredLastDonation <= today
      ? addDays(declaredLastDonation, DONATION_INTERVAL_DAYS)
      : null;
  const tooSoonAfterDeclared =
    declaredIntervalEnds !== null &&
    !!chosenDate &&
    isValidIsoDate(chosenDate) &&
    chosenDate < declaredIntervalEnds;

  const submit = form.handleSubmit((values) => {
    if (isTooEarly(values.date)) {
      form.setError('date', { type: 'eligibility', message: eligibilityText }, { shouldFocus: true });
      return;
    }
    setRewardsOpen(true);
    const { site_id: siteId, slot, ...byDate } = values;
    submission.mutate(atSites ? { ...byDate, site_id: siteId, slot } : byDate, {
      onSuccess: () => {
        draft.clear();
        reward.mutate(undefined, {
          // Spec section 8: a failed reward is only logged; the donation itself went through.
          onError: (error) =>
            console.warn('The Blood Hero reward for this donation could not be claimed.', error),
        });
      },
      onError: (error) => {
        if (isSlotFull(error)) {
          showSlotTaken(error, { clearSlot, setSlotError }, queryClient);
          return;
        }
        applyServerFieldErrors(form, error, FIELDS);
      },
    });
  }, focusFirstInvalidField);

  const startAgain = () => {
    submission.reset();
    reward.reset();
    form.reset({ ...DEFAULT_VALUES, lastDonation: knownLastDonation ?? '', site_id: onlySiteId });
    setStartedAgain(true);
  };

  if (submission.isSuccess) {
    const booked = submission.data;
    return (
      <Stack gap="lg">
        <Paper withBorder radius="lg" p="lg">
          <Stack gap="md">
            <Alert
              color="teal"
              variant="light"
              icon={<IconCircleCheck aria-hidden />}
              role="status"
              title={<BookedHeading />}
              styles={alertTitleStyles('teal')}
            >
              Your donation request for {formatDate(booked.date)} ({booked.unit}{' '}
              {booked.unit === 1 ? 'unit' : 'units'}) has been submitted successfully.{' '}
              {booked.appointment
                ? `Come to ${booked.appointment.site_name} at ${booked.appointment.time}: staff record your donation there.`
                : 'Come to the blood bank on that day: staff record your donation there.'}{' '}
              {MESSAGES.pointsAtCollection}.
            </Alert>
            {booked.appointment ? (
              <AppointmentSummary date={booked.date} appointment={booked.appointment} />
            ) : null}
            <Group gap="sm">
              <Button component={Link} to={paths.donor.dashboard}>
                Back to Dashboard
              </Button>
              <AddToCalendarButton donationId={booked.id} />
              <Button variant="default" onClick={startAgain}>
                Make Another Donation
              </Button>
            </Group>
          </Stack>
        </Paper>
        {reward.isPending ? <PageLoader label="Collecting your Blood Hero reward" /> : null}
        {reward.data && rewardsOpen ? (
          <RewardsPanel
            reward={reward.data}
            onClose={() => setRewardsOpen(false)}
            onViewGame={() => {
              const state: GameLocationState = { newAchievements: reward.data.achievements };
              void navigate(paths.donor.game, { state });
            }}
          />
        ) : null}
      </Stack>
    );
  }

  if (summary.isPending || history.isPending || sites.isPending) {
    return <PageLoader label="Checking when you can donate" />;
  }

  if (permanentlyDeferred) {
    return (
      <NotNowNotice title="Not at this time" startedAgain={startedAgain}>
        {MESSAGES.deferredPermanently}
      </NotNowNotice>
    );
  }

  if (hasPending) {
    return (
      <NotNowNotice title="Not yet" startedAgain={startedAgain}>
        {eligibilityMessage ?? MESSAGES.pendingDonationExists} You can book your next donation once that one
        is collected or cancelled.
      </NotNowNotice>
    );
  }

  // A deferral that ends beyond the booking window: no date the form may offer is allowed yet.
  const bookableFrom = eligibleFrom ? addDays(eligibleFrom, -BOOKING_DAYS_AHEAD) : null;
  if (eligibleFrom && bookableFrom && bookableFrom > today) {
    return (
      <NotNowNotice title="Not yet" startedAgain={startedAgain}>
        {eligibilityText} Donations are booked up to {BOOKING_DAYS_AHEAD} days ahead, so you can book this one
        from {formatDate(bookableFrom)}.
      </NotNowNotice>
    );
  }

  // Without the sites the form cannot tell a booking at a site from one by date alone, and the
  // server would refuse the second with a site field nowhere on screen: nothing is offered until
  // they load (asked again by itself every few seconds, and at Retry).
  if (sites.isError && sites.data === undefined) {
    return (
      <LoadError
        message="The donation sites could not be loaded, so no time can be booked yet. This page tries again by itself."
        onRetry={() => void sites.refetch()}
        retrying={sites.isFetching}
      />
    );
  }

  const busy = submission.isPending;
  const dateInput = (
    <TextInput
      label="Donation Date"
      type="date"
      min={eligibleFrom && eligibleFrom > today ? eligibleFrom : today}
      max={lastBookableDay}
      withAsterisk
      // A date the server would refuse is said at once, not only when the form is sent.
      error={errors.date?.message ?? dateOutsideWindow ?? (dateTooEarly ? eligibilityText : undefined)}
      {...form.register('date')}
    />
  );
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
      <form
        noValidate
        aria-label="Donate Blood"
        onSubmit={(event) => {
          submission.reset();
          void submit(event);
        }}
      >
        <Stack gap="md">
          <DraftNotice
            draft={draft}
            onStartOver={() =>
              form.reset({ ...DEFAULT_VALUES, lastDonation: knownLastDonation ?? '', site_id: onlySiteId })
            }
          />
          {eligibleFrom ? (
            <Alert color="yellow" variant="light" icon={<IconCalendarEvent aria-hidden />} role="status">
              {eligibilityMessage ?? MESSAGES.donateAgainFrom(formatDate(eligibleFrom))} Please choose a
              donation date from {formatDate(eligibleFrom)} onwards.
            </Alert>
          ) : null}

          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label="Blood Group"
              value={auth.user?.bloodgroup ?? ''}
              placeholder="Not on file"
              description="From your account"
              readOnly
              variant="filled"
            />
            <TextInput
              label="Number of Units"
              type="number"
              inputMode="numeric"
              min={DONATION_UNITS.min}
              max={DONATION_UNITS.max}
              description={`${DONATION_UNITS.min} or ${DONATION_UNITS.max} units`}
              withAsterisk
              error={errors.unit?.message}
              {...form.register('unit')}
            />
            {atSites ? (
              <AppointmentFields
                sites={siteList}
                control={form.control as unknown as Control<AppointmentValues>}
                onSlotGone={clearSlot}
                siteError={errors.site_id?.message}
                slotError={errors.slot?.message}
                earliest={eligibleFrom}
              >
                {dateInput}
              </AppointmentFields>
            ) : (
              dateInput
            )}
            <NativeSelect
              label="Health Condition"
              description="Any disease you have now; choose None if you have none"
              data={HEALTH_OPTIONS}
              defaultValue=""
              withAsterisk
              error={errors.disease?.message}
              {...form.register('disease')}
            />
            {knownLastDonation ? (
              <TextInput
                label="Last Donation Date"
                type="date"
                description="From your donation history"
                readOnly
                variant="filled"
                {...form.register('lastDonation')}
              />
            ) : (
              <TextInput
                label="Last Donation Date"
                type="date"
                max={today}
                description="Optional"
                error={errors.lastDonation?.message}
                {...form.register('lastDonation')}
              />
            )}
          </SimpleGrid>

          {/* Mounted empty with the form: a status region inserted with its text already in it is often not read. */}
          <div role="status" data-testid="declared-interval-region">
            {tooSoonAfterDeclared && declaredLastDonation ? (
              <Alert
                color="yellow"
                variant="light"
                icon={<IconAlertTriangle aria-hidden />}
                role="note"
                data-testid="declared-interval"
              >
                <Text size="sm" c="dark.8">
                  You gave blood on {formatDate(declaredLastDonation)}. There must be at least{' '}
                  {DONATION_INTERVAL_DAYS} days between donations, so please choose a date from{' '}
                  {formatDate(declaredIntervalEnds)}. If you book earlier, the staff will ask you to come back
                  then.
                </Text>
              </Alert>
            ) : null}
          </div>

          <Controller
            control={form.control}
            name="confirmation"
            render={({ field }) => (
              <Checkbox
                ref={field.ref}
                name={field.name}
                checked={field.value === true}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
                onBlur={field.onBlur}
                label={ELIGIBILITY_STATEMENT}
                // Mantine's Checkbox neither marks itself invalid nor points at its error: done here.
                aria-invalid={Boolean(errors.confirmation)}
                aria-describedby={errors.confirmation ? confirmationErrorId : undefined}
                error={
                  errors.confirmation ? (
                    <span id={confirmationErrorId}>{errors.confirmation.message}</span>
                  ) : undefined
                }
              />
            )}
          />

          {/* Beside the button, where a phone shows it: at the top of the form it was screens above. */}
          {submission.isError && !isSlotFull(submission.error) ? (
            <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
              {errorMessage(submission.error, MESSAGES.donationSubmitFailed)}
            </Alert>
          ) : null}
          <OfflineNotice waiting={submission.isPaused} />
          <Button type="submit" size="md" disabled={busy} mt="xs">
            {busy ? 'Submitting...' : 'Submit Donation Request'}
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}

/** An alert's title as a heading of the page, which focus can be moved to. */
function AlertHeading({ ref, children }: { ref?: Ref<HTMLHeadingElement>; children: ReactNode }) {
  return (
    <Title
      order={2}
      ref={ref}
      tabIndex={-1}
      fz="inherit"
      lh="inherit"
      c="inherit"
      // Scrolled into view with the alert's and the card's top edges (their padding) above it.
      style={{ outline: 'none', scrollMarginTop: '2.5rem' }}
    >
      {children}
    </Title>
  );
}

/**
 * The booking was made: the form the donor sent is gone, and on a phone the page stays scrolled
 * down where its button was, above which the message now ends. Focus and the view go to it.
 */
function BookedHeading() {
  const heading = useFocusOnShow<HTMLHeadingElement>();
  return <AlertHeading ref={heading}>Thank you!</AlertHeading>;
}

/**
 * Why the donor cannot book now, in place of the form, with the way back. After Make Another
 * Donation (`startedAgain`) it replaces the success message the donor was scrolled down on, so focus
 * and the view go to it; on arrival at the page it is at the top already and focus stays put.
 */
function NotNowNotice({
  title,
  startedAgain = false,
  children,
}: {
  title: string;
  startedAgain?: boolean;
  children: ReactNode;
}) {
  const heading = useFocusOnShow<HTMLHeadingElement>(startedAgain);
  return (
    <Paper withBorder radius="lg" p="lg">
      <Stack gap="md">
        <Alert
          color="yellow"
          variant="light"
          icon={<IconCalendarEvent aria-hidden />}
          title={<AlertHeading ref={heading}>{title}</AlertHeading>}
          styles={alertTitleStyles('yellow')}
          role="status"
        >
          {children}
        </Alert>
        <Group>
          <Button component={Link} to={paths.donor.dashboard}>
            Back to Dashboard
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
