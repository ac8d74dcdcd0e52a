import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { CATALOGUE, earned } from '../test/fixtures';
import { AchievementsGallery } from './achievements-gallery';

function renderGallery(handlers: Parameters<typeof mockApi>[0]) {
  const api = mockApi(handlers);
  return { api, ...renderScreen(<AchievementsGallery />) };
}

describe('AchievementsGallery', () => {
  it('highlights the earned achievements with an Earned badge and greys out the others', async () => {
    renderGallery({
      'GET /api/game/achievements': () =>
        jsonResponse(200, [...CATALOGUE, { id: 9, name: 'Night Owl', description: 'Donate after 8 pm', points_reward: 50, icon: 'owl_badge' }]),
      'GET /api/game/achievements/me': () => jsonResponse(200, [earned(CATALOGUE[0]!), earned(CATALOGUE[4]!)]),
    });

    expect(await screen.findByTestId('gallery-count')).toHaveTextContent('2 of 6 earned');
    const cards = screen.getAllByRole('listitem');
    expect(cards).toHaveLength(6);

    const first = screen.getByTestId('achievement-first_hero_badge');
    expect(first).toHaveAttribute('data-earned', 'true');
    expect(within(first).getByText('Earned')).toBeInTheDocument();
    expect(within(first).getByRole('heading', { name: 'First Time Hero' })).toBeInTheDocument();
    expect(first).toHaveTextContent('Complete your first blood donation');
    expect(first).toHaveTextContent('+100 points');
    expect(screen.getByTestId('achievement-streak_badge')).toHaveAttribute('data-earned', 'true');

    const master = screen.getByTestId('achievement-master_badge');
    expect(master).toHaveAttribute('data-earned', 'false');
    expect(within(master).queryByText('Earned')).not.toBeInTheDocument();
    expect(within(master).getByText('Not earned yet')).toBeInTheDocument();
    expect(master).toHaveTextContent('+1000 points');

    // One icon per key, and the default for any other key.
    const iconOf = (testId: string) => screen.getByTestId(testId).querySelector('svg[data-icon]')?.getAttribute('data-icon');
    expect(iconOf('achievement-first_hero_badge')).toBe('first_hero_badge');
    expect(iconOf('achievement-regular_hero_badge')).toBe('regular_hero_badge');
    expect(iconOf('achievement-super_hero_badge')).toBe('super_hero_badge');
    expect(iconOf('achievement-master_badge')).toBe('master_badge');
    expect(iconOf('achievement-streak_badge')).toBe('streak_badge');
    expect(iconOf('achievement-owl_badge')).toBe('default');
    expect(screen.getByTestId('achievement-owl_badge').querySelector('svg.tabler-icon-award')).not.toBeNull();
  });

  it('shows the spec empty text when there are no achievements', async () => {
    renderGallery({
      'GET /api/game/achievements': () => jsonResponse(200, []),
      'GET /api/game/achievements/me': () => jsonResponse(200, []),
    });

    expect(await screen.findByText('No achievements available yet. Check back soon!')).toBeInTheDocument();
  });

  it('says the achievements could not be loaded and retries', async () => {
    let calls = 0;
    const { user } = renderGallery({
      'GET /api/game/achievements': () => {
        calls += 1;
        return calls === 1 ? jsonResponse(400, { detail: 'Bad' }) : jsonResponse(200, CATALOGUE);
      },
      'GET /api/game/achievements/me': () => jsonResponse(200, []),
    });

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load achievements data. Please try again.');
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));

    expect(await screen.findByTestId('gallery-count')).toHaveTextContent('0 of 5 earned');
  });

  it('says the donor achievement data could not be loaded when only that fails', async () => {
    renderGallery({
      'GET /api/game/achievements': () => jsonResponse(200, CATALOGUE),
      'GET /api/game/achievements/me': () => jsonResponse(400, { detail: 'Bad' }),
    });

    expect(await screen.findByRole('alert')).toHaveTextContent('Unable to load achievement data. Please try again later.');
  });
});
