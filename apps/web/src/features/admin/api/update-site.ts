import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import { SiteUpdateSchema, type SiteInput, type SiteUpdate } from '@bloodbank/shared/sites';
import { apiRequest } from '@/lib/api-client';
import { invalidateAdmin } from './query-keys';

/**
 * PATCH /api/admin/sites/:id: any of the site's fields; `{active: false}` stops new bookings there
 * and `{active: true}` takes them again. New hours or closed dates cancel the bookings at the times
 * the site no longer keeps (`cancelled_bookings`, decision 0017).
 */
export function updateSite(id: number, changes: Partial<SiteInput>): Promise<SiteUpdate> {
  return apiRequest(`/admin/sites/${id}`, {
    method: 'PATCH',
    body: { json: changes },
    schema: SiteUpdateSchema,
  });
}

export function useUpdateSite() {
  const queryClient = useQueryClient();
  return useWriteMutation({
    mutationFn: ({ id, changes }: { id: number; changes: Partial<SiteInput> }) => updateSite(id, changes),
    // Cancelled bookings leave the donation queues and the dashboard's counts too.
    onSuccess: () => invalidateAdmin(queryClient, ['sites', 'siteDays', 'donations', 'dashboard', 'audit']),
  });
}
