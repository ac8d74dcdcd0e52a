import type { ReactNode } from 'react';
import { Anchor, Card, Group, SimpleGrid, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconArrowRight, IconDroplet, IconFileText, IconUserHeart, IconUsers } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { AdminDashboard } from '@bloodbank/shared/admin';
import { paths } from '@/app/paths';
import { formatCount } from '@/lib/format';

interface CountCard {
  label: string;
  /** What the number counts, when the label alone could mislead. */
  note?: string;
  value: (dashboard: AdminDashboard) => number;
  link: string;
  to: string;
  icon: ReactNode;
}

/** Spec section 2: four count cards linking to Manage Donors, Patients, Blood and Requests. */
const CARDS: CountCard[] = [
  {
    label: 'Total Donors',
    value: (d) => d.totalDonors,
    link: 'Manage Donors',
    to: paths.admin.donors,
    icon: <IconUsers size={26} />,
  },
  {
    label: 'Total Patients',
    value: (d) => d.totalPatients,
    link: 'Manage Patients',
    to: paths.admin.patients,
    icon: <IconUserHeart size={26} />,
  },
  {
    label: 'Total Blood Units',
    note: 'All components together',
    value: (d) => d.totalBloodUnits,
    link: 'Manage Blood',
    to: paths.admin.blood,
    icon: <IconDroplet size={26} />,
  },
  {
    label: 'Pending Requests',
    value: (d) => d.pendingRequests,
    link: 'Manage Requests',
    to: paths.admin.requests,
    icon: <IconFileText size={26} />,
  },
];

export function DashboardCountCards({ dashboard }: { dashboard: AdminDashboard }) {
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} spacing={{ base: 'sm', sm: 'md' }}>
      {CARDS.map((card) => (
        <Card
          key={card.label}
          withBorder
          radius="lg"
          p={{ base: 'sm', sm: 'lg' }}
          data-testid={`count-${card.label}`}
        >
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
            <Stack gap={2}>
              <Text size="sm" c="dimmed" fw={600}>
                {card.label}
              </Text>
              <Text fz={34} fw={700} lh={1.15}>
                {formatCount(card.value(dashboard))}
              </Text>
              {card.note ? (
                <Text size="xs" c="dimmed">
                  {card.note}
                </Text>
              ) : null}
            </Stack>
            <ThemeIcon size={48} radius="xl" variant="light" aria-hidden visibleFrom="sm">
              {card.icon}
            </ThemeIcon>
          </Group>
          <Anchor component={Link} to={card.to} mt="auto" pt="md" fw={600} size="sm">
            {card.link} <IconArrowRight size={16} aria-hidden style={{ verticalAlign: 'text-bottom' }} />
          </Anchor>
        </Card>
      ))}
    </SimpleGrid>
  );
}
