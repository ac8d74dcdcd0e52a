import { Button, Group, Stack, Text } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@/app/paths';
import { SectionCard } from './section-card';

/** Spec section 2: the pending approvals count with a link to /admin-donation. */
export function DashboardRecentDonations({
  pendingDonations,
  pendingRequests,
}: {
  pendingDonations: number;
  pendingRequests: number;
}) {
  return (
    <SectionCard title="Recent Blood Donations">
      <Stack gap="md">
        <Group gap="xs" align="baseline" data-testid="pending-donations">
          <Text fz={34} fw={700} lh={1.1}>
            {pendingDonations}
          </Text>{' '}
          <Text c="dimmed">
            {pendingDonations === 1 ? 'donation awaits approval' : 'donations await approval'}
          </Text>
        </Group>
        <Text size="sm" c="dimmed">
          {pendingDonations === 0
            ? 'Every donation has been reviewed.'
            : 'Approved donations enter the inventory as units, collected on the donation date.'}
          {pendingRequests > 0
            ? ` ${pendingRequests} blood ${pendingRequests === 1 ? 'request waits' : 'requests wait'} too.`
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
