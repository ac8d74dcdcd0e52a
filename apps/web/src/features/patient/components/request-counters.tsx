import type { ReactNode } from 'react';
import { Group, Paper, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import { IconBan, IconCircleCheck, IconCircleX, IconClipboardList, IconHourglass } from '@tabler/icons-react';
import type { PatientSummary } from '@bloodbank/shared/blood-request';
import classes from './request-counters.module.css';

const COUNTERS: { key: keyof PatientSummary; label: string; color: string; icon: ReactNode }[] = [
  { key: 'total', label: 'Total Requests', color: 'blood', icon: <IconClipboardList size={22} /> },
  { key: 'pending', label: 'Pending Requests', color: 'yellow', icon: <IconHourglass size={22} /> },
  { key: 'approved', label: 'Approved Requests', color: 'green', icon: <IconCircleCheck size={22} /> },
  { key: 'rejected', label: 'Rejected Requests', color: 'gray', icon: <IconCircleX size={22} /> },
  // PRODUCT.md 3.5: a counter of its own, so the counters add up to the total.
  { key: 'cancelled', label: 'Cancelled Requests', color: 'gray', icon: <IconBan size={22} /> },
];

/** Spec section 2: Total, Pending, Approved and Rejected Requests, and the Cancelled ones (PRODUCT.md 3.5), counted by the server. */
export function RequestCounters({ summary }: { summary: PatientSummary }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing={{ base: 'sm', sm: 'lg' }}>
      {COUNTERS.map((counter) => (
        <Paper
          key={counter.key}
          withBorder
          radius="lg"
          p={{ base: 'sm', sm: 'md' }}
          data-testid={`count-${counter.key}`}
          className={counter.key === 'total' ? classes.total : undefined}
        >
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
            <div>
              <Text size="sm" c="dimmed" fw={600}>
                {counter.label}
              </Text>
              <Text fz={32} fw={800} lh={1.2}>
                {summary[counter.key]}
              </Text>
            </div>
            <ThemeIcon
              variant="light"
              color={counter.color}
              radius="xl"
              size={40}
              aria-hidden
              visibleFrom="xs"
            >
              {counter.icon}
            </ThemeIcon>
          </Group>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
