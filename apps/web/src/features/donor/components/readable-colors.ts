/**
 * Mantine's "light" variants draw text in shade 6, which falls under 4.5:1 on their tinted
 * background for yellow, orange, teal and red. These keep the tint and darken the text; yellow
 * and orange stay too light even at shade 9, so their text is dark.
 */
export function alertTitleStyles(color: 'teal' | 'red' | 'yellow') {
  const text = color === 'yellow' ? 'var(--mantine-color-dark-7)' : `var(--mantine-color-${color}-9)`;
  return { title: { color: text } };
}
