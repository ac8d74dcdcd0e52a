import type { ReactNode } from 'react';
import { Button, Card, Container, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconDroplet, IconShieldLock, IconStethoscope } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@/app/paths';
import classes from './home.module.css';

interface Service {
  title: string;
  description: string;
  action: string;
  to: string;
  icon: ReactNode;
}

const SERVICES: Service[] = [
  {
    title: 'Blood Donation',
    description:
      'Donate blood, follow each donation from approval to the patient, and earn Blood Hero achievements.',
    action: 'Donor Login',
    to: paths.donor.login,
    icon: <IconDroplet size={28} aria-hidden />,
  },
  {
    title: 'Patient Services',
    description: 'Check the blood available right now, request the units you need and follow your requests.',
    action: 'Patient Login',
    to: paths.patient.login,
    icon: <IconStethoscope size={28} aria-hidden />,
  },
  {
    title: 'Administration',
    description: 'Manage donors, patients, the blood inventory, requests and donations in one place.',
    action: 'Admin Login',
    to: paths.admin.login,
    icon: <IconShieldLock size={28} aria-hidden />,
  },
];

export function ServiceCards() {
  return (
    <Container size="lg" component="section" className={classes.section} aria-labelledby="services-title">
      <Stack gap={4} mb="xl" ta="center">
        <Title order={2} id="services-title">
          How We Can Help
        </Title>
        <Text c="dimmed">Sign in to the part of the blood bank that is yours.</Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
        {SERVICES.map((service) => (
          <Card
            key={service.title}
            withBorder
            radius="lg"
            p={{ base: 'lg', sm: 'xl' }}
            className={classes.card}
          >
            <Stack gap="sm" style={{ flex: 1 }}>
              <ThemeIcon size={52} radius="xl" variant="light">
                {service.icon}
              </ThemeIcon>
              <Title order={3}>{service.title}</Title>
              <Text c="dimmed" size="sm" style={{ flex: 1 }}>
                {service.description}
              </Text>
              <Button component={Link} to={service.to} variant="light" fullWidth mt="sm">
                {service.action}
              </Button>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </Container>
  );
}
