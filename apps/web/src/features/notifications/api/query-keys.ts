/** Every notifications query key starts with ['notifications'] (ARCHITECTURE.md convention 10). */
export const notificationKeys = {
  all: ['notifications'] as const,
  list: () => ['notifications', 'list'] as const,
  preferences: () => ['notifications', 'preferences'] as const,
};
