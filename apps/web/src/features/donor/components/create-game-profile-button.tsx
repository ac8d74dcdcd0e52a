import { Button } from '@mantine/core';
import { busyButtonProps } from '@/lib/busy-button';
import { sectionHeadingOf } from '@/lib/use-focus-after-action';
import type { useCreateGameProfile } from '../api/create-game-profile';

/**
 * Creates the donor's game profile. The button goes once the profile is there, so the keyboard
 * goes on at the heading of its section; while it works it stays focusable and ignores presses.
 */
export function CreateGameProfileButton({ create }: { create: ReturnType<typeof useCreateGameProfile> }) {
  return (
    <Button
      onClick={(event) => {
        if (create.isPending) return;
        const heading = sectionHeadingOf(event.currentTarget);
        create.mutate(undefined, { onSuccess: () => heading?.focus() });
      }}
      {...busyButtonProps(create.isPending)}
    >
      {create.isPending ? 'Creating...' : 'Create Game Profile'}
    </Button>
  );
}
