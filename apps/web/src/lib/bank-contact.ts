import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Contact } from '@bloodbank/shared/contact';
import { apiRequest, type ResponseCheck } from '@/lib/api-client';
import { setBankTimeZone } from '@/lib/bank-today';

/**
 * The bank's phone and e-mail (GET /api/public/contact), shown in the footer of every page. The
 * footer is on the first screen, whose download has a budget (scripts/check-bundle-size.mjs): the
 * answer is checked without zod, and read through the query client without react-query's useQuery
 * hook, which only later screens need.
 */
const contactCheck: ResponseCheck<Contact> = {
  parse(value) {
    const contact = value as Partial<Contact> | null;
    if (!contact || typeof contact.phone !== 'string' || typeof contact.email !== 'string') {
      throw new Error('Unexpected response from /api/public/contact');
    }
    return {
      phone: contact.phone,
      email: contact.email,
      // An older server says no zone: the browser's day stands in (bank-today.ts).
      time_zone: typeof contact.time_zone === 'string' ? contact.time_zone : '',
    };
  },
};

export async function getBankContact(signal?: AbortSignal): Promise<Contact> {
  const contact = await apiRequest('/public/contact', { schema: contactCheck, auth: false, signal });
  if (contact.time_zone) setBankTimeZone(contact.time_zone);
  return contact;
}

const BANK_CONTACT_KEY = ['bank-contact'] as const;

type BankContactState =
  | { isPending: true; isError: false; data: undefined }
  | { isPending: false; isError: true; data: undefined }
  | { isPending: false; isError: false; data: Contact };

const loaded = (data: Contact): BankContactState => ({ isPending: false, isError: false, data });

/** Set when the server starts: asked once a visit (the query client keeps it), retried as every query is. */
export function useBankContact(): BankContactState {
  const queryClient = useQueryClient();
  const [state, setState] = useState<BankContactState>(() => {
    const known = queryClient.getQueryData<Contact>(BANK_CONTACT_KEY);
    return known ? loaded(known) : { isPending: true, isError: false, data: undefined };
  });
  useEffect(() => {
    let mounted = true;
    queryClient
      .fetchQuery({
        queryKey: BANK_CONTACT_KEY,
        queryFn: ({ signal }) => getBankContact(signal),
        staleTime: Infinity,
      })
      .then(
        (contact) => mounted && setState(loaded(contact)),
        () => mounted && setState({ isPending: false, isError: true, data: undefined }),
      );
    return () => {
      mounted = false;
    };
  }, [queryClient]);
  return state;
}
