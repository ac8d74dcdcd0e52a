import { Button, Group, Stack, Text } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@/app/paths';
import { SectionCard } from './section-card';
import { formatCount } from '@/lib/format';

function Count({ value, one, many, testId }: { value: number; one: string; many: string; testId: string }) {
  return (
    <Group gap="xs" align="baseline" wrap="nowrap" data-testid={testId}>
      <Text fz={34} fw={700} lh={1.1}>
        {value}
      </Text>{' '}
      <Text c="dimmed">{value === 1 ? one : many}</Text>
    </Group>
  );
}

/**
 * Spec section 2's Recent Blood Donations card, counting what awaits staff (PRODUCT.md 3.2): the
 * bookings due today or earlier, and collected donations awaiting their test results.
 */
export function DashboardRecentDonations({
  bookingsDue,
  awaitingResults,
  pendingRequests,
}: {
  bookingsDue: number;
  awaitingResults: number;
  pendingRequests: number;
}) {
  return (
    <SectionCard title="Recent Blood Donations">
      <Stack gap="md">
        <Stack gap={4}>
          <Count value={bookingsDue} one="booking due" many="bookings due" testId="bookings-due" />
          <Count
            value={awaitingResults}
            one="awaiting results"
            many="awaiting results"
            testId="awaiting-results"
          />
        </Stack>
        <Text size="sm" c="dimmed">
          {bookingsDue === 0 && awaitingResults === 0
            ? 'Nothing waits for staff: no booking is due and every collection has its results.'
            : 'Record the collection of each booking due, then the test results: only then do the units become stock.'}
          {pendingRequests > 0
            ? ` ${formatCount(pendingRequests)} blood ${pendingRequests === 1 ? 'request waits' : 'requests wait'} too.`
            : ''}
        </Text>
        <Button
          component={Link}
          to={paths.admin.donations}
          variant="light"
          rightSection={<IconArrowRight size={16} aria-hidden />}
        >
          Review Donations
        </Button>
      </Stack>
    </SectionCard>
  );
}
