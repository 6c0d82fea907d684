/**
 * Separated admin duties (docs/admin.md): support records requests, finance decides on money, owners
 * manage admins, sellers and shops. Every admin has exactly one role; reads are open to all three.
 */
export enum AdminRole {
  SUPPORT = 'support',
  FINANCE = 'finance',
  OWNER = 'owner',
}

export const ADMIN_ROLES: readonly AdminRole[] = Object.values(AdminRole);

/** `support`, `finance` or `owner` (the CLI's `--role`); null for anything else. */
export function parseAdminRole(raw: string): AdminRole | null {
  return ADMIN_ROLES.find((role) => role === raw.trim().toLowerCase()) ?? null;
}
