/** Every admin has exactly one of these roles (src/modules/admins/admin-role.ts). */
export type AdminRole = 'SUPPORT' | 'FINANCE' | 'OWNER';

/**
 * What each role may do in the back office: a button a role may not use is not shown (the server refuses it
 * anyway). Each entry names the GraphQL fields it runs; test/unit/back-office-permissions.test.ts holds every
 * list to those fields' `@Authorized` roles (docs/admin.md, "Roles").
 */
export const PERMISSIONS = {
  /** requestRefund */
  recordRefund: ['SUPPORT', 'FINANCE'],
  /** approveRefund, rejectRefund */
  decideRefund: ['FINANCE'],
  /** approveWithdrawal, rejectWithdrawal */
  decideWithdrawal: ['FINANCE'],
  /** markWithdrawalPaid */
  markWithdrawalPaid: ['FINANCE'],
  /** PayoutAccount.accountNumber (each read audited) */
  readAccountNumber: ['FINANCE'],
  /** deactivateShop, reactivateShop, deleteShop */
  manageShops: ['OWNER'],
  /** suspendSeller, reactivateSeller, setSellerAccountStatus */
  manageSellers: ['OWNER'],
  /** resetSellerTwoFactor */
  resetSellerTwoFactor: ['OWNER'],
  /** resendMail */
  resendMail: ['SUPPORT', 'OWNER'],
  /** retryAcquirerNotification, dismissAcquirerNotification, settleWithAcquirer, proposeSettlement, confirmSettlement, rejectSettlement */
  settleAcquirerOutcomes: ['FINANCE'],
  /** simulateChargebackReversal (the simulated acquirer only) */
  simulateIssuer: ['FINANCE'],
} as const satisfies Record<string, readonly AdminRole[]>;

export type Permission = keyof typeof PERMISSIONS;

export function may(role: AdminRole, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly AdminRole[]).includes(role);
}
