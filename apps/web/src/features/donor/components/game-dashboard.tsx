import { useState, type ReactNode } from 'react';
import { Alert, Badge, Grid, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconAlertCircle,
  IconAward,
  IconDroplet,
  IconFlame,
  IconStar,
  IconTrophy,
} from '@tabler/icons-react';
import { MESSAGES } from '@bloodbank/shared/constants';
import type { EarnedAchievement } from '@bloodbank/shared/game';
import { EmptyState } from '@/components/ui/empty-state';
import { PageLoader } from '@/components/ui/page-loader';
import { errorMessage } from '@/lib/api-client';
import { useCreateGameProfile } from '../api/create-game-profile';
import { useGameState } from '../api/get-game-state';
import { AchievementUnlockedModal } from './achievement-unlocked-modal';
import { EarnedAchievementsList } from './earned-achievements-list';
import { LeaderboardTable } from './leaderboard-table';
import { LevelProgress } from './level-progress';
import { LoadError } from './load-error';
import { UnseenRewards } from './unseen-rewards';
import { formatCount } from '@/lib/format';
import { CreateGameProfileButton } from './create-game-profile-button';

interface GameDashboardProps {
  /** 1 on /donor/game, 2 inside the donor dashboard's tab. */
  headingOrder?: 1 | 2;
  /** Achievements the donation that led here unlocked: they open the Achievement Unlocked! modal. */
  newAchievements?: EarnedAchievement[];
  /** The modal was closed; the caller forgets the achievements so a reload does not show it again. */
  onCelebrated?: () => void;
}

/** The Blood Hero game dashboard of spec section 2, in each of its states (section 4). */
export function GameDashboard({ headingOrder = 1, newAchievements = [], onCelebrated }: GameDashboardProps) {
  const game = useGameState();
  const createProfile = useCreateGameProfile();
  // A double-click would send two (the second refused 409 and shown in place of the first's success).
  const [celebrating, setCelebrating] = useState(true);
  const sub = (headingOrder + 1) as 2 | 3;

  let content: ReactNode;
  let badges: ReactNode = null;
  if (game.isPending) {
    content = <PageLoader label="Loading your game data" />;
  } else if (game.isError) {
    content = (
      <LoadError
        title="Error!"
        message={MESSAGES.gameLoadFailed}
        onRetry={() => void game.refetch()}
        retrying={game.isFetching}
      />
    );
  } else if (game.data === null) {
    content = (
      <Paper withBorder radius="lg">
        <EmptyState
          headingOrder={sub}
          title="No game profile"
          description="Create your game profile to earn points, levels and achievements for every donation you make."
          icon={<IconTrophy size={28} />}
          action={
            <Stack gap="xs" align="center" mt="sm">
              {createProfile.isError ? (
                <Alert color="red" variant="light" role="alert" icon={<IconAlertCircle aria-hidden />}>
                  {errorMessage(createProfile.error, 'Failed to create your game profile. Please try again.')}
                </Alert>
              ) : null}
              <CreateGameProfileButton create={createProfile} />
            </Stack>
          }
        />
      </Paper>
    );
  } else {
    const {
      profile,
      level_start_points: levelStartPoints,
      next_level_points: nextLevelPoints,
      total_donations: totalDonations,
      achievements,
    } = game.data;
    badges = (
      <Group gap="xs">
        <Badge size="lg" variant="filled" leftSection={<IconStar size={14} aria-hidden />}>
          Level {profile.level}
        </Badge>
        {profile.donation_streak > 0 ? (
          <Badge
            size="lg"
            color="orange"
            variant="light"
            c="dark.7"
            leftSection={
              <IconFlame size={16} aria-hidden data-icon="fire" color="var(--mantine-color-orange-7)" />
            }
          >
            {profile.donation_streak} donation streak
          </Badge>
        ) : null}
      </Group>
    );
    content = (
      <Stack gap="lg">
        <LevelProgress
          level={profile.level}
          points={profile.points}
          levelStartPoints={levelStartPoints}
          nextLevelPoints={nextLevelPoints}
          headingOrder={sub}
        />
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="md">
          <StatTile
            label="Total Points"
            value={profile.points}
            icon={<IconAward size={22} />}
            testId="tile-points"
          />
          <StatTile
            label="Total Donations"
            value={totalDonations}
            icon={<IconDroplet size={22} />}
            testId="tile-donations"
          />
          <StatTile
            label="Donation Streak"
            value={profile.donation_streak}
            icon={<IconFlame size={22} />}
            testId="tile-streak"
          />
        </SimpleGrid>
        <Grid gutter="lg">
          <Grid.Col span={{ base: 12, md: 6 }}>
            <EarnedAchievementsList achievements={achievements} headingOrder={sub} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <LeaderboardTable headingOrder={sub} ownPoints={profile.points} />
          </Grid.Col>
        </Grid>
        <AchievementUnlockedModal
          achievements={newAchievements}
          opened={celebrating && newAchievements.length > 0}
          onClose={() => {
            setCelebrating(false);
            onCelebrated?.();
          }}
        />
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center" gap="sm" wrap="wrap">
        <Title
          order={headingOrder}
          size={headingOrder === 1 ? 'h1' : 'h2'}
          style={{ overflowWrap: 'anywhere' }}
        >
          Blood Hero Game Dashboard
        </Title>
        {badges}
      </Group>
      {/* Rewards credited at collection that the donor has not seen yet (PRODUCT.md 3.4). */}
      <UnseenRewards onGameDashboard />
      {content}
    </Stack>
  );
}

function StatTile({
  label,
  value,
  icon,
  testId,
}: {
  label: string;
  value: number;
  icon: ReactNode;
  testId: string;
}) {
  return (
    <Paper withBorder radius="lg" p="md" data-testid={testId}>
      <Group gap="sm" wrap="nowrap">
        <ThemeIcon size={44} radius="xl" variant="light" aria-hidden>
          {icon}
        </ThemeIcon>
        <div>
          <Text size="xl" fw={700} lh={1.2}>
            {formatCount(value)}
          </Text>
          <Text size="sm" c="dimmed">
            {label}
          </Text>
        </div>
      </Group>
    </Paper>
  );
}
