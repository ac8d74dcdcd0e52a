import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Notification } from '@bloodbank/shared/notifications';
import { jsonResponse, mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { NotificationsScreen } from './notifications-screen';

const notification = (id: number, read = false): Notification => ({
  id,
  kind: 'callout',
  title: `Message ${id}`,
  body: 'Your blood group is needed.',
  created_at: new Date(Date.now() - (100 - id) * 60_000).toISOString(),
  read,
});
/** Ids from `from` down to `to`, newest first. */
const range = (from: number, to: number) =>
  Array.from({ length: from - to + 1 }, (_, index) => notification(from - index));

describe('NotificationsScreen', () => {
  it('shows older notifications on "Show older notifications", after the last one shown, and marks them read', async () => {
    const api = mockApi({
      'GET /api/notifications': (request) => {
        const before = request.query.get('before');
        if (before === null) return jsonResponse(200, { items: range(53, 4), unread: 53, more: true });
        expect(before).toBe('4');
        return jsonResponse(200, { items: range(3, 1), unread: 53, more: false });
      },
      'POST /api/notifications/read': () => new Response(null, { status: 204 }),
    });
    const { user } = renderScreen(<NotificationsScreen />);

    expect(await screen.findByText('Message 53')).toBeInTheDocument();
    expect(screen.queryByText('Message 3')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show older notifications' }));

    expect(await screen.findByText('Message 1')).toBeInTheDocument();
    expect(screen.getByText('Message 3')).toBeInTheDocument();
    // Focus moves to the first one added (the button is gone).
    await waitFor(() => expect(document.activeElement).toHaveTextContent('Message 3'));
    // Nothing older is left to show.
    expect(screen.queryByRole('button', { name: 'Show older notifications' })).not.toBeInTheDocument();

    // An older one marked read on its own, then all of them.
    await user.click(screen.getByRole('button', { name: 'Mark "Message 2" as read' }));
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Mark "Message 2" as read' })).not.toBeInTheDocument(),
    );
    await user.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Mark "Message 1" as read' })).not.toBeInTheDocument(),
    );
    await waitFor(() =>
      expect(
        api.requests.some(
          (request) => request.method === 'POST' && request.path === '/api/notifications/read',
        ),
      ).toBe(true),
    );
  });

  it('offers no "Show older notifications" when every notification is shown', async () => {
    mockApi({
      'GET /api/notifications': () => jsonResponse(200, { items: range(2, 1), unread: 2, more: false }),
    });
    renderScreen(<NotificationsScreen />);
    expect(await screen.findByText('Message 2')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show older notifications' })).not.toBeInTheDocument();
  });

  it('keeps every notification in sight when a new one pushes the latest page down after older ones were shown', async () => {
    let latestCalls = 0;
    mockApi({
      'GET /api/notifications': (request) => {
        if (request.query.get('before') !== null)
          return jsonResponse(200, { items: range(3, 1), unread: 54, more: false });
        latestCalls += 1;
        // Message 54 arrives after the first answer: the latest page is then 54..5, and 4 is in neither answer.
        return latestCalls === 1
          ? jsonResponse(200, { items: range(53, 4), unread: 53, more: true })
          : jsonResponse(200, { items: range(54, 5), unread: 54, more: true });
      },
      'POST /api/notifications/read': () => new Response(null, { status: 204 }),
    });
    const { user } = renderScreen(<NotificationsScreen />);
    await user.click(await screen.findByRole('button', { name: 'Show older notifications' }));
    expect(await screen.findByText('Message 1')).toBeInTheDocument();

    // Marking one read asks for the latest page again, which now starts at 54.
    await user.click(screen.getByRole('button', { name: 'Mark "Message 53" as read' }));
    expect(await screen.findByText('Message 54')).toBeInTheDocument();
    const titles = screen
      .getAllByText(/Message \d+$/)
      .map((title) => title.textContent?.replace('Unread: ', ''));
    expect(titles).toEqual(range(54, 1).map((item) => item.title));
  });

  it('keeps focus on the page when "Mark as read" or "Mark all as read" goes away or is disabled', async () => {
    let unread = [2, 1];
    mockApi({
      'GET /api/notifications': () =>
        jsonResponse(200, {
          items: range(2, 1).map((item) => ({ ...item, read: !unread.includes(item.id) })),
          unread: unread.length,
          more: false,
        }),
      'POST /api/notifications/read': (request) => {
        const body = request.json() as { ids?: number[] };
        unread = body.ids ? unread.filter((id) => !body.ids?.includes(id)) : [];
        return new Response(null, { status: 204 });
      },
    });
    const { user } = renderScreen(<NotificationsScreen />);

    await user.click(await screen.findByRole('button', { name: 'Mark "Message 2" as read' }));
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Mark "Message 2" as read' })).not.toBeInTheDocument(),
    );
    // On the notification just read, whose button is gone.
    expect(document.activeElement).toBe(screen.getByText('Message 2').closest('li'));

    await user.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeDisabled());
    // On the count, which says there is nothing unread.
    expect(document.activeElement).toBe(screen.getByRole('status'));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('You are all caught up.'));
  });
});
