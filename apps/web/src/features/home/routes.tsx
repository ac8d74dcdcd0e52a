import { Box, Container, Grid } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { CallToAction } from './components/call-to-action';
import { CompatibilityTable } from './components/compatibility-table';
import { Hero } from './components/hero';
import { ServiceCards } from './components/service-cards';
import { StatsStrip } from './components/stats-strip';
import { SupplyStrip } from './components/supply-strip';
import { WhyDonate } from './components/why-donate';
import classes from './components/home.module.css';

/**
 * The landing page (spec section 2, home page), in the order the spec lists its sections, with the
 * blood supply today (PRODUCT.md 3.8) under the hero.
 */
export function HomeRoute() {
  useDocumentTitle('Blood Bank: Give Blood, Give Life');
  return (
    <>
      <Hero />
      <SupplyStrip />
      <ServiceCards />
      <Box className={classes.sectionAlt}>
        <Container size="lg">
          <Grid gutter="xl">
            <Grid.Col span={{ base: 12, md: 7 }}>
              <CompatibilityTable />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 5 }}>
              <WhyDonate />
            </Grid.Col>
          </Grid>
        </Container>
      </Box>
      <StatsStrip />
      <CallToAction />
    </>
  );
}
