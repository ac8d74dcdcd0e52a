import type { ReactNode } from 'react';
import { Card, Group, Title } from '@mantine/core';

interface SectionCardProps {
  title: string;
  /** Links or buttons next to the title. */
  actions?: ReactNode;
  children: ReactNode;
  headingOrder?: 2 | 3;
  /** Stretch to the height of the grid cell, so cards side by side line up. */
  fill?: boolean;
}

/** A titled card: one part of a screen (the title is a heading, so screen readers can jump to it). */
export function SectionCard({ title, actions, children, headingOrder = 2, fill = false }: SectionCardProps) {
  return (
    <Card withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} h={fill ? '100%' : undefined}>
      <Group justify="space-between" align="center" gap="xs" mb="md" wrap="wrap">
        <Title order={headingOrder} size="h4">
          {title}
        </Title>
        {actions}
      </Group>
      {children}
    </Card>
  );
}
