import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { dashboardHandler, donor, paged } from '../testing/fixtures';
import { PeopleScreen } from './people-screen';

/** The whole suite on two busy cores: a list may take more than waitFor's second to come. */
const SLOW = { timeout: 5000 };

describe('Manage Donors: what a search or a filter found, for a screen reader', () => {
  it('says nothing on first load, then the count or "No donors match" once the list has come', async () => {
    const others = [
      { ...donor, id: 12, username: 'asha.b' },
      { ...donor, id: 13, username: 'asha.c' },
    ];
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/donors': ({ query }) => {
        const search = query.get('search') ?? '';
        if (query.get('status') === 'deactivated') return jsonResponse(200, paged([]));
        if (search === 'asha') return jsonResponse(200, paged([donor, ...others]));
        if (search === 'asha.b') return jsonResponse(200, paged([others[0]]));
        if (search) return jsonResponse(200, paged([]));
        return jsonResponse(200, paged([donor, others[1]]));
      },
    });
    const { user } = renderScreen(<PeopleScreen kind="donors" />);
    expect(await screen.findAllByText('Asha Kulkarni')).toHaveLength(2);
    const status = screen
      .getAllByRole('status')
      .find((element) => element.getAttribute('aria-live') === 'polite' && element.textContent === '');
    expect(status).toBeDefined();
    expect(status).toHaveAttribute('aria-atomic', 'true');

    await user.type(screen.getByLabelText('Search donors'), 'asha{Enter}');
    await waitFor(() => expect(status).toHaveTextContent('3 donors found.'), SLOW);

    await user.click(screen.getByRole('button', { name: 'Clear the search box' }));
    await user.type(screen.getByLabelText('Search donors'), 'asha.b{Enter}');
    await waitFor(() => expect(status).toHaveTextContent('1 donor found.'), SLOW);

    await user.click(screen.getByRole('button', { name: 'Clear the search box' }));
    await user.type(screen.getByLabelText('Search donors'), 'zzz{Enter}');
    await waitFor(() => expect(status).toHaveTextContent('No donors match "zzz".'), SLOW);

    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    await waitFor(() => expect(status).toHaveTextContent('2 donors found.'), SLOW);

    await user.selectOptions(screen.getByLabelText('Status'), 'Deactivated');
    await waitFor(() => expect(status).toHaveTextContent('No deactivated donors.'), SLOW);
  });
});
