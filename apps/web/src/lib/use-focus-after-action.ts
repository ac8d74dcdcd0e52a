import { useState } from 'react';

/**
 * For a dialog whose action removes or disables the control that opened it (an Approve button whose
 * row is then decided, a Discard button whose unit leaves the list): after the action, focus goes to
 * `target` instead of back to that control, where it would fall to the top of the document
 * (WCAG 2.4.3). Closing the dialog without acting still gives focus back to the control.
 */
export function useFocusAfterAction() {
  const [acted, setActed] = useState(false);
  return {
    /** The dialog's `returnFocus`. */
    returnFocus: !acted,
    /** When the dialog opens. */
    reset: () => setActed(false),
    /** When the action succeeded, as the dialog closes. */
    moveTo: (target: () => HTMLElement | null) => {
      setActed(true);
      requestAnimationFrame(() => {
        const element = target();
        if (!element) return;
        if (
          !element.hasAttribute('tabindex') &&
          !element.matches('a[href], button, input, select, textarea')
        ) {
          element.tabIndex = -1;
        }
        element.focus();
      });
    },
  };
}

/** The page's heading: where a screen reader user goes on from after an action on a list row. */
export const pageHeading = () =>
  document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('h1');

/**
 * The heading of the section `element` is in, else the page's: where the keyboard goes on when an
 * action takes `element` away (made focusable from script if it is not).
 */
export function sectionHeadingOf(element: HTMLElement): HTMLElement | null {
  const heading = element.closest('section')?.querySelector<HTMLElement>('h1, h2, h3, h4') ?? pageHeading();
  if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  return heading;
}
