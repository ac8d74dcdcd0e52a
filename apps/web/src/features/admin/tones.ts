/**
 * Mantine's own shades 6-9 of orange and teal fall under a 4.5:1 contrast as small text on their
 * light tints; these darker text colours keep badges and hints readable (axe color-contrast).
 */
export const TEXT_TONE = {
  orange: '#8f3b00',
  teal: '#05614a',
  red: '#a51d1d',
  blue: '#1c4f97',
  gray: '#343a40',
} as const;

/** Red actions and messages: red 9 is the lightest Mantine red with 4.5:1 against white. */
export const DANGER = 'red.9';
