import { Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { EarnedAchievement } from '@bloodbank/shared/game';
import { AchievementIcon } from './achievement-icon';

/** Spec section 2, "Your Achievements": name, description and +N points of each earned one. */
export function EarnedAchievementsList({
  achievements,
  headingOrder,
}: {
  achievements: EarnedAchievement[];
  headingOrder: 2 | 3 | 4;
}) {
  return (
    <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby="your-achievements-title">
      <Title order={headingOrder} size="h4" mb="sm" id="your-achievements-title">
        Your Achievements
      </Title>
      {achievements.length === 0 ? (
        <Text c="dimmed" size="sm" py="md" ta="center">
          You have not earned any achievements yet. Donate blood to unlock your first one!
        </Text>
      ) : (
        <Stack component="ul" gap="sm" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {achievements.map((earned) => (
            <Group component="li" key={earned.id} gap="sm" wrap="nowrap" align="flex-start">
              <ThemeIcon size={40} radius="xl" variant="light" aria-hidden>
                <AchievementIcon icon={earned.achievement.icon} size={22} />
              </ThemeIcon>
              <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                <Text fw={700}>{earned.achievement.name}</Text>
                <Text size="sm" c="dimmed">
                  {earned.achievement.description}
                </Text>
                <Text size="sm" fw={700} c="teal.9">
                  +{earned.achievement.points_reward} points
                </Text>
              </Stack>
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
