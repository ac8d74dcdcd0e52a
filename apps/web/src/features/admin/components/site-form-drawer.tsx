import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  Button,
  Divider,
  Drawer,
  Grid,
  Group,
  List,
  Pill,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch, type Path, type Resolver } from 'react-hook-form';
import { isValidIsoDate } from '@bloodbank/shared/dates';
import { useBankToday } from '@/lib/bank-today';
import {
  calendarsDiffer,
  SITE_DEFAULTS,
  SiteFormSchema,
  WEEKDAYS,
  type AffectedBooking,
  type OpeningHours,
  type Site,
  type SiteInput,
  type Weekday,
} from '@bloodbank/shared/sites';
import { ApiError, errorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { weekdayName } from '@/lib/site-hours';
import { useCreateSite } from '../api/create-site';
import { fetchAffectedBookings } from '../api/affected-bookings';
import { useUpdateSite } from '../api/update-site';
import { notify } from '../notify';
import { ConfirmDialog } from './confirm-dialog';
import { useDiscardGuard } from './discard-changes';

/** What the inputs hold: numbers as typed, a closed weekday as null. */
export interface SiteFormValues {
  name: string;
  address: string;
  hours: Record<Weekday, OpeningHours | null>;
  slot_minutes: string;
  capacity: string;
  closed_dates: string[];
  active: boolean;
}

/** A new site opens on weekdays, 08:00 to 16:00, until staff say otherwise. */
const NEW_DAY: OpeningHours = { open: '08:00', close: '16:00' };
const WEEKEND = new Set<Weekday>(['saturday', 'sunday']);

function initialValues(site: Site | null): SiteFormValues {
  if (site) {
    return {
      name: site.name,
      address: site.address,
      hours: { ...site.hours },
      slot_minutes: String(site.slot_minutes),
      capacity: String(site.capacity),
      closed_dates: [...site.closed_dates],
      active: site.active,
    };
  }
  return {
    name: '',
    address: '',
    hours: Object.fromEntries(
      WEEKDAYS.map((day) => [day, WEEKEND.has(day) ? null : { ...NEW_DAY }]),
    ) as Record<Weekday, OpeningHours | null>,
    slot_minutes: String(SITE_DEFAULTS.slot_minutes),
    capacity: String(SITE_DEFAULTS.capacity),
    closed_dates: [],
    active: true,
  };
}

/** Every field a message of the server (or the schema) can name, nested ones included, in the form's order. */
const FIELD_PATHS: readonly Path<SiteFormValues>[] = [
  'name',
  'address',
  'hours',
  ...WEEKDAYS.flatMap((day) => [`hours.${day}`, `hours.${day}.open`, `hours.${day}.close`] as const),
  'slot_minutes',
  'capacity',
  'closed_dates',
  'active',
];

interface SiteFormDrawerProps {
  /** Open with a new, empty form (`'new'`) or one site's (a Site); closed when null. */
  site: Site | 'new' | null;
  onClose: () => void;
}

/**
 * Add or edit a donation site (PRODUCT.md 3.6): name and address, each weekday's opening hours, slot
 * length, donors per slot, closed dates and whether donors can book there. Checked with the shared
 * SiteFormSchema; the server's messages land on their fields, nested ones (`hours.monday.close`) too.
 */
export function SiteFormDrawer({ site, onClose }: SiteFormDrawerProps) {
  const editing = site !== null && site !== 'new' ? site : null;
  // A week of hours is easy to lose to an Escape or a click beside the drawer.
  const guard = useDiscardGuard(onClose, editing ? editing.name : 'the new site');
  // Every open Mantine modal or drawer closes on Escape (each listens on the window): with a dialog
  // over the form, only that dialog closes.
  const [nestedOpen, setNestedOpen] = useState(false);
  return (
    <>
      <Drawer
        opened={site !== null}
        onClose={guard.requestClose}
        closeOnEscape={!guard.asking && !nestedOpen}
        position="right"
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close site form' }}
        title={editing ? `Edit ${editing.name}` : 'Add site'}
        styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
      >
        {site !== null ? (
          // Keyed: each opening starts from the site's saved values.
          <SiteForm
            key={editing ? editing.id : 'new'}
            site={editing}
            onClose={onClose}
            onDirtyChange={guard.onDirtyChange}
            onDialogChange={setNestedOpen}
          />
        ) : null}
      </Drawer>
      {guard.dialog}
    </>
  );
}

/** What saving did to bookings at times the site no longer keeps (decision 0017). */
const cancelledText = (count: number) =>
  count === 0
    ? ''
    : count === 1
      ? ' 1 booking at a time it is now closed was cancelled, and its donor told.'
      : ` ${count} bookings at times it is now closed were cancelled, and their donors told.`;

export function SiteForm({
  site,
  onClose,
  onDirtyChange,
  onDialogChange,
}: {
  site: Site | null;
  onClose: () => void;
  /** Told whenever the form gains or loses unsaved changes. */
  onDirtyChange?: (dirty: boolean) => void;
  /** Told when a dialog of the form opens over it or closes. */
  onDialogChange?: (open: boolean) => void;
}) {
  const form = useForm<SiteFormValues, unknown, SiteInput>({
    resolver: zodResolver(SiteFormSchema) as unknown as Resolver<SiteFormValues, unknown, SiteInput>,
    defaultValues: initialValues(site),
  });
  const { isDirty } = form.formState;
  useEffect(() => onDirtyChange?.(isDirty), [isDirty, onDirtyChange]);
  const create = useCreateSite();
  const update = useUpdateSite();
  const [failure, setFailure] = useState<string | null>(null);
  // Bookings that the calendar being saved would cancel, shown for staff to confirm first.
  const [toConfirm, setToConfirm] = useState<{ values: SiteInput; bookings: AffectedBooking[] } | null>(null);
  const [checking, setChecking] = useState(false);
  const confirming = toConfirm !== null;
  useEffect(() => onDialogChange?.(confirming), [confirming, onDialogChange]);
  const busy = create.isPending || update.isPending || checking;
  const { errors } = form.formState;

  const save = async (values: SiteInput) => {
    setFailure(null);
    try {
      if (site) {
        const saved = await update.mutateAsync({ id: site.id, changes: values });
        notify({
          title: 'Changes saved',
          message: `${saved.name} was updated.${cancelledText(saved.cancelled_bookings)}`,
        });
      } else {
        const saved = await create.mutateAsync(values);
        notify({
          title: 'Site added',
          message: `Donors can ${saved.active ? 'now' : 'once it is active'} book at ${saved.name}.`,
        });
      }
      onClose();
    } catch (error) {
      if (!placeServerErrors(form, error)) {
        setFailure(errorMessage(error, 'The site could not be saved. Please try again.'));
      }
    }
  };

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    // New hours or closed dates cancel the bookings at times the site will not keep (decision
    // 0017): which ones is asked first, so staff see the donors before they are told.
    if (site && calendarsDiffer(site, values)) {
      setChecking(true);
      try {
        const { bookings } = await fetchAffectedBookings(site.id, {
          hours: values.hours,
          closed_dates: values.closed_dates,
        });
        if (bookings.length > 0) {
          setToConfirm({ values, bookings });
          return;
        }
      } catch (error) {
        setFailure(
          errorMessage(error, 'The bookings this change affects could not be checked. Please try again.'),
        );
        return;
      } finally {
        setChecking(false);
      }
    }
    await save(values);
  });

  return (
    <form noValidate aria-label={site ? 'Edit site' : 'Add site'} onSubmit={(event) => void submit(event)}>
      <Stack gap="md">
        {failure ? (
          <Alert color="red" variant="light" role="alert">
            {failure}
          </Alert>
        ) : null}
        <TextInput
          label="Site name"
          withAsterisk
          autoComplete="off"
          data-autofocus
          error={errors.name?.message}
          {...form.register('name')}
        />
        <Textarea
          label="Address"
          withAsterisk
          autosize
          minRows={2}
          autoComplete="off"
          error={errors.address?.message}
          {...form.register('address')}
        />

        <Divider />
        <OpeningHoursFields form={form} />

        <Divider />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput
            label="Slot length (minutes)"
            type="number"
            inputMode="numeric"
            min={5}
            description={`Default ${SITE_DEFAULTS.slot_minutes}`}
            withAsterisk
            error={errors.slot_minutes?.message}
            {...form.register('slot_minutes')}
          />
          <TextInput
            label="Donors per slot"
            type="number"
            inputMode="numeric"
            min={1}
            description={`Default ${SITE_DEFAULTS.capacity}`}
            withAsterisk
            error={errors.capacity?.message}
            {...form.register('capacity')}
          />
        </SimpleGrid>

        <Divider />
        <ClosedDatesField form={form} editing={site !== null} />

        <Divider />
        <Controller
          control={form.control}
          name="active"
          render={({ field }) => (
            <Switch
              ref={field.ref}
              name={field.name}
              checked={field.value}
              onChange={(event) => field.onChange(event.currentTarget.checked)}
              onBlur={field.onBlur}
              label="Active"
              description="Donors can book at an active site. Bookings already made stay when you deactivate it."
            />
          )}
        />

        <Group justify="flex-end" gap="sm" mt="sm">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Saving...' : site ? 'Save changes' : 'Add site'}
          </Button>
        </Group>
      </Stack>
      {site && toConfirm ? (
        <ConfirmDialog
          opened
          title={`Cancel ${countOf(toConfirm.bookings.length, 'booking')}?`}
          confirmLabel={`Save and cancel ${countOf(toConfirm.bookings.length, 'booking')}`}
          cancelLabel="Go back"
          busyLabel="Saving..."
          busy={update.isPending}
          onConfirm={() => {
            const { values } = toConfirm;
            void save(values).finally(() => setToConfirm(null));
          }}
          onClose={() => setToConfirm(null)}
        >
          <AffectedBookingsList siteName={site.name} bookings={toConfirm.bookings} />
        </ConfirmDialog>
      ) : null}
    </form>
  );
}

const countOf = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** The most bookings listed by name; a long closure says how many more. */
const LISTED_BOOKINGS = 8;

function AffectedBookingsList({ siteName, bookings }: { siteName: string; bookings: AffectedBooking[] }) {
  const more = bookings.length - LISTED_BOOKINGS;
  return (
    <Stack gap="xs">
      <Text size="sm">
        {`With these hours and closed dates ${siteName} is closed at times donors have booked. Saving cancels ${
          bookings.length === 1 ? 'this booking, and its donor is' : 'these bookings, and each donor is'
        } told by e-mail and in the app:`}
      </Text>
      <List size="sm" spacing={4} aria-label="Bookings that saving cancels">
        {bookings.slice(0, LISTED_BOOKINGS).map((booking) => (
          <List.Item key={booking.id}>
            {`${formatDate(booking.date)}, ${booking.slot} · ${booking.donor_name}`}
          </List.Item>
        ))}
      </List>
      {more > 0 ? <Text size="sm">{`and ${countOf(more, 'more booking')}.`}</Text> : null}
    </Stack>
  );
}

type SiteFormApi = ReturnType<typeof useForm<SiteFormValues, unknown, SiteInput>>;

/**
 * Puts the server's `errors` on their fields (`closed_dates.3` on the closed dates); true when every
 * message found a field, so nothing needs saying above the form.
 */
function placeServerErrors(form: SiteFormApi, error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  const entries = Object.entries(error.errors);
  if (entries.length === 0) return false;
  const placed = entries
    .map(([key, message]) => ({
      name: key.startsWith('closed_dates') ? 'closed_dates' : FIELD_PATHS.find((path) => path === key),
      message,
    }))
    .filter((entry): entry is { name: Path<SiteFormValues>; message: string } => entry.name !== undefined)
    // The first field of the form with a message takes the focus, whatever order the server wrote them in.
    .sort((a, b) => FIELD_PATHS.indexOf(a.name) - FIELD_PATHS.indexOf(b.name));
  placed.forEach(({ name, message }, index) =>
    form.setError(name, { type: 'server', message }, { shouldFocus: index === 0 }),
  );
  return placed.length === entries.length;
}

function OpeningHoursFields({ form }: { form: SiteFormApi }) {
  const hours = useWatch({ control: form.control, name: 'hours' });
  // A day switched off and on again gets back the times it had.
  const remembered = useRef<Partial<Record<Weekday, OpeningHours>>>({});
  const { errors } = form.formState;
  const weekError = errors.hours?.message ?? errors.hours?.root?.message;

  return (
    <fieldset style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
      <Title order={3} size="h5" component="legend" mb={4} p={0}>
        Opening hours
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Switch on the days the site opens. Slots start at the opening time and end by the closing time.
      </Text>
      <Stack gap={0}>
        {WEEKDAYS.map((day, index) => {
          const today = hours[day];
          const dayErrors = errors.hours?.[day];
          return (
            <Grid
              key={day}
              gutter="xs"
              align="flex-start"
              py="xs"
              // A line between the days: on a phone each day takes two rows.
              style={index > 0 ? { borderTop: '1px solid var(--mantine-color-gray-2)' } : undefined}
              data-testid={`hours-${day}`}
            >
              <Grid.Col span={{ base: 12, sm: 4 }} pt={{ base: 0, sm: 30 }}>
                <Switch
                  label={weekdayName(day)}
                  checked={today !== null}
                  onChange={(event) => {
                    if (event.currentTarget.checked) {
                      form.setValue(`hours.${day}`, remembered.current[day] ?? { ...NEW_DAY }, {
                        shouldDirty: true,
                      });
                    } else {
                      if (today) remembered.current[day] = today;
                      form.setValue(`hours.${day}`, null, { shouldDirty: true });
                    }
                    form.clearErrors(['hours', `hours.${day}`]);
                  }}
                  error={dayErrors?.message}
                />
              </Grid.Col>
              {today ? (
                <>
                  <Grid.Col span={{ base: 6, sm: 4 }}>
                    <TimeField form={form} name={`hours.${day}.open`} label="Opens" day={day} />
                  </Grid.Col>
                  <Grid.Col span={{ base: 6, sm: 4 }}>
                    <TimeField form={form} name={`hours.${day}.close`} label="Closes" day={day} />
                  </Grid.Col>
                </>
              ) : (
                <Grid.Col span={{ base: 12, sm: 8 }} pt={{ base: 0, sm: 30 }}>
                  <Text size="sm" c="dimmed">
                    Closed
                  </Text>
                </Grid.Col>
              )}
            </Grid>
          );
        })}
      </Stack>
      {weekError ? (
        <Text size="sm" c="red.9" mt="xs" role="alert">
          {weekError}
        </Text>
      ) : null}
    </fieldset>
  );
}

function TimeField({
  form,
  name,
  label,
  day,
}: {
  form: SiteFormApi;
  name: `hours.${Weekday}.open` | `hours.${Weekday}.close`;
  label: string;
  day: Weekday;
}) {
  const which = name.endsWith('open') ? 'open' : 'close';
  const message = form.formState.errors.hours?.[day]?.[which]?.message;
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <TextInput
          ref={field.ref}
          name={field.name}
          type="time"
          // "Monday opens": the day is read out, the column shows only "Opens".
          label={
            <>
              <VisuallyHidden>{weekdayName(day)} </VisuallyHidden>
              {label}
            </>
          }
          size="sm"
          value={field.value ?? ''}
          onChange={(event) => field.onChange(event.currentTarget.value)}
          onBlur={field.onBlur}
          error={message}
        />
      )}
    />
  );
}

/** `editing`: the site exists, so saving may cancel bookings at times it closes. */
function ClosedDatesField({ form, editing }: { form: SiteFormApi; editing: boolean }) {
  const [draft, setDraft] = useState('');
  const [draftError, setDraftError] = useState<string | null>(null);
  // What the last add or remove did, for a screen reader: the list changes out of its sight.
  const [done, setDone] = useState('');
  const dateInput = useRef<HTMLInputElement>(null);
  const pills = useRef<HTMLDivElement>(null);
  const today = useBankToday();
  const { errors } = form.formState;
  const listError =
    errors.closed_dates?.message ??
    (Array.isArray(errors.closed_dates)
      ? (errors.closed_dates as ({ message?: string } | undefined)[]).find(Boolean)?.message
      : undefined);

  return (
    <Controller
      control={form.control}
      name="closed_dates"
      render={({ field }) => {
        // A refused date: the keyboard goes to the field, where the message is read with it.
        const refuse = (message: string) => {
          setDraftError(message);
          setDone('');
          dateInput.current?.focus();
        };
        const add = () => {
          if (!isValidIsoDate(draft)) {
            // The date picker shows the browser's own format: no format is named here. An
            // incomplete date reaches us empty.
            refuse(draft === '' ? 'Please choose the date to add' : 'Please enter a valid date');
            return;
          }
          // A day gone by has no bookings to keep away; adding one is a slip of the date picker.
          if (draft < today) {
            refuse('This day has passed: choose today or a day to come');
            return;
          }
          setDraftError(null);
          if (!field.value.includes(draft)) field.onChange([...field.value, draft].sort());
          form.clearErrors('closed_dates');
          setDone(`${formatDate(draft)} added to the closed dates.`);
          setDraft('');
        };
        // The removed date's button goes with it: the keyboard goes on to the next date's (else the
        // previous one's, else the date field).
        const remove = (date: string) => {
          const index = field.value.indexOf(date);
          const rest = field.value.filter((other) => other !== date);
          field.onChange(rest);
          setDone(`${formatDate(date)} removed from the closed dates.`);
          const next = rest[index] ?? rest[index - 1];
          requestAnimationFrame(() => {
            const button = next
              ? pills.current?.querySelector<HTMLElement>(`[aria-label="Remove ${formatDate(next)}"]`)
              : null;
            (button ?? dateInput.current)?.focus();
          });
        };
        return (
          <Stack gap="xs">
            <div>
              <Title order={3} size="h5">
                Closed dates
              </Title>
              <Text size="sm" c="dimmed">
                Days the site stays shut although its weekday is open (public holidays).
              </Text>
              {editing ? (
                <Text size="sm" c="dimmed">
                  Bookings on a closed date, or at hours the site no longer keeps, are cancelled when you
                  save, and their donors are told.
                </Text>
              ) : null}
            </div>
            <Group align="flex-start" gap="xs" wrap="nowrap">
              <TextInput
                ref={dateInput}
                label="Closed date"
                type="date"
                min={today}
                value={draft}
                onChange={(event) => {
                  setDraft(event.currentTarget.value);
                  setDraftError(null);
                }}
                onKeyDown={(event) => {
                  // Enter adds the date rather than submitting the whole form.
                  if (event.key === 'Enter') {
                    event.preventDefault();
                    add();
                  }
                }}
                error={draftError ?? listError}
                style={{ flex: '1 1 auto', minWidth: 0 }}
              />
              <Button variant="default" onClick={add} mt={25} style={{ flexShrink: 0 }}>
                Add date
              </Button>
            </Group>
            {field.value.length === 0 ? (
              <Text size="sm" c="dimmed">
                No closed dates.
              </Text>
            ) : (
              <Pill.Group aria-label="Closed dates" role="list" ref={pills}>
                {field.value.map((date) => (
                  <Pill
                    key={date}
                    role="listitem"
                    size="md"
                    withRemoveButton
                    onRemove={() => remove(date)}
                    // Mantine hides the remove button from the keyboard (made for PillsInput's Backspace).
                    removeButtonProps={{
                      'aria-label': `Remove ${formatDate(date)}`,
                      'aria-hidden': false,
                      tabIndex: 0,
                    }}
                  >
                    {formatDate(date)}
                  </Pill>
                ))}
              </Pill.Group>
            )}
            <VisuallyHidden role="status" aria-live="polite">
              {done}
            </VisuallyHidden>
          </Stack>
        );
      }}
    />
  );
}
