import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import type { z } from 'zod';
import type { AdminDonorUpdate, AdminPatientUpdate } from '@bloodbank/shared/admin';
import { apiRequest } from '@/lib/api-client';
import { personSchemas, type PersonKind, type PersonOf } from './get-people';
import { invalidateAdmin } from './query-keys';

type UpdateOf<K extends PersonKind> = K extends 'donors' ? AdminDonorUpdate : AdminPatientUpdate;

/** PATCH /api/admin/donors/:id and /api/admin/patients/:id: the registration rules apply to every field. */
export function updatePerson<K extends PersonKind>(
  kind: K,
  id: number,
  changes: UpdateOf<K>,
): Promise<PersonOf<K>> {
  return apiRequest(`/admin/${kind}/${id}`, {
    method: 'PATCH',
    body: { json: changes },
    schema: personSchemas[kind] as unknown as z.ZodType<PersonOf<K>>,
  });
}

export function useUpdatePerson<K extends PersonKind>(kind: K) {
  const queryClient = useQueryClient();
  return useWriteMutation({
    mutationFn: ({ id, changes }: { id: number; changes: UpdateOf<K> }) => updatePerson(kind, id, changes),
    onSuccess: () => invalidateAdmin(queryClient, [kind, 'audit']),
  });
}
