import { Button, Modal, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { EarnedAchievement } from '@bloodbank/shared/game';
import { AchievementIcon } from './achievement-icon';

interface AchievementUnlockedModalProps {
  achievements: EarnedAchievement[];
  opened: boolean;
  onClose: () => void;
}

/** Spec section 2: the first new achievement plus "+ N more achievements unlocked!". */
export function AchievementUnlockedModal({ achievements, opened, onClose }: AchievementUnlockedModalProps) {
  const [first] = achievements;
  if (!first) return null;
  const more = achievements.length - 1;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      centered
      radius="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
      title={
        <Text component="span" fw={700} size="lg">
          Achievement Unlocked!
        </Text>
      }
    >
      <Stack align="center" ta="center" gap="sm" pb="xs">
        <ThemeIcon size={72} radius="xl" color="yellow.8" aria-hidden>
          <AchievementIcon icon={first.achievement.icon} size={40} />
        </ThemeIcon>
        <Title order={2} size="h3">
          {first.achievement.name}
        </Title>
        <Text c="dimmed">{first.achievement.description}</Text>
        <Text fw={700} size="lg" c="teal.9">
          +{first.achievement.points_reward} points
        </Text>
        {more > 0 ? (
          <Text fw={600}>
            {/* Word for word from the spec, whatever N is. */}
            + {more} more achievements unlocked!
          </Text>
        ) : null}
        <Button onClick={onClose} mt="sm" size="md">
          Awesome!
        </Button>
      </Stack>
    </Modal>
  );
}
