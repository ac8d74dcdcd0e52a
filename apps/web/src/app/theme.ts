import type { KeyboardEvent } from 'react';
import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';
import inputClasses from './inputs.module.css';

/**
 * A confident blood red with calm neutrals. Shade 7 is the primary: white text on it reaches 6.5:1
 * and it reads as red rather than maroon. Shade 6 (the "light" variant text) still passes 4.5:1.
 */
const blood: MantineColorsTuple = [
  '#fff0f1',
  '#ffdfe1',
  '#fbbcc1',
  '#f4939b',
  '#ec6a76',
  '#e24a58',
  '#d62839',
  '#b81d2c',
  '#9d1522',
  '#7f0d18',
];

/**
 * Hints sit under the input, so inputs side by side stay aligned whether or not one has a hint;
 * the error comes last, next to the hint it usually explains.
 */
const BELOW_INPUT: { inputWrapperOrder: ('label' | 'input' | 'description' | 'error')[] } = {
  inputWrapperOrder: ['label', 'input', 'description', 'error'],
};

/**
 * Mantine leaves the show/hide button of a password out of the Tab order (tabIndex -1) and hidden
 * from screen readers; a keyboard user could not see what they typed. Here it is a Tab stop, named
 * "Show password" with aria-pressed saying whether it is shown. Mantine toggles it on Space only;
 * Enter, which activates any other button, does the same (by handing Mantine a Space).
 */
const PASSWORD_TOGGLE = {
  tabIndex: 0,
  'aria-label': 'Show password',
  onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    event.currentTarget.dispatchEvent(new window.KeyboardEvent('keydown', { key: ' ', bubbles: true }));
  },
};

export const theme = createTheme({
  primaryColor: 'blood',
  primaryShade: { light: 7, dark: 6 },
  colors: { blood },
  black: '#1f2328',
  defaultRadius: 'md',
  cursorType: 'pointer',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", "Liberation Sans", Arial, sans-serif',
  headings: {
    fontWeight: '700',
    sizes: {
      h1: { fontSize: '2.25rem', lineHeight: '1.2' },
      h2: { fontSize: '1.75rem', lineHeight: '1.25' },
      h3: { fontSize: '1.25rem', lineHeight: '1.35' },
    },
  },
  focusRing: 'auto',
  // Menus, modals and other transitions switch off for people who ask their system for less motion.
  respectReducedMotion: true,
  components: {
    Button: { defaultProps: { fw: 600 } },
    // Plain objects, not Input.extend() or PasswordInput.extend(): extend() imports the component,
    // which would put the fields' code in the JavaScript every page loads first (4 KB gzip).
    // Every Input-based field (text, password, select, date): focus in blue, distinct from the red error.
    Input: { classNames: { input: inputClasses.input } },
    Anchor: { defaultProps: { underline: 'hover' } },
    // The placeholder is a focusable div inside role="menu", which only menu items may be (axe
    // aria-required-children, critical). Without it focus goes to the first item, as the ARIA menu
    // pattern expects.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    // Mantine's close buttons are icon-only with no accessible name (axe button-name, critical);
    // a screen may still pass a more specific label.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    // Mantine draws a dialog's title bar as <header>, which outside <main> and <article> is a second
    // "banner" landmark beside the page's own (axe landmark-no-duplicate-banner): a plain div here,
    // the dialog itself being named by its title.
    ModalHeader: { defaultProps: { component: 'div' } },
    DrawerHeader: { defaultProps: { component: 'div' } },
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } },
    PasswordInput: { defaultProps: { ...BELOW_INPUT, visibilityToggleButtonProps: PASSWORD_TOGGLE } },
    ...Object.fromEntries(
      ['TextInput', 'NativeSelect', 'Textarea', 'FileInput', 'NumberInput', 'Select', 'DateInput'].map(
        (name) => [name, { defaultProps: BELOW_INPUT }],
      ),
    ),
  },
});

/**
 * Mantine's default "dimmed" text (gray 6) and error red (red 6) fall below the WCAG AA contrast of
 * 4.5:1 on white; these keep secondary text and field errors readable.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': '#495057',
    '--mantine-color-error': '#c92a2a',
    '--mantine-color-placeholder': '#6c757d',
  },
  dark: {},
});
