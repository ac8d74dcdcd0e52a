import { Button, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCalendarPlus, IconClock, IconMapPin } from '@tabler/icons-react';
import type { Appointment } from '@bloodbank/shared/sites';
import { errorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useDownloadCalendar } from '../api/download-calendar';
import { busyButtonProps } from '@/lib/busy-button';

/** Where and when the donor is expected (PRODUCT.md 3.6): the site, its address, the day and the slot. */
export function AppointmentSummary({ date, appointment }: { date: string; appointment: Appointment }) {
  return (
    <Paper withBorder radius="md" p="sm" bg="gray.0" data-testid="appointment">
      <Stack gap="xs">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon size={28} radius="xl" variant="light" aria-hidden>
            <IconMapPin size={16} />
          </ThemeIcon>
          <div style={{ minWidth: 0 }}>
            <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {appointment.site_name}
            </Text>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {appointment.address}
            </Text>
          </div>
        </Group>
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon size={28} radius="xl" variant="light" aria-hidden>
            <IconClock size={16} />
          </ThemeIcon>
          <Text fw={600} size="sm" pt={4}>
            {formatDate(date)}, {appointment.time}–{appointment.ends}
          </Text>
        </Group>
      </Stack>
    </Paper>
  );
}

/** Downloads the booking as an .ics file, for the donor's own calendar. */
export function AddToCalendarButton({ donationId }: { donationId: number }) {
  const download = useDownloadCalendar();
  return (
    <Button
      variant="default"
      leftSection={<IconCalendarPlus size={16} aria-hidden />}
      {...busyButtonProps(download.isPending)}
      onClick={() => {
        if (download.isPending) return;
        download.mutate(donationId, {
          // Said too: the browser's download bar is not read out.
          onSuccess: () =>
            notifications.show({
              color: 'teal',
              title: 'Calendar file downloaded',
              message: 'Open it to add the booking to your calendar.',
              closeButtonProps: { 'aria-label': 'Close notification' },
              styles: { description: { color: 'var(--mantine-color-dimmed)' } },
            }),
          onError: (error) =>
            notifications.show({
              color: 'red',
              title: 'Calendar file not downloaded',
              message: errorMessage(error, 'The calendar file could not be downloaded. Please try again.'),
              closeButtonProps: { 'aria-label': 'Close notification' },
              styles: { description: { color: 'var(--mantine-color-dimmed)' } },
            }),
        });
      }}
    >
      {download.isPending ? 'Downloading...' : 'Add to Calendar'}
    </Button>
  );
}
