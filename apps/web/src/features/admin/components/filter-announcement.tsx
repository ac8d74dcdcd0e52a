import { useState } from 'react';
import { VisuallyHidden } from '@mantine/core';

/**
 * A search or a filter chosen changes a list out of sight of a screen reader: once the list for it
 * has come, a polite status says what it holds (WCAG 4.1.3). Nothing on the first load, and nothing
 * while the previous list is still shown.
 */
export function useFilterAnnouncement(
  query: { data?: { total: number } | undefined; isPlaceholderData: boolean },
  describe: (total: number) => string,
) {
  const [filtered, setFiltered] = useState(false);
  const total = query.data && !query.isPlaceholderData ? query.data.total : null;
  return {
    /** Call when staff change the search or a filter. */
    markFiltered: () => setFiltered(true),
    announcement: !filtered || total === null ? '' : describe(total),
  };
}

/** In the page from the start, so screen readers follow it before it says anything. */
export function FilterAnnouncement({ text }: { text: string }) {
  return (
    <VisuallyHidden role="status" aria-live="polite" aria-atomic="true">
      {text}
    </VisuallyHidden>
  );
}
