import { Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { IconDroplet, IconFirstAidKit } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@/app/paths';
import classes from './home.module.css';

export function CallToAction() {
  return (
    <Container size="md" component="section" className={classes.cta} aria-labelledby="cta-title">
      <Stack align="center" gap="md">
        <Title order={2} id="cta-title">
          Ready to Save Lives?
        </Title>
        <Text c="dimmed" maw={560}>
          Join our community of blood donors today, or sign in as a patient to request the blood you need.
        </Text>
        <Group justify="center" gap="md" mt="sm">
          <Button
            component={Link}
            to={paths.donor.signup}
            size="lg"
            leftSection={<IconDroplet size={20} aria-hidden />}
          >
            Become a Donor
          </Button>
          <Button
            component={Link}
            to={paths.patient.login}
            size="lg"
            variant="outline"
            leftSection={<IconFirstAidKit size={20} aria-hidden />}
          >
            Need Blood?
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
