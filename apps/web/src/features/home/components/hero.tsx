import { Box, Button, Container, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { IconDroplet, IconHeartHandshake, IconUserPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@/app/paths';
import classes from './home.module.css';

export function Hero() {
  return (
    <Box component="section" className={classes.hero} aria-labelledby="hero-title">
      <Container size="lg">
        <Grid align="center" gutter={{ base: 'md', md: 48 }}>
          <Grid.Col span={{ base: 12, md: 8 }}>
            <Stack gap="lg">
              <span className={classes.heroBadge}>
                <IconDroplet size={16} fill="currentColor" aria-hidden />
                One donation can save up to 3 lives
              </span>
              <Title order={1} id="hero-title" className={classes.heroTitle}>
                Give Blood, Give Life
              </Title>
              <Text className={classes.heroText}>
                Every unit of blood you give can save up to 3 lives. Join our community of donors, or register
                as a patient to request the blood you need.
              </Text>
              <Group gap="md">
                <Button
                  component={Link}
                  to={paths.donor.signup}
                  size="lg"
                  className={classes.heroAction}
                  variant="white"
                  color="blood"
                  leftSection={<IconUserPlus size={20} aria-hidden />}
                >
                  Become a Donor
                </Button>
                <Button
                  component={Link}
                  to={paths.patient.signup}
                  size="lg"
                  className={classes.heroAction}
                  variant="outline"
                  color="white"
                  leftSection={<IconHeartHandshake size={20} aria-hidden />}
                >
                  Register as Patient
                </Button>
              </Group>
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 4 }} visibleFrom="md">
            <div className={classes.heroArt} aria-hidden>
              <IconDroplet size={150} stroke={1.2} fill="rgba(255,255,255,0.9)" color="white" />
            </div>
          </Grid.Col>
        </Grid>
      </Container>
    </Box>
  );
}
