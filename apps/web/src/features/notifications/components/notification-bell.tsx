import { useEffect, useRef, useState } from 'react';
import { ActionIcon, Anchor, Box, Button, Group, Indicator, Loader, Popover, Text } from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';
import { IconBell } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '@/app/paths';
import { errorMessage } from '@/lib/api-client';
import { useNotifications } from '../api/get-notifications';
import { markReadMutationKey, useMarkNotificationsRead } from '../api/mark-notifications-read';
import { notificationKeys } from '../api/query-keys';
import { NotificationItems } from './notification-items';
import classes from './notifications.module.css';

/** How many of the latest notifications the bell's list shows; the page has the rest. */
const SHOWN = 5;

export function bellLabel(unread: number): string {
  return unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
}

/**
 * The header's bell for any signed-in user (PRODUCT.md 3.8): the unread count on it, and the latest
 * notifications in a popover with "Mark all as read" and a link to the whole list. Loaded after
 * sign-in only, so a visitor's first screen never downloads it.
 */
export function NotificationBell() {
  const [opened, setOpened] = useState(false);
  const bellRef = useRef<HTMLButtonElement>(null);
  const headingRef = useRef<HTMLParagraphElement>(null);
  const notifications = useNotifications();
  const markRead = useMarkNotificationsRead();
  useNewsAfterChanges();

  // The dropdown closes itself on Escape only while focus is inside it; from the bell (or anywhere
  // else) Escape must close it too, and focus goes back to the bell.
  useWindowEvent('keydown', (event) => {
    if (!opened || event.key !== 'Escape' || event.defaultPrevented) return;
    event.preventDefault();
    setOpened(false);
    bellRef.current?.focus();
  });
  // A link followed from the dropdown leaves the page: focus belongs to the new page (app-layout),
  // not back on the bell.
  const [leaving, setLeaving] = useState(false);

  const unread = notifications.data?.unread ?? 0;
  const items = notifications.data?.items.slice(0, SHOWN) ?? [];

  let body;
  if (notifications.isPending) {
    body = (
      <Group justify="center" py="lg" role="status">
        <Loader size="sm" />
        <Text size="sm">Loading notifications…</Text>
      </Group>
    );
  } else if (notifications.isError && !notifications.data) {
    body = (
      <Text size="sm" c="red.9" p="md" role="alert">
        {errorMessage(notifications.error, 'Your notifications could not be loaded. Please try again.')}
      </Text>
    );
  } else if (items.length === 0) {
    body = (
      <Text size="sm" c="dimmed" p="md" ta="center">
        No notifications yet
      </Text>
    );
  } else {
    body = (
      <NotificationItems items={items} variant="compact" onRead={(id) => markRead.mutate({ ids: [id] })} />
    );
  }

  return (
    // The count sits on the button; the popover's target is the button itself, which carries
    // aria-expanded and aria-controls (a wrapping element may not).
    <Indicator
      label={unread > 99 ? '99+' : unread}
      disabled={unread === 0}
      size={18}
      offset={6}
      color="blood"
      // The button's name says the count; the number on it is for the eyes.
      attributes={{ indicator: { 'aria-hidden': true } }}
      className={classes.indicator}
    >
      <Popover
        opened={opened}
        onChange={setOpened}
        position="bottom-end"
        shadow="md"
        width={360}
        // Portalled at the end of the page (and covering a phone's screen): focus goes into it on
        // opening, stays there while it is open, and back to the bell when it closes.
        trapFocus
        returnFocus={!leaving}
        styles={{ dropdown: { padding: 0, maxWidth: 'calc(100vw - 16px)' } }}
      >
        <Popover.Target>
          <ActionIcon
            ref={bellRef}
            variant="subtle"
            color="gray"
            size={40}
            radius="xl"
            aria-label={bellLabel(unread)}
            onClick={() => {
              setLeaving(false);
              setOpened((open) => !open);
            }}
          >
            <IconBell size={22} aria-hidden />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown
          aria-label="Latest notifications"
          onClickCapture={(event) => {
            if ((event.target as HTMLElement).closest('a[href]')) setLeaving(true);
          }}
        >
          <Group justify="space-between" px="md" py="xs" className={classes.bellHeader} wrap="nowrap">
            {/* Where focus lands on opening, rather than on "Mark all as read", which one Enter would press. */}
            <Text fw={700} size="sm" ref={headingRef} tabIndex={-1} data-autofocus>
              Notifications
            </Text>
            <Button
              size="compact-sm"
              variant="subtle"
              onClick={() => {
                // The button is disabled once all are read: focus would fall out of the popover.
                headingRef.current?.focus();
                markRead.mutate({ all: true });
              }}
              disabled={unread === 0 || markRead.isPending}
            >
              Mark all as read
            </Button>
          </Group>
          {body}
          <Box px="md" py="xs" className={classes.bellFooter}>
            <Anchor
              component={Link}
              to={paths.notifications}
              size="sm"
              fw={600}
              onClick={() => setOpened(false)}
            >
              See all
            </Anchor>
          </Box>
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}

/**
 * A change the user just made (a booking, a cancellation) may have told them something: the list is
 * asked for again after any successful change other than marking notifications read.
 */
function useNewsAfterChanges() {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      queryClient.getMutationCache().subscribe((event) => {
        if (event.type !== 'updated' || event.action.type !== 'success') return;
        const key = event.mutation.options.mutationKey;
        if (key && key[0] === markReadMutationKey[0]) return;
        void queryClient.invalidateQueries({ queryKey: notificationKeys.list() });
      }),
    [queryClient],
  );
}

export default NotificationBell;
