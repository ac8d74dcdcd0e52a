/**
 * User types and roles, with no zod: the web app's first screen needs these and must not load the
 * validation library until a form does.
 */
export const USER_TYPES = ['admin', 'donor', 'patient'] as const;
export type UserType = (typeof USER_TYPES)[number];
export const ROLES = ['ADMIN', 'DONOR', 'PATIENT'] as const;
export type Role = (typeof ROLES)[number];

export const roleOf = (userType: UserType): Role => userType.toUpperCase() as Role;
export const userTypeOf = (role: Role): UserType => role.toLowerCase() as UserType;

export function isUserType(value: unknown): value is UserType {
  return typeof value === 'string' && (USER_TYPES as readonly string[]).includes(value);
}
