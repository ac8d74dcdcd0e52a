import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SiteSchema, type Site, type SiteInput } from '@bloodbank/shared/sites';
import { apiRequest } from '@/lib/api-client';
import { invalidateAdmin } from './query-keys';

/**
 * PATCH /api/admin/sites/:id: any of the site's fields; `{active: false}` stops new bookings there
 * and `{active: true}` takes them again.
 */
export function updateSite(id: number, changes: Partial<SiteInput>): Promise<Site> {
  return apiRequest(`/admin/sites/${id}`, { method: 'PATCH', body: { json: changes }, schema: SiteSchema });
}

export function useUpdateSite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: number; changes: Partial<SiteInput> }) => updateSite(id, changes),
    onSuccess: () => invalidateAdmin(queryClient, ['sites', 'siteDays', 'audit']),
  });
}
