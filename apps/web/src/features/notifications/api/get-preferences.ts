import { queryOptions, useQuery } from '@tanstack/react-query';
import { PreferencesSchema, type Preferences } from '@bloodbank/shared/notifications';
import { apiRequest } from '@/lib/api-client';
import { notificationKeys } from './query-keys';

/** GET /api/users/me/preferences (donors and patients): e-mails, and call-outs for donors. */
export function getPreferences(signal?: AbortSignal): Promise<Preferences> {
  return apiRequest('/users/me/preferences', { schema: PreferencesSchema, signal });
}

export function preferencesQueryOptions() {
  return queryOptions({
    queryKey: notificationKeys.preferences(),
    queryFn: ({ signal }) => getPreferences(signal),
  });
}

/** `enabled: false` for staff, who have no e-mail choices (the server answers them 403). */
export function usePreferences({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...preferencesQueryOptions(), enabled });
}
