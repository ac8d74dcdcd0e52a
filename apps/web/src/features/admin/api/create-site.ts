import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import { SiteSchema, type Site, type SiteInput } from '@bloodbank/shared/sites';
import { apiRequest } from '@/lib/api-client';
import { invalidateAdmin } from './query-keys';

/** POST /api/admin/sites: a new donation site; 422 with `errors` per field (nested: `hours.monday.close`). */
export function createSite(site: SiteInput): Promise<Site> {
  return apiRequest('/admin/sites', { method: 'POST', body: { json: site }, schema: SiteSchema });
}

export function useCreateSite() {
  const queryClient = useQueryClient();
  return useWriteMutation({
    mutationFn: createSite,
    onSuccess: () => invalidateAdmin(queryClient, ['sites', 'siteDays', 'audit']),
  });
}
