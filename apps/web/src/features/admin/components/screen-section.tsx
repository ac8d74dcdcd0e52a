import type { ReactNode } from 'react';
import { Group, Stack, Text, Title } from '@mantine/core';

/**
 * One titled part of an admin screen (a region named by its h2, so screen readers can jump to it),
 * with a line of context and its controls on the right (below the title on a phone). `#id` links
 * to it (PartLinks); its heading then takes focus.
 */
export function ScreenSection({
  id,
  title,
  description,
  actions,
  printed = true,
  children,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  /** `false`: left off the paper when the screen is printed (print.css). */
  printed?: boolean;
  children: ReactNode;
}) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} data-print={printed ? undefined : 'hide'}>
      <Group justify="space-between" align="flex-end" gap="sm" mb="sm" wrap="wrap">
        <Stack gap={2} style={{ flex: '1 1 260px' }}>
          <Title order={2} size="h3" id={`${id}-heading`} tabIndex={-1}>
            {title}
          </Title>
          {description ? (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          ) : null}
        </Stack>
        {actions}
      </Group>
      {children}
    </section>
  );
}
