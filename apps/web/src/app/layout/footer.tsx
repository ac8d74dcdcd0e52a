import {
  Anchor,
  Box,
  Container,
  Divider,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconDroplet, IconMail, IconPhone } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../paths';
import { telHref } from '@bloodbank/shared/contact';
import { useBankContact } from '@/lib/bank-contact';
import { PRODUCT_NAME } from './product-name';
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

/** The bank's phone and e-mail as the server is configured (BANK_PHONE, BANK_EMAIL). */
function BankContact() {
  const contact = useBankContact();
  if (contact.isPending) {
    return (
      <Stack gap="xs" role="status" aria-busy="true">
        <VisuallyHidden>Loading contact details</VisuallyHidden>
        <Skeleton height={16} width={160} />
        <Skeleton height={16} width={190} />
      </Stack>
    );
  }
  if (contact.isError) {
    return <Text size="sm">Contact details could not be loaded. Please try again later.</Text>;
  }
  const { phone, email } = contact.data;
  return (
    <>
      <Group gap={8} wrap="nowrap">
        <IconPhone size={16} aria-hidden />
        <Anchor href={telHref(phone)} size="sm" className={classes.footerLink}>
          {phone}
        </Anchor>
      </Group>
      <Group gap={8} wrap="nowrap">
        <IconMail size={16} aria-hidden />
        <Anchor
          href={`mailto:${email}`}
          size="sm"
          className={classes.footerLink}
          style={{ overflowWrap: 'anywhere' }}
        >
          {email}
        </Anchor>
      </Group>
    </>
  );
}
