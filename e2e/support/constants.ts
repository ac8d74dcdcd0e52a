/** Shared by playwright.config.ts (which starts the server) and the specs (which sign in). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_ADMIN = { username: 'e2e-admin', password: 'e2e-admin-password' } as const;
