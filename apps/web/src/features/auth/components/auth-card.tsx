import type { ReactNode } from 'react';
import { Container, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';

interface AuthCardProps {
  title: string;
  subtitle: string;
  icon: ReactNode;
  children: ReactNode;
  size?: 'xs' | 'sm' | 'md';
}

/** The frame shared by the login and registration screens. */
export function AuthCard({ title, subtitle, icon, children, size = 'xs' }: AuthCardProps) {
  const maxWidth = { xs: 460, sm: 640, md: 820 }[size];
  return (
    <Container size={maxWidth} px={{ base: 'sm', sm: 'md' }} py={{ base: 'lg', sm: 48 }}>
      <Paper withBorder shadow="sm" radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <Stack gap={4} align="center" ta="center" mb="lg">
          <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
            {icon}
          </ThemeIcon>
          <Title order={1} size="h2" mt="xs">
            {title}
          </Title>
          <Text c="dimmed" size="sm">
            {subtitle}
          </Text>
        </Stack>
        {children}
      </Paper>
    </Container>
  );
}
