import { Anchor, Text, type TextProps } from '@mantine/core';
import { telHref } from '@bloodbank/shared/contact-links';
import { useBankContact } from '@/lib/bank-contact';

/**
 * "Call the blood bank on … or write to …", with links, under a message that asks the donor to
 * contact the bank (a follow-up, a permanent deferral). Nothing until the details are known: the
 * footer shows them too.
 */
export function BankContactLine(props: TextProps) {
  const contact = useBankContact();
  if (!contact.data) return null;
  const { phone, email } = contact.data;
  return (
    <Text size="sm" {...props} data-testid="bank-contact-line">
      Call the blood bank on{' '}
      <Anchor href={telHref(phone)} inherit style={{ whiteSpace: 'nowrap' }}>
        {phone}
      </Anchor>{' '}
      or write to{' '}
      <Anchor href={`mailto:${email}`} inherit style={{ overflowWrap: 'anywhere' }}>
        {email}
      </Anchor>
      .
    </Text>
  );
}
