import { Badge, Card, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconLock, IconTrophy } from '@tabler/icons-react';
import { MESSAGES } from '@bloodbank/shared/constants';
import type { Achievement } from '@bloodbank/shared/game';
import { EmptyState } from '@/components/ui/empty-state';
import { PageLoader } from '@/components/ui/page-loader';
import { useAchievements } from '../api/get-achievements';
import { useMyAchievements } from '../api/get-my-achievements';
import { AchievementIcon } from './achievement-icon';
import { LoadError } from './load-error';

/**
 * The achievements gallery (spec section 2): every achievement of the catalogue, earned ones
 * highlighted with an Earned badge, the others greyed out.
 */
export function AchievementsGallery({ headingOrder = 2 }: { headingOrder?: 2 | 3 }) {
  const catalogue = useAchievements();
  const mine = useMyAchievements();

  const heading = (
    <Title order={headingOrder} size="h2" id="gallery-title">
      Achievements Gallery
    </Title>
  );

  if (catalogue.isPending || mine.isPending) {
    return (
      <Stack gap="md">
        {heading}
        <PageLoader label="Loading achievements" />
      </Stack>
    );
  }

  if (catalogue.isError || mine.isError) {
    // Spec section 8 has two texts: the catalogue itself, or only what this donor earned.
    const message = catalogue.isError ? MESSAGES.achievementsLoadFailed : MESSAGES.achievementLoadFailed;
    return (
      <Stack gap="md">
        {heading}
        <LoadError
          message={message}
          onRetry={() => {
            if (catalogue.isError) void catalogue.refetch();
            if (mine.isError) void mine.refetch();
          }}
          retrying={catalogue.isFetching || mine.isFetching}
        />
      </Stack>
    );
  }

  const earnedIds = new Set(mine.data.map((earned) => earned.achievement_id));
  const earnedCount = catalogue.data.filter((achievement) => earnedIds.has(achievement.id)).length;

  return (
    <Stack gap="md" component="section" aria-labelledby="gallery-title">
      <div>
        {heading}
        {catalogue.data.length > 0 ? (
          <Text c="dimmed" data-testid="gallery-count">
            {earnedCount} of {catalogue.data.length} earned
          </Text>
        ) : null}
      </div>
      {catalogue.data.length === 0 ? (
        <Paper withBorder radius="lg">
          <EmptyState title={MESSAGES.noAchievements} icon={<IconTrophy size={28} />} headingOrder={(headingOrder + 1) as 3 | 4} />
        </Paper>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {catalogue.data.map((achievement) => (
            <AchievementCard
              key={achievement.id}
              achievement={achievement}
              earned={earnedIds.has(achievement.id)}
              headingOrder={(headingOrder + 1) as 3 | 4}
            />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

function AchievementCard({
  achievement,
  earned,
  headingOrder,
}: {
  achievement: Achievement;
  earned: boolean;
  headingOrder: 3 | 4;
}) {
  // Greyed out by colour, never by opacity: the text must keep its contrast.
  return (
    <Card
      component="li"
      withBorder
      radius="lg"
      p="lg"
      bg={earned ? 'blood.0' : 'gray.1'}
      style={{ borderColor: earned ? 'var(--mantine-color-blood-7)' : undefined, borderWidth: earned ? 2 : 1 }}
      data-earned={earned}
      data-testid={`achievement-${achievement.icon}`}
    >
      <Stack gap="sm" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <ThemeIcon
            size={52}
            radius="xl"
            variant={earned ? 'filled' : 'light'}
            color={earned ? 'blood' : 'gray'}
            aria-hidden
          >
            <AchievementIcon icon={achievement.icon} size={28} />
          </ThemeIcon>
          {earned ? (
            <Badge color="teal.9" leftSection={<IconCircleCheck size={14} aria-hidden />}>
              Earned
            </Badge>
          ) : (
            <Badge color="gray.7" variant="outline" leftSection={<IconLock size={14} aria-hidden />}>
              Not earned yet
            </Badge>
          )}
        </Group>
        <Title order={headingOrder} size="h4" c={earned ? undefined : 'gray.7'}>
          {achievement.name}
        </Title>
        <Text size="sm" c={earned ? undefined : 'gray.7'} style={{ flex: 1 }}>
          {achievement.description}
        </Text>
        <Text fw={700} c={earned ? 'teal.9' : 'gray.7'}>
          +{achievement.points_reward} points
        </Text>
      </Stack>
    </Card>
  );
}
