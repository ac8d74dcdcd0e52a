import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api-client';
import { personSchemas, type PersonKind, type PersonOf } from './get-people';
import { invalidateAdmin } from './query-keys';

/** DELETE /api/admin/donors/:id and /api/admin/patients/:id: no more sign-in; the history stays. */
export function deactivatePerson<K extends PersonKind>(kind: K, id: number): Promise<PersonOf<K>> {
  return apiRequest(`/admin/${kind}/${id}`, {
    method: 'DELETE',
    schema: personSchemas[kind] as unknown as z.ZodType<PersonOf<K>>,
  });
}

export function useDeactivatePerson<K extends PersonKind>(kind: K) {
  const queryClient = useQueryClient();
  return useWriteMutation({
    mutationFn: (id: number) => deactivatePerson(kind, id),
    // The dashboard counts active donors and patients.
    onSuccess: () => invalidateAdmin(queryClient, [kind, 'dashboard', 'audit']),
  });
}
