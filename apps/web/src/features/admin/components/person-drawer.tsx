import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Anchor, Button, Divider, Drawer, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import type { AdminDonor, AdminPatient } from '@bloodbank/shared/admin';
import { DonorDetailsSchema, PatientDetailsSchema } from '@bloodbank/shared/auth';
import { ApiError, errorMessage } from '@/lib/api-client';
import { applyServerFieldErrors, fieldBinder } from '@/lib/form-errors';
import type { PersonKind } from '../api/get-people';
import { useUpdatePerson } from '../api/update-person';
import { formatCount, formatDate, formatDateTime, fullName } from '@/lib/format';
import { paths } from '@/app/paths';
import { isPlainClick } from '@/lib/use-scroll-to-hash';
import { useDiscardGuard } from './discard-changes';
import { DonorDeferrals } from './donor-deferrals';
import { DONOR_FIELDS, PATIENT_FIELDS, PatientMedicalFields, PersonDetailsFields } from './person-fields';
import { StatusBadge } from './status-badge';
import { DANGER } from '../tones';
import { notify } from '../notify';

type FormInput = z.input<typeof PatientDetailsSchema>;
type FormOutput = z.output<typeof PatientDetailsSchema>;
type Person = AdminDonor | AdminPatient;

const isPatient = (person: Person): person is AdminPatient => 'doctorname' in person;

interface PersonDrawerProps {
  kind: PersonKind;
  person: Person | null;
  onClose: () => void;
  onDeactivate: (person: Person) => void;
  /** A dialog of the screen is open over the details (the deactivation's confirmation). */
  covered?: boolean;
}

/** View and edit one donor or patient, with the registration form's rules (DonorDetailsSchema / PatientDetailsSchema). */
export function PersonDrawer({ kind, person, onClose, onDeactivate, covered = false }: PersonDrawerProps) {
  const noun = kind === 'donors' ? 'donor' : 'patient';
  // Every open Mantine modal or drawer closes on Escape (each listens on the window): with a dialog
  // over the details, one Escape would close both and lose the unsaved edits. Only the top one closes.
  const [nestedOpen, setNestedOpen] = useState(false);
  const guard = useDiscardGuard(onClose, person ? `${fullName(person)}'s details` : `this ${noun}'s details`);
  const navigate = useNavigate();
  return (
    <>
      <Drawer
        opened={person !== null}
        onClose={guard.requestClose}
        closeOnEscape={!covered && !nestedOpen && !guard.asking}
        position="right"
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close details' }}
        title={person ? `${fullName(person)} (${noun})` : ''}
        styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
      >
        {person ? (
          // Keyed by id: opening another person starts a fresh form.
          <PersonDetails
            key={person.id}
            kind={kind}
            person={person}
            onClose={onClose}
            onDeactivate={onDeactivate}
            onDialogChange={setNestedOpen}
            onDirtyChange={guard.onDirtyChange}
            onLeaveTo={(to) => guard.requestLeave(() => void navigate(to))}
          />
        ) : null}
      </Drawer>
      {guard.dialog}
    </>
  );
}

function PersonDetails({
  kind,
  person,
  onClose,
  onDeactivate,
  onDialogChange,
  onDirtyChange,
  onLeaveTo,
}: Omit<PersonDrawerProps, 'covered'> & {
  person: Person;
  onDialogChange: (open: boolean) => void;
  /** Told whenever the form gains or loses unsaved changes. */
  onDirtyChange: (dirty: boolean) => void;
  /** Follows a link out of the details, asking first when there are unsaved changes. */
  onLeaveTo: (to: string) => void;
}) {
  const noun = kind === 'donors' ? 'donor' : 'patient';
  const fields = kind === 'patients' ? PATIENT_FIELDS : DONOR_FIELDS;
  const schema = kind === 'patients' ? PatientDetailsSchema : DonorDetailsSchema;
  const form = useForm<FormInput, unknown, FormOutput>({
    // The donor schema has no medical fields; it checks (and returns) the donor's own fields only.
    resolver: zodResolver(schema) as unknown as Resolver<FormInput, unknown, FormOutput>,
    defaultValues: {
      first_name: person.first_name,
      last_name: person.last_name,
      email: person.email,
      mobile: person.mobile,
      bloodgroup: person.bloodgroup,
      address: person.address,
      ...(isPatient(person)
        ? {
            age: String(person.age),
            disease: person.disease as FormInput['disease'],
            doctorname: person.doctorname,
          }
        : {}),
    },
  });
  const field = fieldBinder(form);
  const update = useUpdatePerson(kind);
  const { isDirty } = form.formState;
  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);

  const submit = form.handleSubmit((values) => {
    const dirty = Object.keys(form.formState.dirtyFields) as (keyof FormOutput)[];
    const changes = Object.fromEntries(
      dirty.filter((name) => name in values).map((name) => [name, values[name]]),
    );
    update.mutate(
      { id: person.id, changes: changes as never },
      {
        onSuccess: (saved) => {
          notify({ title: 'Changes saved', message: `${fullName(saved)}'s details were updated.` });
          onClose();
        },
        onError: (error) => applyServerFieldErrors(form, error, fields),
      },
    );
  });

  const busy = update.isPending;
  // Field messages sit on their fields; anything else (not found, network) is said above the form.
  const onFields =
    update.error instanceof ApiError &&
    Object.keys(update.error.errors).some((name) => (fields as readonly string[]).includes(name));
  // With the way to the list itself: Manage Donations or Manage Requests, narrowed to this person.
  const count = isPatient(person)
    ? {
        label: 'Requests',
        value: person.requests,
        link: `${paths.admin.requests}?patient=${person.id}`,
        what: 'requests',
      }
    : {
        label: 'Donations given',
        value: person.donations,
        link: `${paths.admin.donations}?donor=${person.id}#history`,
        what: 'donations',
      };

  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        <Fact label="Username" value={person.username} />
        <Fact label="Status" value={<StatusBadge status={person.is_active ? 'active' : 'deactivated'} />} />
        <Fact label="Registered" value={formatDate(person.created_at)} />
        <Fact
          label={count.label}
          value={
            <Stack gap={0} align="flex-start">
              <Text size="sm">{formatCount(count.value)}</Text>
              <Anchor
                component={Link}
                to={count.link}
                size="sm"
                underline="always"
                onClick={(event) => {
                  // A new tab or window loses nothing: left to the browser.
                  if (!isPlainClick(event)) return;
                  event.preventDefault();
                  onLeaveTo(count.link);
                }}
              >
                View {count.what}
              </Anchor>
            </Stack>
          }
        />
      </SimpleGrid>
      {!person.is_active ? (
        <Alert color="gray" variant="light" title={`This ${noun} is deactivated`}>
          Deactivated on {formatDateTime(person.deactivated_at)}. They cannot sign in; their history stays.
        </Alert>
      ) : null}

      <form
        noValidate
        aria-label={`Edit ${noun}`}
        onSubmit={(event) => {
          update.reset();
          void submit(event);
        }}
      >
        <Stack gap="sm">
          {update.isError && !onFields ? (
            <Alert color="red" variant="light" role="alert">
              {errorMessage(update.error, 'The changes could not be saved. Please try again.')}
            </Alert>
          ) : null}
          <PersonDetailsFields field={field} />
          {kind === 'patients' ? <PatientMedicalFields field={field} /> : null}
          <Group justify="flex-end" gap="sm" mt="sm">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy || !form.formState.isDirty}>
              {busy ? 'Saving...' : 'Save changes'}
            </Button>
          </Group>
        </Stack>
      </form>

      {kind === 'donors' ? (
        <>
          <Divider />
          <DonorDeferrals donorId={person.id} donorName={fullName(person)} onDialogChange={onDialogChange} />
        </>
      ) : null}

      {person.is_active ? (
        <>
          <Divider />
          <Group justify="space-between" gap="sm" wrap="wrap">
            <Text size="sm" c="dimmed" style={{ flex: '1 1 220px' }}>
              A deactivated {noun} cannot sign in. Their {kind === 'donors' ? 'donations' : 'requests'} stay
              in the history.
            </Text>
            <Button color={DANGER} variant="outline" onClick={() => onDeactivate(person)}>
              Deactivate {noun}
            </Button>
          </Group>
        </>
      ) : null}
    </Stack>
  );
}

function Fact({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      {typeof value === 'string' ? (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {value}
        </Text>
      ) : (
        value
      )}
    </Stack>
  );
}
