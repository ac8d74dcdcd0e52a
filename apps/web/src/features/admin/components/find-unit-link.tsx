import type { ReactNode } from 'react';
import { Anchor, Button } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { jumpOnPlainClick } from '@/lib/use-scroll-to-hash';
import { BLOOD_ANCHORS } from '../anchors';

const HREF = `#${BLOOD_ANCHORS.unitSearch}`;

/** Moves to Manage Blood's "Unit number" search and focuses it. */
const jumpToUnitSearch = jumpOnPlainClick(BLOOD_ANCHORS.unitSearch);

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
