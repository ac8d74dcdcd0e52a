import type { ReactNode } from 'react';
import { Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';

interface EmptyStateProps {
  title: string;
  description?: ReactNode;
  icon?: ReactNode;
  /** What the user can do about it, e.g. a button to create the first item. */
  action?: ReactNode;
  headingOrder?: 2 | 3 | 4;
}

/** Nothing to show yet: says so, and says what to do next. */
export function EmptyState({ title, description, icon, action, headingOrder = 3 }: EmptyStateProps) {
  return (
    <Stack align="center" gap="xs" py="xl" px="md" ta="center">
      <ThemeIcon size={56} radius="xl" variant="light" color="gray" aria-hidden>
        {icon ?? <IconInbox size={28} />}
      </ThemeIcon>
      <Title order={headingOrder} size="h4">
        {title}
      </Title>
      {description ? (
        <Text c="dimmed" size="sm" maw={440}>
          {description}
        </Text>
      ) : null}
      {action}
    </Stack>
  );
}
