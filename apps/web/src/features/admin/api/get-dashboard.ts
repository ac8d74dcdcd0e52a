import { queryOptions, useQuery } from '@tanstack/react-query';
import { AdminDashboardSchema, type AdminDashboard } from '@bloodbank/shared/admin';
import { apiRequest } from '@/lib/api-client';
import { adminKeys } from './query-keys';

/** GET /api/admin/dashboard: counts, stock per group, 12 weeks of activity, units expiring soon. */
export function getDashboard(signal?: AbortSignal): Promise<AdminDashboard> {
  return apiRequest('/admin/dashboard', { schema: AdminDashboardSchema, signal });
}

export function dashboardQueryOptions() {
  return queryOptions({
    queryKey: adminKeys.scope('dashboard'),
    queryFn: ({ signal }) => getDashboard(signal),
  });
}

export function useDashboard() {
  return useQuery(dashboardQueryOptions());
}
