import { Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconTrophy } from '@tabler/icons-react';
import { REWARDS_PANEL_MAX_ACHIEVEMENTS } from '@bloodbank/shared/constants';
import type { DonationCompleteResult } from '@bloodbank/shared/game';
import { formatCount, pluralize } from '@/lib/format';
import { AchievementIcon } from './achievement-icon';

interface RewardsPanelProps {
  reward: DonationCompleteResult;
  /** Leaves out View Game Dashboard when the panel is on the game dashboard already. */
  onViewGame?: () => void;
  onClose: () => void;
}

/**
 * Spec section 2: the points credited (+100 per collected donation, PRODUCT.md 3.4) and up to 3 of
 * the achievements that came with them.
 */
export function RewardsPanel({ reward, onViewGame, onClose }: RewardsPanelProps) {
  const shown = reward.achievements.slice(0, REWARDS_PANEL_MAX_ACHIEVEMENTS);
  return (
    <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby="rewards-title" bg="yellow.0">
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon size={44} radius="xl" color="yellow.8" aria-hidden>
            <IconTrophy size={24} />
          </ThemeIcon>
          <div>
            <Title order={2} size="h3" id="rewards-title">
              Blood Hero Rewards
            </Title>
            <Text size="sm" c="dimmed">
              Level {reward.profile.level} · {pluralize(reward.profile.points, 'point')} in total
            </Text>
          </div>
        </Group>
        <Text fw={700} size="xl" c="teal.9" data-testid="reward-points">
          +{formatCount(reward.points_credited)} points
        </Text>
        {shown.length > 0 ? (
          <Stack
            gap="xs"
            component="ul"
            aria-label="Achievements unlocked"
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
          >
            {shown.map((earned) => (
              <Paper component="li" key={earned.id} withBorder radius="md" p="sm">
                <Group gap="sm" wrap="nowrap" align="flex-start">
                  <ThemeIcon size={36} radius="xl" variant="light" aria-hidden>
                    <AchievementIcon icon={earned.achievement.icon} size={20} />
                  </ThemeIcon>
                  <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                    <Text fw={700}>Achievement Unlocked: {earned.achievement.name}</Text>
                    <Text size="sm" c="dimmed">
                      {earned.achievement.description}
                    </Text>
                    <Text size="sm" fw={700} c="teal.9">
                      +{earned.achievement.points_reward} points
                    </Text>
                  </Stack>
                </Group>
              </Paper>
            ))}
          </Stack>
        ) : null}
        <Group gap="sm">
          {onViewGame ? <Button onClick={onViewGame}>View Game Dashboard</Button> : null}
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
