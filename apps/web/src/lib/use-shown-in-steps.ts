import { useState } from 'react';

/**
 * Moves focus to the element `selector` finds once React has drawn it: after "show more" added
 * items, to the first of them (the button may be gone, and a screen reader hears where the list
 * goes on).
 */
export function focusWhenDrawn(selector: string): void {
  requestAnimationFrame(() => document.querySelector<HTMLElement>(selector)?.focus());
}

/**
 * A long list shown `step` items at a time: those `listed` so far, how many the next step adds
 * (`next`, 0 when all are listed), and `showMore`, which adds them and moves focus to the first
 * (`selectorOf` finds its element, which must take focus: tabIndex -1).
 */
export function useShownInSteps<T>(items: readonly T[], step: number, selectorOf: (item: T) => string) {
  const [shown, setShown] = useState(step);
  const listed = items.slice(0, shown);
  const showMore = () => {
    const firstAdded = items[shown];
    setShown(shown + step);
    if (firstAdded !== undefined) focusWhenDrawn(selectorOf(firstAdded));
  };
  return { listed, next: Math.min(items.length - listed.length, step), showMore };
}
