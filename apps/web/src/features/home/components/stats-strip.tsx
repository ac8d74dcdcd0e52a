import type { ReactNode } from 'react';
import {
  Anchor,
  Box,
  Button,
  Container,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import {
  IconAlertCircle,
  IconDroplet,
  IconHeartbeat,
  IconRefresh,
  IconUsers,
  IconUserHeart,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Stats } from '@bloodbank/shared/stats';
import { paths } from '@/app/paths';
import { useStats } from '../api/get-stats';
import classes from './home.module.css';
import { formatCount } from '@/lib/format';

const FIGURES: { key: keyof Stats; label: string; icon: ReactNode }[] = [
  { key: 'donors', label: 'Donors', icon: <IconUsers size={28} aria-hidden /> },
  { key: 'patients', label: 'Patients', icon: <IconUserHeart size={28} aria-hidden /> },
  { key: 'units', label: 'Blood Units', icon: <IconDroplet size={28} aria-hidden /> },
  { key: 'donations', label: 'Successful Donations', icon: <IconHeartbeat size={28} aria-hidden /> },
];

/** The spec's "15+" style; nothing yet reads "0", since "0+" would claim there might be more. */
export function formatFigure(value: number): string {
  return value > 0 ? `${formatCount(value)}+` : '0';
}

export function StatsStrip() {
  const stats = useStats();

  return (
    <Box
      component="section"
      className={classes.statsBand}
      aria-labelledby="stats-title"
      aria-busy={stats.isPending}
    >
      <Container size="lg">
        <Title order={2} id="stats-title" ta="center" c="white" mb="xl">
          Our Impact in Numbers
        </Title>

        {stats.isError ? (
          <Stack align="center" gap="sm" role="alert">
            <Group gap={8} wrap="nowrap">
              <IconAlertCircle size={20} aria-hidden />
              <Text c="white">We could not load the latest figures.</Text>
            </Group>
            <Button
              variant="white"
              leftSection={<IconRefresh size={16} aria-hidden />}
              onClick={() => void stats.refetch()}
              disabled={stats.isFetching}
            >
              {stats.isFetching ? 'Retrying...' : 'Retry'}
            </Button>
          </Stack>
        ) : (
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="lg">
            {FIGURES.map((figure) => (
              <Stack key={figure.key} align="center" gap={6} ta="center" data-testid={`stat-${figure.key}`}>
                <Box c="blood.2">{figure.icon}</Box>
                {stats.data ? (
                  <span className={classes.statValue}>{formatFigure(stats.data[figure.key])}</span>
                ) : (
                  <Skeleton height={44} width={88} radius="md" opacity={0.35} />
                )}
                <Text className={classes.statLabel}>{figure.label}</Text>
              </Stack>
            ))}
          </SimpleGrid>
        )}
        {stats.isPending ? <VisuallyHidden role="status">Loading the latest figures…</VisuallyHidden> : null}
        {stats.data && Object.values(stats.data).every((value) => value === 0) ? (
          <Text ta="center" mt="xl" className={classes.statLabel}>
            No donors yet.{' '}
            <Anchor component={Link} to={paths.donor.signup} c="white" underline="always" fw={700}>
              Be the first to register
            </Anchor>
            .
          </Text>
        ) : null}
      </Container>
    </Box>
  );
}
