import { Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useAuth } from '@/lib/auth/auth-context';
import { MESSAGES } from '@bloodbank/shared/constants';
import { useLeaderboard } from '../api/get-leaderboard';
import { formatCount } from '@/lib/format';

/**
 * Spec section 2: Rank, Hero, Level, Points, the donor's own row highlighted and marked (You).
 * A failed load shows the empty list (spec section 8: "silently an empty list"). Equal points share
 * a rank (1, 1, 3): with 73 donors on the top score, the table's 1 to 10 ranked them by who got there
 * first, and told one of them, as high as anyone, that they were not in the top 10.
 */
export function LeaderboardTable({
  headingOrder,
  ownPoints,
}: {
  headingOrder: 2 | 3 | 4;
  ownPoints?: number;
}) {
  const auth = useAuth();
  const leaderboard = useLeaderboard();
  const entries = leaderboard.data ?? [];
  const ownId = auth.user?.userId;

  let body;
  if (leaderboard.isPending) {
    body = (
      <Stack gap="xs" aria-busy="true">
        <Text size="sm" c="dimmed">
          Loading the leaderboard…
        </Text>
        {[0, 1, 2].map((row) => (
          <Skeleton key={row} height={28} radius="sm" />
        ))}
      </Stack>
    );
  } else if (entries.length === 0) {
    body = (
      <Text c="dimmed" size="sm" py="md" ta="center">
        {MESSAGES.noLeaderboard}
      </Text>
    );
  } else {
    body = (
      <Table.ScrollContainer minWidth={300} type="native">
        <Table verticalSpacing="xs" aria-labelledby="leaderboard-title">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Rank</Table.Th>
              <Table.Th scope="col">Hero</Table.Th>
              <Table.Th scope="col" ta="right">
                Level
              </Table.Th>
              <Table.Th scope="col" ta="right">
                Points
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.map((entry) => {
              const own = entry.user_id === ownId;
              return (
                <Table.Tr
                  key={entry.id}
                  bg={own ? 'blood.0' : undefined}
                  fw={own ? 700 : undefined}
                  aria-current={own ? 'true' : undefined}
                  data-own={own || undefined}
                >
                  <Table.Td>{rankOf(entries, entry.points)}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {entry.name}
                    {own ? ' (You)' : ''}
                  </Table.Td>
                  <Table.Td ta="right">{entry.level}</Table.Td>
                  <Table.Td ta="right">{formatCount(entry.points)}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
        {entries.some((entry) => entry.user_id === ownId) ? null : ownPoints !== undefined &&
          ownPoints > 0 &&
          ownPoints >= entries.at(-1)!.points ? (
          <Text size="sm" c="dimmed" mt="sm">
            You share rank {rankOf(entries, ownPoints)} with {formatCount(ownPoints)} points; the table lists
            those who reached it first.
          </Text>
        ) : (
          <Text size="sm" c="dimmed" mt="sm">
            You are not in the top {entries.length} yet. Every donation moves you up!
          </Text>
        )}
      </Table.ScrollContainer>
    );
  }

  return (
    <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby="leaderboard-title">
      <Title order={headingOrder} size="h4" mb="sm" id="leaderboard-title">
        Leaderboard
      </Title>
      {body}
    </Paper>
  );
}

/** Competition ranking: one more than the heroes with more points (the list comes highest first). */
function rankOf(entries: readonly { points: number }[], points: number): number {
  const above = entries.findIndex((entry) => entry.points <= points);
  return (above === -1 ? entries.length : above) + 1;
}
