/**
 * Mantine's "light" alerts draw their title in shade 6, under 4.5:1 on their own tint. Red keeps
 * its hue at shade 9; teal and yellow stay too light even at shade 9 (teal 9 reaches 4.49:1), so
 * their titles are dark and the tint and icon carry the colour.
 */
export function alertTitleStyles(color: 'teal' | 'red' | 'yellow') {
  const text = color === 'red' ? 'var(--mantine-color-red-9)' : 'var(--mantine-color-dark-7)';
  return { title: { color: text } };
}
