import { useState } from 'react';
import { Alert, Badge, Button, Group, NativeSelect, Paper, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconSpeakerphone } from '@tabler/icons-react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { BLOOD_GROUPS } from '@bloodbank/shared/blood-groups';
import {
  CALLOUT_BOOKED_WITHIN_DAYS,
  CALLOUT_QUIET_DAYS,
  NewCalloutSchema,
  type Callout,
  type NewCallout,
} from '@bloodbank/shared/notifications';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorAlert } from '@/components/ui/error-alert';
import { PageLoader } from '@/components/ui/page-loader';
import { ApiError, errorMessage } from '@/lib/api-client';
import { applyServerFieldErrors } from '@/lib/form-errors';
import { formatCount, formatDateTime, pluralize } from '@/lib/format';
import { useShownInSteps } from '@/lib/use-shown-in-steps';
import { useCallouts } from '../api/get-callouts';
import { useSendCallout } from '../api/send-callout';
import { AdminPage } from '../components/admin-page';
import { ConfirmDialog } from '../components/confirm-dialog';
import { DataTable, type Column } from '../components/data-table';
import { ScreenSection } from '../components/screen-section';
import { TEXT_TONE } from '../tones';

const GROUP_OPTIONS = [
  { value: '', label: 'Choose a group', disabled: true },
  ...BLOOD_GROUPS.map((group) => ({ value: group, label: group })),
];

/** "12 donors were told", "1 donor was told", "No donor was told". */
export function toldText(notified: number): string {
  if (notified === 0) return 'No donor was told';
  return `${pluralize(notified, 'donor')} ${notified === 1 ? 'was' : 'were'} told`;
}

const columns: Column<Callout>[] = [
  {
    key: 'when',
    header: 'When',
    title: true,
    nowrap: true,
    cell: (callout) => (
      <Text size="sm" fw={600}>
        {formatDateTime(callout.created_at)}
      </Text>
    ),
  },
  {
    key: 'group',
    header: 'Group',
    cell: (callout) => (
      <Text size="sm" fw={700}>
        {callout.bloodgroup}
      </Text>
    ),
  },
  {
    key: 'reason',
    header: 'Raised by',
    cell: (callout) =>
      callout.reason === 'low_stock' ? (
        <Badge variant="light" color="red" styles={{ label: { color: TEXT_TONE.red } }}>
          Low stock
        </Badge>
      ) : (
        <Text size="sm">Staff{callout.created_by ? ` (${callout.created_by})` : ''}</Text>
      ),
  },
  {
    key: 'told',
    header: 'Donors told',
    align: 'right',
    cell: (callout) => <Text size="sm">{formatCount(callout.notified)}</Text>,
  },
  {
    key: 'booked',
    header: `Booked within ${CALLOUT_BOOKED_WITHIN_DAYS} days`,
    align: 'right',
    cell: (callout) => <Text size="sm">{formatCount(callout.booked_within_7_days)}</Text>,
  },
];

/** Call-outs listed at first, and added on each "Show more call-outs". */
const CALLOUTS_SHOWN = 20;

/**
 * Call-outs (PRODUCT.md 3.8): staff call out the donors who can give to a group, and see each
 * call-out (raised by low stock or by staff) with how many donors were told and how many booked.
 */
export function CalloutsScreen() {
  const callouts = useCallouts();
  // The server sends the latest 100; a phone should not scroll through them all at once.
  const steps = useShownInSteps(
    callouts.data ?? [],
    CALLOUTS_SHOWN,
    (callout) => `[data-row-key="${callout.id}"]`,
  );

  let list;
  if (callouts.isPending) {
    list = <PageLoader label="Loading call-outs" />;
  } else if (callouts.isError) {
    list = (
      <ErrorAlert
        message={errorMessage(callouts.error, 'The call-outs could not be loaded. Please try again.')}
        onRetry={() => void callouts.refetch()}
        retrying={callouts.isFetching}
      />
    );
  } else if (callouts.data.length === 0) {
    list = (
      <Paper withBorder radius="md">
        <EmptyState
          title="No call-outs yet"
          description="A call-out is sent when a group's red cells fall under the low-stock threshold, or when you call out donors above."
          icon={<IconSpeakerphone size={28} />}
        />
      </Paper>
    );
  } else {
    list = (
      <Stack gap="sm">
        <DataTable
          caption="Call-outs"
          columns={columns}
          rows={steps.listed}
          rowKey={(callout) => callout.id}
        />
        {steps.next > 0 ? (
          <Group justify="center">
            <Button variant="default" onClick={steps.showMore}>
              Show {steps.next} more call-outs
            </Button>
          </Group>
        ) : null}
      </Stack>
    );
  }

  return (
    <AdminPage
      title="Call-outs"
      description="Tell donors when their blood group is needed, and see who came."
    >
      <Stack gap="xl">
        <ScreenSection
          id="call-out"
          title="Call out donors"
          description={`Donors whose blood can go to the group are told if they are eligible, not deferred and want call-outs; each donor at most once in ${CALLOUT_QUIET_DAYS} days.`}
        >
          <CalloutForm />
        </ScreenSection>
        <ScreenSection
          id="callouts"
          title="Recent call-outs"
          description={`Newest first, with how many donors were told and how many booked within ${CALLOUT_BOOKED_WITHIN_DAYS} days.`}
        >
          {list}
        </ScreenSection>
      </Stack>
    </AdminPage>
  );
}

function CalloutForm() {
  const send = useSendCallout();
  const [asking, setAsking] = useState<NewCallout | null>(null);
  const [result, setResult] = useState<{ bloodgroup: string; notified: number } | null>(null);
  const form = useForm<NewCallout>({
    resolver: zodResolver(NewCalloutSchema),
    // Nothing chosen until the admin picks a group.
    defaultValues: { bloodgroup: '' as NewCallout['bloodgroup'] },
  });

  const confirm = () => {
    if (!asking) return;
    send.mutate(asking, {
      onSuccess: ({ notified }) => {
        setResult({ bloodgroup: asking.bloodgroup, notified });
        setAsking(null);
        form.reset();
      },
      onError: (error) => {
        // A refused group goes back onto the field; anything else stays in the dialog.
        if (error instanceof ApiError && error.errors.bloodgroup) {
          setAsking(null);
          applyServerFieldErrors(form, error, ['bloodgroup']);
        }
      },
    });
  };

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <form
        noValidate
        aria-label="Call out donors"
        onSubmit={(event) => {
          setResult(null);
          void form.handleSubmit((values) => {
            send.reset();
            setAsking(values);
          })(event);
        }}
      >
        <Stack gap="md">
          <Group align="flex-start" gap="md" wrap="wrap">
            <NativeSelect
              label="Blood group needed"
              withAsterisk
              data={GROUP_OPTIONS}
              error={form.formState.errors.bloodgroup?.message}
              w={{ base: '100%', xs: 220 }}
              {...form.register('bloodgroup')}
            />
            <Button
              type="submit"
              leftSection={<IconSpeakerphone size={16} aria-hidden />}
              mt={{ base: 0, xs: 25 }}
              w={{ base: '100%', xs: 'auto' }}
            >
              Call out donors
            </Button>
          </Group>
          {result ? (
            <Alert
              color="teal"
              variant="light"
              icon={<IconCircleCheck aria-hidden />}
              role="status"
              styles={{ message: { color: TEXT_TONE.teal } }}
            >
              {toldText(result.notified)} that {result.bloodgroup} is needed.
              {result.notified === 0
                ? ` Every donor who can give to ${result.bloodgroup} is deferred, not yet eligible, already booked, does not want call-outs or was told in the last ${CALLOUT_QUIET_DAYS} days.`
                : ''}
            </Alert>
          ) : null}
        </Stack>
      </form>
      <ConfirmDialog
        opened={asking !== null}
        title={asking ? `Call out donors for ${asking.bloodgroup}?` : ''}
        confirmLabel="Send call-out"
        busyLabel="Sending..."
        busy={send.isPending}
        color="blood"
        error={
          send.isError ? errorMessage(send.error, 'The call-out could not be sent. Please try again.') : null
        }
        onConfirm={confirm}
        onClose={() => {
          send.reset();
          setAsking(null);
        }}
      >
        {asking
          ? `This messages every eligible donor whose blood can go to ${asking.bloodgroup}, in the app and by e-mail if they want e-mails. Donors told in the last ${CALLOUT_QUIET_DAYS} days are left out.`
          : ''}
      </ConfirmDialog>
    </Paper>
  );
}
