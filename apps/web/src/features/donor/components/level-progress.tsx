import { Group, Paper, Progress, Text, Title } from '@mantine/core';
import { levelProgressPercent } from '@bloodbank/shared/game';
import { formatCount } from '@/lib/format';

interface LevelProgressProps {
  level: number;
  points: number;
  /** Where the current level starts (PRODUCT.md 3.4: level n spans 100 x n points). */
  levelStartPoints: number;
  nextLevelPoints: number;
  headingOrder: 2 | 3 | 4;
}

/**
 * Spec section 2: current level, points over next-level points, next level. The bar measures the
 * way from the current level's start to the next (PRODUCT.md 3.4), so it moves with every reward.
 */
export function LevelProgress({
  level,
  points,
  levelStartPoints,
  nextLevelPoints,
  headingOrder,
}: LevelProgressProps) {
  const percent = levelProgressPercent(points, levelStartPoints, nextLevelPoints);
  const toGo = Math.max(0, nextLevelPoints - points);
  return (
    <Paper withBorder radius="lg" p="lg">
      <Title order={headingOrder} size="h4" mb="sm">
        Level Progress
      </Title>
      <Group justify="space-between" gap="xs" mb={6} wrap="nowrap">
        <Text fw={600} size="sm">
          Level {level}
        </Text>
        <Text size="sm" data-testid="level-progress-points">
          {formatCount(points)} / {formatCount(nextLevelPoints)} points
        </Text>
        <Text fw={600} size="sm">
          Level {level + 1}
        </Text>
      </Group>
      <Progress.Root size="lg" radius="xl">
        <Progress.Section value={percent} aria-label={`Progress to level ${level + 1}`} />
      </Progress.Root>
      <Text size="xs" c="dimmed" mt={6}>
        {percent}% of the way to level {level + 1} ({formatCount(toGo)} {toGo === 1 ? 'point' : 'points'} to
        go)
      </Text>
    </Paper>
  );
}
