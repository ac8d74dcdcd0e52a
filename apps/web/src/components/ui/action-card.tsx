import type { ReactNode } from 'react';
import { Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { Link } from 'react-router';

interface ActionCardProps {
  title: string;
  description: string;
  to: string;
  icon: ReactNode;
}

/** A card that is one big link: a dashboard's shortcut to a task. */
export function ActionCard({ title, description, to, icon }: ActionCardProps) {
  return (
    <Card
      component={Link}
      to={to}
      withBorder
      radius="lg"
      p="lg"
      style={{ textDecoration: 'none', color: 'inherit' }}
    >
      <Group wrap="nowrap" align="flex-start" gap="md">
        <ThemeIcon size={48} radius="xl" variant="light" aria-hidden>
          {icon}
        </ThemeIcon>
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Title order={2} size="h4">
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        </Stack>
        <IconChevronRight size={20} aria-hidden style={{ flexShrink: 0, marginTop: 4 }} />
      </Group>
    </Card>
  );
}
