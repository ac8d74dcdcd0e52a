import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import { CurrentUserSchema, type CurrentUser, type MyDetailsUpdate } from '@bloodbank/shared/auth';
import { apiRequest } from '@/lib/api-client';
import { currentUserQueryKey } from '@/lib/auth/current-user';

/** PATCH /api/users/me: the contact details that changed; answers the whole user. */
export function updateMyDetails(changes: MyDetailsUpdate): Promise<CurrentUser> {
  return apiRequest('/users/me', { method: 'PATCH', body: { json: changes }, schema: CurrentUserSchema });
}

/** The signed-in user everywhere in the app (the header's name, the profile) follows the answer. */
export function useUpdateMyDetails() {
  const queryClient = useQueryClient();
  return useWriteMutation({
    mutationFn: updateMyDetails,
    onSuccess: (user) => queryClient.setQueryData(currentUserQueryKey, user),
  });
}
