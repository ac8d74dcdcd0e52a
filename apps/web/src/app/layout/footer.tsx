import { Anchor, Box, Container, Divider, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconDroplet } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../paths';
import { PRODUCT_NAME } from './product-name';
import { BankContact } from './footer-contact';
import classes from './layout.module.css';

export function Footer() {
  return (
    <Box component="footer" className={classes.footer}>
      <Container size="lg">
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xl">
          <Stack gap="xs">
            <Group gap={8} wrap="nowrap">
              <IconDroplet size={22} fill="currentColor" color="#f4939b" aria-hidden />
              <Title order={2} size="h4" className={classes.footerHeading}>
                {PRODUCT_NAME}
              </Title>
            </Group>
            <Text size="sm">
              We connect blood donors with patients who need blood. Every donation counts, because donated
              blood saves lives.
            </Text>
          </Stack>

          <Stack gap="xs">
            <Title order={2} size="h4" className={classes.footerHeading}>
              Quick Links
            </Title>
            <Anchor component={Link} to={paths.home} size="sm" className={classes.footerLink}>
              Home
            </Anchor>
            <Anchor component={Link} to={paths.donor.signup} size="sm" className={classes.footerLink}>
              Become a Donor
            </Anchor>
            <Anchor component={Link} to={paths.patient.signup} size="sm" className={classes.footerLink}>
              Register as Patient
            </Anchor>
          </Stack>

          <Stack gap="xs">
            <Title order={2} size="h4" className={classes.footerHeading}>
              Contact Us
            </Title>
            <BankContact />
          </Stack>
        </SimpleGrid>

        <Divider my="lg" color="dark.4" />
        <Text size="sm" ta="center">
          © {new Date().getFullYear()} {PRODUCT_NAME}. All rights reserved.
        </Text>
      </Container>
    </Box>
  );
}
