import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Notification } from '@bloodbank/shared/notifications';
import { jsonResponse, mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { NotificationBell } from './notification-bell';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

const items: Notification[] = [
  {
    id: 3,
    kind: 'booking_confirmed',
    title: 'Your donation is booked',
    body: 'Thank you! Your donation is booked for 12 Mar. You can move or cancel it from your dashboard.',
    created_at: minutesAgo(5),
    read: false,
  },
  {
    id: 2,
    kind: 'callout',
    title: 'Your blood group is needed',
    body: 'O- is running low. Please book a donation if you can.',
    created_at: minutesAgo(180),
    read: false,
  },
  {
    id: 1,
    kind: 'collection_recorded',
    title: 'Thank you for donating',
    body: '100 points were added to your score.',
    created_at: minutesAgo(60 * 24 * 3),
    read: true,
  },
];

describe('NotificationBell', () => {
  it('shows the unread count, lists the latest with the unread ones marked, and marks all read', async () => {
    let list = { items, unread: 2, more: false };
    const api = mockApi({
      'GET /api/notifications': () => jsonResponse(200, list),
      'POST /api/notifications/read': () => {
        list = { items: items.map((item) => ({ ...item, read: true })), unread: 0, more: false };
        return new Response(null, { status: 204 });
      },
    });
    const { user } = renderScreen(<NotificationBell />);

    const bell = await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    expect(screen.getByText('2')).toBeInTheDocument();
    await user.click(bell);

    const popover = await screen.findByRole('dialog');
    const entries = within(popover).getAllByRole('listitem');
    expect(entries.map((entry) => entry.textContent)).toEqual([
      'Unread: Your donation is bookedThank you! Your donation is booked for 12 Mar. You can move or cancel it from your dashboard.5 minutes ago',
      'Unread: Your blood group is neededO- is running low. Please book a donation if you can.3 hours ago',
      'Thank you for donating100 points were added to your score.3 days ago',
    ]);
    expect(within(popover).getByRole('link', { name: 'See all' })).toHaveAttribute('href', '/notifications');

    await user.click(within(popover).getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Notifications' })).toBeInTheDocument());
    expect(screen.queryByText('2')).not.toBeInTheDocument();
    const marked = api.requests.filter((request) => request.method === 'POST');
    expect(marked.map((request) => request.json())).toEqual([{ all: true }]);
    expect(within(popover).queryByText(/Unread:/)).not.toBeInTheDocument();
    expect(within(popover).getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  });

  it('marks one read when it is clicked, and the count drops by one', async () => {
    let list = { items, unread: 2, more: false };
    const api = mockApi({
      'GET /api/notifications': () => jsonResponse(200, list),
      'POST /api/notifications/read': () => {
        list = {
          items: items.map((item) => (item.id === 2 ? { ...item, read: true } : item)),
          unread: 1,
          more: false,
        };
        return new Response(null, { status: 204 });
      },
    });
    const { user } = renderScreen(<NotificationBell />);
    await user.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    await user.click(await screen.findByRole('button', { name: /Your blood group is needed/ }));

    expect(await screen.findByRole('button', { name: 'Notifications, 1 unread' })).toBeInTheDocument();
    expect(screen.getByText('1')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Your blood group is needed/ })).not.toBeInTheDocument();
    expect(screen.getByText('Your blood group is needed')).toBeInTheDocument();
    expect(
      api.requests.filter((request) => request.method === 'POST').map((request) => request.json()),
    ).toEqual([{ ids: [2] }]);
  });

  it('says when there is nothing yet, and has no count', async () => {
    mockApi({ 'GET /api/notifications': () => jsonResponse(200, { items: [], unread: 0, more: false }) });
    const { user } = renderScreen(<NotificationBell />);
    await user.click(await screen.findByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText('No notifications yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  });

  it('puts the count back when marking read fails', async () => {
    mockApi({
      'GET /api/notifications': () => jsonResponse(200, { items, unread: 2, more: false }),
      'POST /api/notifications/read': () => jsonResponse(500, { detail: 'Internal Server Error' }),
    });
    const { user } = renderScreen(<NotificationBell />);
    await user.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    await user.click(screen.getByRole('button', { name: 'Mark all as read' }));
    expect(await screen.findByRole('button', { name: 'Notifications, 2 unread' })).toBeInTheDocument();
  });

  it('moves focus into the popover when opened from the keyboard, and Escape closes it from anywhere back to the bell', async () => {
    mockApi({ 'GET /api/notifications': () => jsonResponse(200, { items, unread: 2, more: false }) });
    const { user } = renderScreen(<NotificationBell />);
    const bell = await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    bell.focus();
    await user.keyboard('{Enter}');

    const popover = await screen.findByRole('dialog');
    // On its heading, not on "Mark all as read", which a second Enter would press.
    await waitFor(() => expect(within(popover).getByText('Notifications')).toHaveFocus());
    // Tab stays in the popover instead of going on through the page beneath it.
    await user.tab();
    expect(within(popover).getByRole('button', { name: 'Mark all as read' })).toHaveFocus();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(bell).toHaveFocus());

    // Escape with focus on the bell closes it too.
    await user.click(bell);
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    bell.focus();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bell).toHaveFocus();
  });

  it('keeps focus in the popover when "Mark all as read" or one notification is marked read', async () => {
    let list = { items, unread: 2, more: false };
    mockApi({
      'GET /api/notifications': () => jsonResponse(200, list),
      'POST /api/notifications/read': (request) => {
        const body = request.json() as { ids?: number[] };
        const read = (id: number) => !body.ids || body.ids.includes(id);
        list = {
          items: list.items.map((item) => (read(item.id) ? { ...item, read: true } : item)),
          unread: list.items.filter((item) => !item.read && !read(item.id)).length,
          more: false,
        };
        return new Response(null, { status: 204 });
      },
    });
    const { user } = renderScreen(<NotificationBell />);
    await user.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    const popover = await screen.findByRole('dialog');

    // The one marked read stays focused, now without its button.
    await user.click(await within(popover).findByRole('button', { name: /Your blood group is needed/ }));
    await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    expect(document.activeElement).toBe(
      within(popover).getByText('Your blood group is needed').closest('li'),
    );

    // "Mark all as read" is disabled afterwards: focus goes to the popover's heading.
    await user.click(within(popover).getByRole('button', { name: 'Mark all as read' }));
    await screen.findByRole('button', { name: 'Notifications' });
    expect(within(popover).getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
    expect(document.activeElement).toBe(within(popover).getByText('Notifications'));
  });
});
