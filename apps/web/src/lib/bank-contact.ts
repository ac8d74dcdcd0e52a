import { queryOptions, useQuery } from '@tanstack/react-query';
import { ContactSchema, type Contact } from '@bloodbank/shared/contact';
import { apiRequest } from '@/lib/api-client';

/** GET /api/public/contact: the bank's phone and e-mail, as the server is configured (public). */
export function getBankContact(signal?: AbortSignal): Promise<Contact> {
  return apiRequest('/public/contact', { schema: ContactSchema, auth: false, signal });
}

/** Set when the server starts: asked once a visit. */
export function bankContactQueryOptions() {
  return queryOptions({
    queryKey: ['bank-contact'],
    queryFn: ({ signal }) => getBankContact(signal),
    staleTime: Infinity,
  });
}

export function useBankContact() {
  return useQuery(bankContactQueryOptions());
}
