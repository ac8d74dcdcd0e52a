import { Anchor, Group, Text } from '@mantine/core';
import { IconMail, IconPhone } from '@tabler/icons-react';
import { telHref } from '@bloodbank/shared/contact-links';
import { useBankContact } from '@/lib/bank-contact';
import classes from './layout.module.css';

/** The bank's phone and e-mail as the server is configured (BANK_PHONE, BANK_EMAIL). */
export function BankContact() {
  const contact = useBankContact();
  if (contact.isPending) {
    // Words, not skeletons: the footer is on the first screen, whose download has a budget.
    return (
      <Text size="sm" role="status">
        Loading contact details…
      </Text>
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
