import type { ReactNode } from 'react';
import { Container } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { PageHeader } from '@/components/ui/page-header';
import { AdminNav } from './admin-nav';

interface AdminPageProps {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}

/** Every admin screen: the admin navigation, the h1 with its line of context, then the content. */
export function AdminPage({ title, description, actions, children }: AdminPageProps) {
  useDocumentTitle(`${title} · Blood Bank`);
  return (
    <Container size="lg" py="xl">
      <AdminNav />
      <PageHeader title={title} description={description} actions={actions} />
      {children}
    </Container>
  );
}
