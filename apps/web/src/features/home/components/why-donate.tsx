import { Button, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconUserPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@/app/paths';

const REASONS = [
  'One donation can save up to 3 lives.',
  'Blood cannot be made in a factory: patients depend on donors.',
  'Accident victims, surgery and cancer patients and new mothers all need it.',
  'Donated blood keeps for only a few weeks, so supplies need renewing all the time.',
  'You get a free mini health check: pulse, blood pressure and haemoglobin.',
  'Earn points, levels and achievements as a Blood Hero.',
];

export function WhyDonate() {
  return (
    <Paper
      component="section"
      withBorder
      radius="lg"
      p={{ base: 'lg', sm: 'xl' }}
      aria-labelledby="why-donate-title"
      h="100%"
    >
      <Stack gap="md">
        <Title order={2} id="why-donate-title">
          Why Donate Blood?
        </Title>
        <Text c="dimmed">A single hour of your time makes a difference that lasts.</Text>
        <List
          spacing="sm"
          lh={1.5}
          styles={{ itemWrapper: { alignItems: 'flex-start' }, itemIcon: { marginTop: 1 } }}
          icon={
            <ThemeIcon size={24} radius="xl" color="teal.8" aria-hidden>
              <IconCheck size={14} stroke={3} />
            </ThemeIcon>
          }
        >
          {REASONS.map((reason) => (
            <List.Item key={reason}>{reason}</List.Item>
          ))}
        </List>
        <Button
          component={Link}
          to={paths.donor.signup}
          size="md"
          leftSection={<IconUserPlus size={18} aria-hidden />}
          mt="sm"
          style={{ alignSelf: 'flex-start' }}
        >
          Register to Donate Blood
        </Button>
      </Stack>
    </Paper>
  );
}
