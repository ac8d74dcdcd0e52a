import type { ReactNode } from 'react';
import {
  Alert,
  Badge,
  Button,
  Grid,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  IconAlertCircle,
  IconCalendarEvent,
  IconCircleCheck,
  IconCircleX,
  IconClipboardList,
  IconClock,
  IconDroplet,
  IconHistory,
  IconTrophy,
} from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { MESSAGES } from '@bloodbank/shared/constants';
import { useBankToday } from '@/lib/bank-today';
import type { Donation, DonorSummary } from '@bloodbank/shared/donation';
import { paths } from '@/app/paths';
import { EmptyState } from '@/components/ui/empty-state';
import { PageLoader } from '@/components/ui/page-loader';
import { errorMessage } from '@/lib/api-client';
import { useCreateGameProfile } from '../api/create-game-profile';
import { useDonorSummary } from '../api/get-donor-summary';
import { useGameState } from '../api/get-game-state';
import { useMyDonations } from '../api/get-my-donations';
import { donorKeys } from '../api/query-keys';
import { formatCount, formatDate, formatInstantDate, pluralize, readableDates } from '@/lib/format';
import { BankContactLine } from '@/components/ui/bank-contact';
import { deferralText, donationNote, dayOf, DONOR_STATUS_BADGE } from './donation-status';
import { LatestBooking } from './latest-booking';
import { LoadError } from './load-error';
import { alertTitleStyles } from './readable-colors';
import { UnseenRewards } from './unseen-rewards';
import { CreateGameProfileButton } from './create-game-profile-button';

/** The Dashboard tab of the donor dashboard (spec section 2, PRODUCT.md section 2). */
export function DashboardOverview() {
  const summary = useDonorSummary();
  const queryClient = useQueryClient();
  return (
    <Stack gap="lg">
      {/* Rewards credited at collection that the donor has not seen yet (PRODUCT.md 3.4). */}
      <UnseenRewards />
      <GameSummary />
      {summary.isPending ? (
        <PageLoader label="Loading your dashboard" />
      ) : summary.isError ? (
        <LoadError
          message={MESSAGES.dashboardLoadFailed}
          onRetry={() => {
            void summary.refetch();
            void queryClient.invalidateQueries({ queryKey: donorKeys.myDonations });
          }}
          retrying={summary.isFetching}
        />
      ) : (
        <>
          {summary.data.deferred ? (
            <DeferralNotice deferred={summary.data.deferred} latest={summary.data.latest_donation} />
          ) : null}
          <Counters summary={summary.data} />
          {/*
            The action (when to donate, Donate Blood) comes first, in reading order and on a phone,
            before the 10-item feed; on a wide screen it sits on the right.
          */}
          <Grid gutter="lg">
            <Grid.Col span={{ base: 12, md: 5 }} order={{ md: 2 }}>
              <Stack gap="lg" h="100%">
                {summary.data.latest_donation ? (
                  <LatestBooking donation={summary.data.latest_donation} deferred={summary.data.deferred} />
                ) : null}
                <NextEligibleDonation summary={summary.data} />
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 7 }} order={{ md: 1 }}>
              <RecentActivities activities={summary.data.activities} />
            </Grid.Col>
          </Grid>
        </>
      )}
      {/* One error is enough: the summary's Retry reloads the history too. */}
      {summary.isError ? null : <DonationHistory />}
    </Stack>
  );
}

/** Level, points and Open Game; hidden when the game state cannot be loaded (spec section 2). */
function GameSummary() {
  const game = useGameState();
  const createProfile = useCreateGameProfile();
  if (game.isError) return null;

  let body: ReactNode;
  if (game.isPending) {
    body = <Skeleton height={36} radius="md" aria-label="Loading your game summary" />;
  } else if (game.data === null) {
    body = (
      <Stack gap="xs">
        <Text size="sm">
          Create your game profile to earn points, levels and achievements for every donation.
        </Text>
        {createProfile.isError ? (
          <Text size="sm" c="red.9" role="alert">
            {errorMessage(createProfile.error, 'Failed to create your game profile. Please try again.')}
          </Text>
        ) : null}
        <Group>
          <CreateGameProfileButton create={createProfile} />
        </Group>
      </Stack>
    );
  } else {
    const { profile } = game.data;
    body = (
      <Group justify="space-between" gap="md" wrap="wrap">
        <Group gap="lg" wrap="wrap">
          <div data-testid="summary-level">
            <Text size="sm" c="dimmed">
              Level
            </Text>
            <Text fw={700} size="xl">
              {profile.level}
            </Text>
          </div>
          <div data-testid="summary-points">
            <Text size="sm" c="dimmed">
              Points
            </Text>
            <Text fw={700} size="xl">
              {formatCount(profile.points)}
            </Text>
          </div>
        </Group>
        <Button component={Link} to={paths.donor.game} leftSection={<IconTrophy size={16} aria-hidden />}>
          Open Game
        </Button>
      </Group>
    );
  }

  return (
    <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby="game-summary-title">
      <Group gap="sm" mb="sm" wrap="nowrap">
        <ThemeIcon size={36} radius="xl" variant="light" aria-hidden>
          <IconTrophy size={20} />
        </ThemeIcon>
        <Title order={2} size="h4" id="game-summary-title">
          Blood Hero Game
        </Title>
      </Group>
      {body}
    </Paper>
  );
}

const COUNTERS: {
  key: 'made' | 'pending' | 'approved' | 'rejected';
  label: string;
  color: string;
  icon: ReactNode;
}[] = [
  { key: 'made', label: 'Request Made', color: 'blue', icon: <IconClipboardList size={22} /> },
  { key: 'pending', label: 'Pending Request', color: 'yellow', icon: <IconClock size={22} /> },
  { key: 'approved', label: 'Approved Request', color: 'teal', icon: <IconCircleCheck size={22} /> },
  { key: 'rejected', label: 'Rejected Request', color: 'red', icon: <IconCircleX size={22} /> },
];

function Counters({ summary }: { summary: DonorSummary }) {
  return (
    <SimpleGrid
      cols={{ base: 2, md: 4 }}
      spacing="md"
      component="section"
      aria-label="Your donation requests"
    >
      {COUNTERS.map((counter) => (
        <Paper key={counter.key} withBorder radius="lg" p="md" data-testid={`counter-${counter.key}`}>
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <ThemeIcon
              size={40}
              radius="xl"
              variant="light"
              color={counter.color}
              aria-hidden
              visibleFrom="xs"
            >
              {counter.icon}
            </ThemeIcon>
            <div style={{ minWidth: 0 }}>
              <Text fw={700} fz={28} lh={1.1}>
                {formatCount(summary[counter.key])}
              </Text>
              <Text size="sm" c="dimmed">
                {counter.label}
              </Text>
            </div>
          </Group>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

function RecentActivities({ activities }: { activities: DonorSummary['activities'] }) {
  return (
    <Paper withBorder radius="lg" p="lg" h="100%" component="section" aria-labelledby="activities-title">
      <Title order={2} size="h4" mb="sm" id="activities-title">
        Recent Activities
      </Title>
      {activities.length === 0 ? (
        <Text c="dimmed" size="sm" py="md" ta="center">
          {MESSAGES.noRecentActivities}
        </Text>
      ) : (
        <Stack component="ul" gap="sm" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {activities.map((activity) => (
            <Group component="li" key={activity.id} gap="sm" wrap="nowrap" align="flex-start">
              <ThemeIcon
                size={28}
                radius="xl"
                variant="light"
                color={activityColor(activity.kind)}
                aria-hidden
              >
                {activity.kind.startsWith('achievement') ? (
                  <IconTrophy size={16} />
                ) : (
                  <IconDroplet size={16} />
                )}
              </ThemeIcon>
              <div style={{ minWidth: 0 }}>
                <Text size="sm">{activity.message}</Text>
                <Text size="xs" c="dimmed">
                  {formatInstantDate(activity.created_at)}
                </Text>
              </div>
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}

function activityColor(kind: string): string {
  if (kind.includes('rejected') || kind.includes('withdrawn')) return 'red';
  if (kind.includes('deferred') || kind.includes('follow_up') || kind.includes('cancelled')) return 'orange';
  if (['approved', 'issued', 'collected', 'released'].some((word) => kind.includes(word))) return 'teal';
  if (kind.startsWith('achievement')) return 'yellow';
  return 'blue';
}

/**
 * PRODUCT.md 3.7: the donor's active deferral, without its (confidential) reason. A booking still
 * pending lies on or after its end (the deferral cancelled any before): it stands, and the donor is
 * not invited to book another, which the one-booking rule would refuse.
 */
function DeferralNotice({
  deferred,
  latest,
}: {
  deferred: NonNullable<DonorSummary['deferred']>;
  latest: DonorSummary['latest_donation'];
}) {
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconAlertCircle aria-hidden />}
      title={deferralText(deferred)}
      styles={alertTitleStyles('yellow')}
      data-testid="deferral-notice"
    >
      {deferred.type === 'permanent' ? (
        <>
          Thank you for wanting to help. The blood bank can tell you more.
          <BankContactLine mt={4} />
        </>
      ) : latest?.status === 'pending' ? (
        `Your booking for ${formatDate(latest.date)} stands.`
      ) : (
        `You can book your next donation from ${formatDate(deferred.until)}.`
      )}
    </Alert>
  );
}

/** PRODUCT.md section 2: when the donor may donate next, and why not sooner. */
function NextEligibleDonation({ summary }: { summary: DonorSummary }) {
  const today = useBankToday();
  let headline: string;
  let detail: string;
  let canDonate = false;
  if (summary.next_eligible_date === null) {
    const permanent = summary.deferred?.type === 'permanent';
    headline = permanent ? 'Not at this time' : 'After your booking';
    detail = permanent
      ? MESSAGES.deferredPermanently
      : readableDates(summary.not_eligible_reason ?? MESSAGES.pendingDonationExists);
  } else if (summary.next_eligible_date <= today) {
    headline = 'Today';
    // Thanks for coming back only to a donor who has given blood before.
    detail =
      summary.approved > 0
        ? 'You can donate now. Thank you for coming back!'
        : 'You can donate now. One donation can save up to three lives.';
    canDonate = true;
  } else {
    headline = formatDate(summary.next_eligible_date);
    detail = readableDates(
      summary.not_eligible_reason ?? MESSAGES.donateAgainFrom(summary.next_eligible_date),
    );
  }
  return (
    <Paper withBorder radius="lg" p="lg" h="100%" component="section" aria-labelledby="eligibility-title">
      <Group gap="sm" mb="sm" wrap="nowrap">
        <ThemeIcon size={36} radius="xl" variant="light" aria-hidden>
          <IconCalendarEvent size={20} />
        </ThemeIcon>
        <Title order={2} size="h4" id="eligibility-title">
          Next Eligible Donation
        </Title>
      </Group>
      <Text fw={700} size="xl" data-testid="next-eligible-date">
        {headline}
      </Text>
      <Text size="sm" c="dimmed" mb={canDonate ? 'md' : 0}>
        {detail}
      </Text>
      {canDonate ? (
        <Button component={Link} to={paths.donor.donate} leftSection={<IconDroplet size={16} aria-hidden />}>
          Donate Blood
        </Button>
      ) : null}
    </Paper>
  );
}

function DonationHistory() {
  const donations = useMyDonations();

  let body: ReactNode;
  if (donations.isPending) {
    body = <PageLoader label="Loading your donation history" />;
  } else if (donations.isError) {
    body = (
      <LoadError
        message={MESSAGES.dashboardLoadFailed}
        onRetry={() => void donations.refetch()}
        retrying={donations.isFetching}
      />
    );
  } else if (donations.data.length === 0) {
    body = (
      <EmptyState
        title="No donations yet"
        description="When you offer to donate, your donation and its status appear here."
        icon={<IconHistory size={28} />}
        action={
          <Button component={Link} to={paths.donor.donate} variant="light" mt="xs">
            Donate Blood
          </Button>
        }
      />
    );
  } else {
    body = <DonationTable donations={donations.data} />;
  }

  return (
    <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby="history-title">
      <Title order={2} size="h4" mb="sm" id="history-title">
        Donation History
      </Title>
      {body}
    </Paper>
  );
}

function DonationTable({ donations }: { donations: Donation[] }) {
  // A phone gets one card per donation: four columns with a rejection reason do not fit 375 px.
  const wide = useMediaQuery('(min-width: 48em)', false, { getInitialValueInEffect: false });
  if (!wide) {
    return (
      <Stack
        component="ul"
        gap="sm"
        data-testid="donation-history"
        style={{ listStyle: 'none', margin: 0, padding: 0 }}
      >
        {donations.map((donation) => {
          const badge = DONOR_STATUS_BADGE[donation.status];
          const note = donationNote(donation);
          return (
            <Paper component="li" key={donation.id} withBorder radius="md" p="sm">
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text fw={600}>{formatDate(dayOf(donation))}</Text>
                <Badge color={badge.color} variant="dot" style={{ flexShrink: 0 }}>
                  {badge.label}
                </Badge>
              </Group>
              <Text size="sm">{pluralize(donation.unit, 'unit')}</Text>
              {note ? (
                <Text size="sm" c="dimmed">
                  {donation.status === 'rejected' ? `Reason: ${note}` : note}
                </Text>
              ) : null}
            </Paper>
          );
        })}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={420} type="native">
      <Table verticalSpacing="sm" aria-labelledby="history-title" data-testid="donation-history">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Date</Table.Th>
            <Table.Th scope="col">Units</Table.Th>
            <Table.Th scope="col">Status</Table.Th>
            <Table.Th scope="col">Reason</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {donations.map((donation) => {
            const badge = DONOR_STATUS_BADGE[donation.status];
            const note = donationNote(donation);
            return (
              <Table.Tr key={donation.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(dayOf(donation))}</Table.Td>
                <Table.Td>{pluralize(donation.unit, 'unit')}</Table.Td>
                <Table.Td>
                  <Badge color={badge.color} variant="dot">
                    {badge.label}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {note ?? (
                    <Text span c="dimmed" size="sm">
                      —
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
