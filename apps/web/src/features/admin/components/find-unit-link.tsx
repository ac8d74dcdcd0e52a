import type { MouseEvent, ReactNode } from 'react';
import { Anchor, Button } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { jumpToPart } from '@/lib/use-scroll-to-hash';
import { BLOOD_ANCHORS } from '../anchors';

const HREF = `#${BLOOD_ANCHORS.unitSearch}`;

/**
 * Moves to Manage Blood's "Unit number" search and focuses it. A click opening a new tab or window
 * (a modifier key, the middle button) is left to the browser: the page opens there at the hash.
 */
function jumpToUnitSearch(event: MouseEvent<HTMLAnchorElement>) {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  if (jumpToPart(BLOOD_ANCHORS.unitSearch)) event.preventDefault();
}

/** At the top of Manage Blood: the bag search is far down the page, below the stock and the forms, on a phone. */
export function FindUnitButton() {
  return (
    <Button
      component="a"
      href={HREF}
      onClick={jumpToUnitSearch}
      variant="default"
      leftSection={<IconSearch size={16} aria-hidden />}
    >
      Find a bag by its number
    </Button>
  );
}

/** The same, as a link inside a sentence: underlined, as colour alone does not tell it from the text (axe link-in-text-block). */
export function FindUnitLink({ children }: { children: ReactNode }) {
  return (
    <Anchor href={HREF} onClick={jumpToUnitSearch} inherit underline="always">
      {children}
    </Anchor>
  );
}
