import { Text } from '@mantine/core';

/**
 * The footer's contact details while they load: words, not skeletons, because this is drawn on the
 * first screen, whose download has a budget (scripts/check-bundle-size.mjs).
 */
export function ContactLoading() {
  return (
    <Text size="sm" role="status">
      Loading contact details…
    </Text>
  );
}
