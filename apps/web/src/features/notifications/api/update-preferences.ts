import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import { PreferencesSchema, type Preferences } from '@bloodbank/shared/notifications';
import { apiRequest } from '@/lib/api-client';
import { notificationKeys } from './query-keys';

/** PATCH /api/users/me/preferences: the choices that change; answers all of them. */
export function updatePreferences(patch: Partial<Preferences>): Promise<Preferences> {
  return apiRequest('/users/me/preferences', {
    method: 'PATCH',
    body: { json: patch },
    schema: PreferencesSchema,
  });
}

/** Switches move at once; a refusal puts them back (the screen says so). */
export function useUpdatePreferences() {
  const queryClient = useQueryClient();
  const key = notificationKeys.preferences();
  return useWriteMutation({
    mutationFn: updatePreferences,
    onMutate: async (patch) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<Preferences>(key);
      if (before) queryClient.setQueryData<Preferences>(key, { ...before, ...patch });
      return { before };
    },
    onError: (_error, _patch, context) => {
      if (context?.before) queryClient.setQueryData(key, context.before);
    },
    onSuccess: (saved) => queryClient.setQueryData(key, saved),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
