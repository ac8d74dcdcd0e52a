import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { deferred, jsonResponse, mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { CATALOGUE, earned, gameState, LEADERBOARD, meHandler, signInAsDonor } from '../test/fixtures';
import { GameDashboard } from './game-dashboard';

function renderGame(
  handlers: Parameters<typeof mockApi>[0],
  props: Parameters<typeof GameDashboard>[0] = {},
) {
  signInAsDonor();
  const api = mockApi({
    'GET /api/users/me': meHandler(),
    'GET /api/game/leaderboard': () => jsonResponse(200, LEADERBOARD),
    'POST /api/game/donation-complete': () =>
      jsonResponse(409, { detail: 'No completed donation to reward' }),
    ...handlers,
  });
  return { api, ...renderScreen(<GameDashboard {...props} />, { path: '/donor/game' }) };
}

describe('GameDashboard', () => {
  it('shows a spinner, then level, streak, progress, tiles, achievements and the leaderboard', async () => {
    const state = deferred<Response>();
    const { api } = renderGame({ 'GET /api/game/state': () => state.promise });

    expect(screen.getByRole('heading', { level: 1, name: 'Blood Hero Game Dashboard' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading your game data');

    state.resolve(
      jsonResponse(
        200,
        gameState({
          points: 450,
          level: 3,
          level_start_points: 300,
          next_level_points: 600,
          streak: 3,
          total_donations: 3,
        }),
      ),
    );

    expect(await screen.findByText('Level 3', { selector: '.mantine-Badge-label' })).toBeInTheDocument();
    const streak = screen.getByText('3 donation streak');
    expect(streak.closest('.mantine-Badge-root')?.querySelector('[data-icon="fire"]')).not.toBeNull();

    // Level Progress (PRODUCT.md 3.4): level 3 spans 300..599, so 450 points is (450 - 300) / 300 = 50%.
    expect(screen.getByRole('heading', { name: 'Level Progress' })).toBeInTheDocument();
    expect(screen.getByTestId('level-progress-points')).toHaveTextContent('450 / 600 points');
    expect(screen.getByRole('progressbar', { name: 'Progress to level 4' })).toHaveAttribute(
      'aria-valuenow',
      '50',
    );
    expect(screen.getByText('Level 4')).toBeInTheDocument();
    expect(screen.getByText('50% of the way to level 4 (150 points to go)')).toBeInTheDocument();

    expect(screen.getByTestId('tile-points')).toHaveTextContent('450Total Points');
    expect(screen.getByTestId('tile-donations')).toHaveTextContent('3Total Donations');
    expect(screen.getByTestId('tile-streak')).toHaveTextContent('3Donation Streak');

    const mine = screen.getByRole('region', { name: 'Your Achievements' });
    const items = within(mine).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('First Time HeroComplete your first blood donation+100 points');
    expect(items[1]).toHaveTextContent('Regular HeroComplete 3 blood donations+300 points');

    const board = screen.getByRole('region', { name: 'Leaderboard' });
    const rows = await within(board).findAllByRole('row');
    const headers = within(board)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['Rank', 'Hero', 'Level', 'Points']);
    expect(rows[1]).toHaveTextContent('1Sanjay F.131,200');
    expect(rows[2]).toHaveTextContent('2Asha K. (You)8700');
    expect(rows[2]).toHaveAttribute('aria-current', 'true');
    expect(rows[3]).not.toHaveAttribute('aria-current');
    expect(api.requests.find((request) => request.path === '/api/game/leaderboard')).toBeDefined();
    expect(
      String(api.fetchMock.mock.calls.find(([url]) => String(url).includes('leaderboard'))?.[0]),
    ).toContain('limit=10');
  });

  it('shows no streak badge at a streak of 0 and the empty texts', async () => {
    renderGame({
      'GET /api/game/state': () =>
        jsonResponse(
          200,
          gameState({ points: 0, level: 1, streak: 0, total_donations: 0, achievements: [] }),
        ),
      'GET /api/game/leaderboard': () => jsonResponse(200, []),
    });

    expect(await screen.findByText('Level 1', { selector: '.mantine-Badge-label' })).toBeInTheDocument();
    expect(screen.queryByText(/donation streak/)).not.toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Progress to level 2' })).toHaveAttribute(
      'aria-valuenow',
      '0',
    );
    expect(
      screen.getByText('You have not earned any achievements yet. Donate blood to unlock your first one!'),
    ).toBeInTheDocument();
    expect(await screen.findByText('No leaderboard data available.')).toBeInTheDocument();
  });

  // PRODUCT.md 3.4: level n spans 100 x n points and starts at 50 x n x (n - 1): level 2 is
  // 100..299, level 3 is 300..599. The bar reads 0% at a level's start and never 100% before the next.
  it.each([
    { points: 100, level: 2, percent: 0, text: '0% of the way to level 3 (200 points to go)' },
    { points: 299, level: 2, percent: 99, text: '99% of the way to level 3 (1 point to go)' },
    { points: 300, level: 3, percent: 0, text: '0% of the way to level 4 (300 points to go)' },
    { points: 597, level: 3, percent: 99, text: '99% of the way to level 4 (3 points to go)' },
    { points: 599, level: 3, percent: 99, text: '99% of the way to level 4 (1 point to go)' },
  ])(
    'Level Progress at $points points (level $level) reads $text',
    async ({ points, level, percent, text }) => {
      renderGame({ 'GET /api/game/state': () => jsonResponse(200, gameState({ points, level })) });

      expect(
        await screen.findByText(`Level ${level}`, { selector: '.mantine-Badge-label' }),
      ).toBeInTheDocument();
      expect(screen.getByRole('progressbar', { name: `Progress to level ${level + 1}` })).toHaveAttribute(
        'aria-valuenow',
        String(percent),
      );
      expect(screen.getByText(text)).toBeInTheDocument();
      expect(screen.getByTestId('level-progress-points')).toHaveTextContent(
        `${points} / ${level === 2 ? 300 : 600} points`,
      );
    },
  );

  it('gives equal points one rank, and tells a donor tied with the last listed that they share it', async () => {
    const tied = [
      { id: 11, user_id: 21, name: 'Sanjay F.', level: 13, points: 1200 },
      { id: 12, user_id: 22, name: 'Rahul S.', level: 8, points: 700 },
      { id: 13, user_id: 23, name: 'Meera D.', level: 8, points: 700 },
    ];
    renderGame({
      'GET /api/game/state': () => jsonResponse(200, gameState({ points: 700 })),
      'GET /api/game/leaderboard': () => jsonResponse(200, tied),
    });
    const board = await screen.findByRole('region', { name: 'Leaderboard' });
    const rows = await within(board).findAllByRole('row');
    expect(rows.slice(1).map((row) => row.firstElementChild?.textContent)).toEqual(['1', '2', '2']);
    expect(board).toHaveTextContent(
      'You share rank 2 with 700 points; the table lists those who reached it first.',
    );
    expect(board).not.toHaveTextContent('You are not in the top');
  });

  it('tells a donor below the last listed that they are not in the top yet', async () => {
    renderGame({
      'GET /api/game/state': () => jsonResponse(200, gameState({ points: 200 })),
      'GET /api/game/leaderboard': () =>
        jsonResponse(
          200,
          LEADERBOARD.filter((entry) => entry.user_id !== 7),
        ),
    });
    const board = await screen.findByRole('region', { name: 'Leaderboard' });
    expect(
      await within(board).findByText('You are not in the top 2 yet. Every donation moves you up!'),
    ).toBeInTheDocument();
  });

  it('shows an empty leaderboard, without an error, when the leaderboard fails to load', async () => {
    renderGame({
      'GET /api/game/state': () => jsonResponse(200, gameState()),
      'GET /api/game/leaderboard': () => jsonResponse(403, { detail: 'Forbidden' }),
    });

    expect(await screen.findByText('No leaderboard data available.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByTestId('tile-points')).toHaveTextContent('700Total Points');
  });

  it('shows the Error! box with Retry when the game state fails, and loads on retry', async () => {
    let calls = 0;
    const { user } = renderGame({
      'GET /api/game/state': () => {
        calls += 1;
        return calls === 1 ? jsonResponse(400, { detail: 'Bad' }) : jsonResponse(200, gameState());
      },
    });

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error!');
    expect(alert).toHaveTextContent('Failed to load game data. Please try again.');
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));

    expect(await screen.findByTestId('tile-points')).toHaveTextContent('700Total Points');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('offers to create a game profile when there is none, then reloads', async () => {
    let created = false;
    const { api, user } = renderGame({
      'GET /api/game/state': () =>
        created
          ? jsonResponse(
              200,
              gameState({ points: 0, level: 1, streak: 0, total_donations: 0, achievements: [] }),
            )
          : jsonResponse(404, { detail: 'Game profile not found. Create one to start playing.' }),
      'POST /api/game/profiles': () => {
        created = true;
        return jsonResponse(201, { id: 9, points: 0, level: 1, donation_streak: 0 });
      },
    });

    expect(await screen.findByRole('heading', { name: 'No game profile' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create Game Profile' }));

    expect(await screen.findByText('Level 1', { selector: '.mantine-Badge-label' })).toBeInTheDocument();
    expect(screen.getByTestId('tile-points')).toHaveTextContent('0Total Points');
    expect(api.requests.filter((request) => request.path === '/api/game/state')).toHaveLength(2);
    // The button went with the answer: the keyboard goes on at a heading, not at the top of the page.
    expect(document.activeElement).toBe(screen.getAllByRole('heading')[0]);
  });

  it('creates one profile on a double-click, and shows it', async () => {
    let created = 0;
    const { api } = renderGame({
      'GET /api/game/state': () =>
        created > 0
          ? jsonResponse(
              200,
              gameState({ points: 0, level: 1, streak: 0, total_donations: 0, achievements: [] }),
            )
          : jsonResponse(404, { detail: 'Game profile not found. Create one to start playing.' }),
      'POST /api/game/profiles': () => {
        created += 1;
        return created === 1
          ? jsonResponse(201, { id: 9, points: 0, level: 1, donation_streak: 0 })
          : jsonResponse(409, { detail: 'You already have a game profile.' });
      },
    });

    // Both clicks of a double-click arrive before React has drawn the button busy.
    const create = await screen.findByRole('button', { name: 'Create Game Profile' });
    fireEvent.click(create);
    fireEvent.click(create);

    expect(await screen.findByText('Level 1', { selector: '.mantine-Badge-label' })).toBeInTheDocument();
    expect(api.requests.filter((request) => request.path === '/api/game/profiles')).toHaveLength(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says why a profile could not be created', async () => {
    const { user } = renderGame({
      'GET /api/game/state': () => jsonResponse(404, { detail: 'Game profile not found.' }),
      'POST /api/game/profiles': () => jsonResponse(409, { detail: 'You already have a game profile.' }),
    });

    await user.click(await screen.findByRole('button', { name: 'Create Game Profile' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You already have a game profile.');
  });

  it('celebrates new achievements with the Achievement Unlocked! modal until Awesome! is pressed', async () => {
    const onCelebrated = vi.fn();
    const { user } = renderGame(
      { 'GET /api/game/state': () => jsonResponse(200, gameState()) },
      {
        newAchievements: [earned(CATALOGUE[1]!), earned(CATALOGUE[4]!), earned(CATALOGUE[2]!)],
        onCelebrated,
      },
    );

    const modal = await screen.findByRole('dialog', { name: 'Achievement Unlocked!' });
    expect(within(modal).getByRole('heading', { name: 'Regular Hero' })).toBeInTheDocument();
    expect(within(modal).getByText('Complete 3 blood donations')).toBeInTheDocument();
    expect(within(modal).getByText('+300 points')).toBeInTheDocument();
    expect(within(modal).getByText('+ 2 more achievements unlocked!')).toBeInTheDocument();

    await user.click(within(modal).getByRole('button', { name: 'Awesome!' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(onCelebrated).toHaveBeenCalledOnce();
  });

  it('shows no count line for a single new achievement, and no modal without new achievements', async () => {
    const { unmount } = renderGame(
      { 'GET /api/game/state': () => jsonResponse(200, gameState()) },
      { newAchievements: [earned(CATALOGUE[0]!)] },
    );
    const modal = await screen.findByRole('dialog', { name: 'Achievement Unlocked!' });
    expect(within(modal).getByRole('heading', { name: 'First Time Hero' })).toBeInTheDocument();
    expect(within(modal).queryByText(/more achievements unlocked/)).not.toBeInTheDocument();
    unmount();

    renderGame({ 'GET /api/game/state': () => jsonResponse(200, gameState()) });
    expect(await screen.findByTestId('tile-points')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('renders its title as h2 inside the dashboard tab', async () => {
    renderGame({ 'GET /api/game/state': () => jsonResponse(200, gameState()) }, { headingOrder: 2 });

    expect(screen.getByRole('heading', { level: 2, name: 'Blood Hero Game Dashboard' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 3, name: 'Level Progress' })).toBeInTheDocument();
  });
});
