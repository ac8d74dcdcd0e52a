import { useEffect, useRef } from 'react';
import { ApiError } from '@/lib/api-client';
import { useCompleteDonation } from '../api/complete-donation';

/**
 * PRODUCT.md 3.4: rewards are credited when the blood bank records a collection, so whenever the
 * donor opens the dashboard or the game the app asks for the rewards not seen yet. A 409 (nothing
 * new) is the usual answer and is only logged; a reward is returned once, so it is shown once.
 */
export function useUnseenRewards() {
  const reward = useCompleteDonation();
  const asked = useRef(false);
  const { mutate } = reward;
  useEffect(() => {
    // Once per visit: React's development double effects must not ask twice (the second ask gets
    // 409 and would hide the first answer).
    if (asked.current) return;
    asked.current = true;
    mutate(undefined, {
      onError: (error) => {
        if (error instanceof ApiError && error.status === 409) return;
        console.warn('Your Blood Hero rewards could not be checked.', error);
      },
    });
  }, [mutate]);
  return reward;
}
