import { Center, Loader, Text, VisuallyHidden } from '@mantine/core';

/** The spinner every screen shows while it waits; announced to screen readers once. */
export function PageLoader({
  label = 'Loading',
  visibleLabel = false,
}: {
  label?: string;
  visibleLabel?: boolean;
}) {
  return (
    <Center
      role="status"
      aria-live="polite"
      py={64}
      style={{ flexDirection: 'column', gap: 12 }}
      data-testid="page-loader"
    >
      <Loader size="lg" />
      {visibleLabel ? (
        <Text c="dimmed" size="sm">
          {label}…
        </Text>
      ) : (
        <VisuallyHidden>{label}…</VisuallyHidden>
      )}
    </Center>
  );
}
