import { Button, Card, Container, Group, Loader, Stack, Switch, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconCircleCheck, IconKey, IconPencil } from '@tabler/icons-react';
import type { CurrentUser } from '@bloodbank/shared/auth';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { CALLOUT_QUIET_DAYS, type Preferences } from '@bloodbank/shared/notifications';
import { ErrorAlert, SaveErrorAlert } from '@/components/ui/error-alert';
import { PageHeader } from '@/components/ui/page-header';
import { PageLoader } from '@/components/ui/page-loader';
import { errorMessage } from '@/lib/api-client';
import { useAuth } from '@/lib/auth/auth-context';
import { usePreferences } from '../api/get-preferences';
import { useUpdatePreferences } from '../api/update-preferences';
import { hasDraft } from '@/lib/form-draft';
import { MY_DETAILS_DRAFT, MyDetailsForm } from '../components/my-details-form';
import { PasswordChangeForm } from '../components/password-change-form';

const LABELS: Record<keyof Preferences, string> = {
  email_notifications: 'E-mail me these notifications',
  callouts: 'Tell me when my blood group is needed (call-outs)',
};

/** What the switch just saved means, in words. */
function savedText(field: keyof Preferences, on: boolean): string {
  if (field === 'email_notifications') {
    return on
      ? 'Saved. You will get these messages by e-mail too.'
      : 'Saved. You will no longer get e-mails; the bell keeps every message.';
  }
  return on
    ? 'Saved. We will tell you when your blood group is needed.'
    : 'Saved. You will no longer get call-outs.';
}

/**
 * A signed-in user's profile: who they are and their password; for donors and patients, whether
 * they get e-mails and (donors) call-outs. Each switch saves on its own (PRODUCT.md 3.8).
 */
export function PreferencesScreen() {
  useDocumentTitle('Your profile · Blood Bank');
  const auth = useAuth();
  const preferences = usePreferences({ enabled: auth.status === 'signed-in' && auth.role !== 'ADMIN' });
  const update = useUpdatePreferences();
  const [saved, setSaved] = useState<keyof Preferences | null>(null);
  const user = auth.status === 'signed-in' ? auth.user : null;
  const isDonor = auth.status === 'signed-in' && auth.role === 'DONOR';
  // Staff have no e-mail choices (PRODUCT.md 3.8): their profile is the account and its password.
  const isAdmin = auth.status === 'signed-in' && auth.role === 'ADMIN';

  const change = (field: keyof Preferences, value: boolean) => {
    setSaved(null);
    update.mutate({ [field]: value }, { onSuccess: () => setSaved(field) });
  };

  let settings;
  if (preferences.isPending) {
    settings = <PageLoader label="Loading your choices" />;
  } else if (preferences.isError) {
    settings = (
      <ErrorAlert
        message={errorMessage(preferences.error, 'Your choices could not be loaded. Please try again.')}
        onRetry={() => void preferences.refetch()}
        retrying={preferences.isFetching}
      />
    );
  } else {
    const fields: (keyof Preferences)[] = isDonor
      ? ['email_notifications', 'callouts']
      : ['email_notifications'];
    settings = (
      <Stack gap="lg">
        {fields.map((field) => (
          <Switch
            key={field}
            size="md"
            label={LABELS[field]}
            description={
              field === 'email_notifications'
                ? `The messages of the bell in the header also go to ${user?.email ?? 'your e-mail address'}.`
                : `When the blood bank runs short of blood you can give, we tell you, at most once in ${CALLOUT_QUIET_DAYS} days.`
            }
            checked={preferences.data[field]}
            // Not disabled while saving: that would drop the focus of the switch just pressed.
            // It says it is busy and ignores presses until the answer comes.
            onChange={(event) => {
              if (!update.isPending) change(field, event.currentTarget.checked);
            }}
            aria-disabled={update.isPending || undefined}
            // A long e-mail address in the description breaks where it must instead of running off a phone's screen.
            styles={{ labelWrapper: { minWidth: 0 }, description: { overflowWrap: 'anywhere' } }}
          />
        ))}
        <div aria-live="polite">
          {update.isPending ? (
            <Group gap="xs">
              <Loader size="xs" />
              <Text size="sm">Saving…</Text>
            </Group>
          ) : saved && !update.isError ? (
            <Group gap={6} c="teal.9" wrap="nowrap" align="flex-start">
              <IconCircleCheck size={18} aria-hidden style={{ flex: 'none', marginTop: 2 }} />
              <Text size="sm" inherit>
                {savedText(saved, preferences.data[saved])}
              </Text>
            </Group>
          ) : null}
        </div>
        {update.isError ? (
          <SaveErrorAlert
            message={errorMessage(update.error, 'Your choice could not be saved. Please try again.')}
          />
        ) : null}
      </Stack>
    );
  }

  return (
    <Container size="sm" py="xl">
      <PageHeader
        title="Your profile"
        description={
          isAdmin ? 'Your staff account.' : 'Your account and how the blood bank keeps you informed.'
        }
      />
      <Stack gap="lg">
        {user ? <AccountCard user={user} /> : null}
        <PasswordCard />
        {auth.status !== 'signed-in' || isAdmin ? null : (
          <Card withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
            <Title order={2} size="h4" mb="xs">
              Notifications
            </Title>
            <Text size="sm" c="dimmed" mb="md">
              You always find your messages under the bell in the header.
            </Text>
            {settings}
          </Card>
        )}
      </Stack>
    </Container>
  );
}

/** Who the user is; a donor or patient can correct their contact details here. */
function AccountCard({ user }: { user: CurrentUser }) {
  return (
    <EditableCard
      title="Account"
      // The blood bank's staff accounts are made by the CLI: nothing to correct here.
      open={
        user.userType === 'admin'
          ? null
          : { label: 'Edit Details', icon: <IconPencil size={14} aria-hidden /> }
      }
      form={(onDone) => <MyDetailsForm user={user} onDone={onDone} />}
      // Back after a session ended mid-edit: the form is open again with what was typed.
      startOpen={user.userType !== 'admin' && hasDraft(MY_DETAILS_DRAFT, user.userId)}
      savedMessage="Saved. The blood bank uses your new details from now on."
    >
      <Stack gap={6}>
        <Detail
          label="Name"
          value={`${user.first_name ?? ''} ${user.last_name ?? ''}`.trim() || user.username}
        />
        <Detail label="Username" value={user.username} />
        {user.email ? <Detail label="E-mail" value={user.email} /> : null}
        {user.mobile ? <Detail label="Mobile" value={user.mobile} /> : null}
        {user.address ? <Detail label="Address" value={user.address} /> : null}
        {user.bloodgroup ? <Detail label="Blood group" value={user.bloodgroup} /> : null}
      </Stack>
    </EditableCard>
  );
}

/** The password: changed here with the current one; every other device is signed out. */
function PasswordCard() {
  return (
    <EditableCard
      title="Password"
      open={{ label: 'Change Password', icon: <IconKey size={14} aria-hidden /> }}
      form={(onDone) => <PasswordChangeForm onDone={onDone} />}
      savedMessage="Saved. Your password is changed, and every other device was signed out."
    >
      <Text size="sm" c="dimmed">
        Changing your password signs you out on every other device.
      </Text>
    </EditableCard>
  );
}

/**
 * A card that shows something and, behind its button, the form that changes it; after a save, a
 * message in words. Back from the form, the keyboard's place is the button that opened it.
 */
function EditableCard({
  title,
  open,
  form,
  savedMessage,
  startOpen = false,
  children,
}: {
  title: string;
  /** The form is open from the start. */
  startOpen?: boolean;
  /** The button that opens the form; null when there is nothing to change. */
  open: { label: string; icon: ReactNode } | null;
  /** The form; it calls `onDone(saved)` after a save (whether anything changed) or Cancel. */
  form: (onDone: (saved: boolean) => void) => ReactNode;
  savedMessage: string;
  children: ReactNode;
}) {
  const [editing, setEditing] = useState(startOpen);
  const [saved, setSaved] = useState(false);
  const openButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  useEffect(() => {
    if (wasEditing.current && !editing) openButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);
  return (
    <Card withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
      <Group justify="space-between" align="flex-start" mb="sm" gap="xs">
        <Title order={2} size="h4">
          {title}
        </Title>
        {open && !editing ? (
          <Button
            ref={openButton}
            variant="light"
            size="xs"
            leftSection={open.icon}
            onClick={() => {
              setSaved(false);
              setEditing(true);
            }}
          >
            {open.label}
          </Button>
        ) : null}
      </Group>
      {editing
        ? form((done) => {
            setEditing(false);
            setSaved(done);
          })
        : children}
      {/* Mounted all along, so a screen reader announces the message when it appears. */}
      <div aria-live="polite">
        {saved && !editing ? (
          <Group gap={6} c="teal.9" wrap="nowrap" align="flex-start" mt="sm">
            <IconCircleCheck size={18} aria-hidden style={{ flex: 'none', marginTop: 2 }} />
            <Text size="sm" inherit>
              {savedMessage}
            </Text>
          </Group>
        ) : null}
      </div>
    </Card>
  );
}

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <Group gap="xs" wrap="nowrap" align="baseline">
      <Text size="sm" c="dimmed" w={100} style={{ flex: 'none' }}>
        {label}
      </Text>
      <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
        {value}
      </Text>
    </Group>
  );
}
