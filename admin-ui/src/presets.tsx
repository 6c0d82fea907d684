import { operationSource } from './operations';
import type { AdminRole } from './permissions';

export type { AdminRole };

/** A ready-made operation of the console: one button, one operation, example variables. */
export interface Preset {
  operationName: string;
  title: string;
  group: string;
  variables: Record<string, unknown>;
  /** The roles the server lets run it (docs/admin.md; a unit test compares with `@Authorized`); unset: every admin. */
  roles?: AdminRole[];
}

const FINANCE: AdminRole[] = ['FINANCE'];
const OWNER: AdminRole[] = ['OWNER'];
const RECORDS: AdminRole[] = ['SUPPORT', 'FINANCE'];
const MAIL: AdminRole[] = ['SUPPORT', 'OWNER'];

/** The daily work first: the queues, then support's look-ups, then the shop and seller life cycle. */
export const PRESETS: Preset[] = [
  { group: 'Home', operationName: 'BackOfficeHome', title: 'What waits (Home)', variables: {} },
  { group: 'Refunds', operationName: 'RefundQueue', title: 'Refund queue', variables: { status: 'REQUESTED', paymentId: null, page: 1, limit: 20 } },
  { group: 'Refunds', operationName: 'ApproveRefund', title: 'Approve a refund', variables: { id: 'ref_…', note: null }, roles: FINANCE },
  { group: 'Refunds', operationName: 'RejectRefund', title: 'Reject a refund', variables: { id: 'ref_…', reason: '' }, roles: FINANCE },
  { group: 'Refunds', operationName: 'RequestRefund', title: 'Record a refund request', variables: { paymentId: 'pay_…', reason: '', amount: null }, roles: RECORDS },
  { group: 'Refunds', operationName: 'Refund', title: 'One refund', variables: { id: 'ref_…' } },
  { group: 'Withdrawals', operationName: 'WithdrawalQueue', title: 'Withdrawal queue', variables: { status: 'REQUESTED', page: 1, limit: 20 } },
  { group: 'Withdrawals', operationName: 'ApproveWithdrawal', title: 'Approve a withdrawal', variables: { id: 'wd_…' }, roles: FINANCE },
  { group: 'Withdrawals', operationName: 'RejectWithdrawal', title: 'Reject a withdrawal', variables: { id: 'wd_…', reason: '' }, roles: FINANCE },
  { group: 'Withdrawals', operationName: 'MarkWithdrawalPaid', title: 'Mark a withdrawal paid', variables: { id: 'wd_…', reference: '' }, roles: FINANCE },
  // Its root field is any admin's; the whole number in it is finance's only (the server refuses it to the others).
  { group: 'Withdrawals', operationName: 'PayoutAccountNumber', title: 'Payout account, whole number (finance)', variables: { sellerId: 'sel_…' } },
  { group: 'Withdrawals', operationName: 'RequestWithdrawal', title: 'Withdraw for a shop', variables: { shopId: 'shop_…', amount: 1000 }, roles: RECORDS },
  {
    group: 'Payments',
    operationName: 'FindPayments',
    title: 'Find a payment',
    variables: {
      filter: { id: null, shopId: null, status: null, customerEmail: null, customerEmailPrefix: null, metadataKey: null, metadataValue: null, createdFrom: null, createdTo: null },
      page: 1,
      limit: 20,
    },
  },
  { group: 'Payments', operationName: 'PaymentStory', title: "A payment's story", variables: { id: 'pay_…' } },
  { group: 'Payments', operationName: 'ResendMail', title: 'Send a failed mail again', variables: { id: 'mail_…', reason: '' }, roles: MAIL },
  { group: 'Payments', operationName: 'FlaggedAcquirerNotifications', title: 'Acquirer notifications that booked nothing', variables: { limit: 50 } },
  { group: 'Payments', operationName: 'RetryAcquirerNotification', title: 'Apply an acquirer notification again', variables: { id: '', reason: '' }, roles: FINANCE },
  { group: 'Payments', operationName: 'DismissAcquirerNotification', title: 'Dismiss an acquirer notification', variables: { id: '', reason: '' }, roles: FINANCE },
  { group: 'Payments', operationName: 'SettlementProposals', title: 'Settlements by hand waiting for a second finance admin', variables: { limit: 50 } },
  { group: 'Payments', operationName: 'ProposeSettlement', title: "Record the acquirer's answer by hand (four eyes)", variables: { input: { targetId: 'pay_…', answer: 'AUTHORISED', acquirerReference: '', reason: '' } }, roles: FINANCE },
  { group: 'Payments', operationName: 'ConfirmSettlement', title: "Confirm another finance admin's settlement by hand", variables: { id: 'sp_…', reason: '' }, roles: FINANCE },
  { group: 'Payments', operationName: 'RejectSettlement', title: 'Reject a settlement by hand', variables: { id: 'sp_…', reason: '' }, roles: FINANCE },
  { group: 'Payments', operationName: 'SettleWithAcquirer', title: 'Ask the acquirer now (payment or refund left processing)', variables: { id: 'pay_…', reason: '' }, roles: FINANCE },
  { group: 'Shops', operationName: 'Shops', title: 'Find a shop', variables: { search: '', page: 1, limit: 20 } },
  { group: 'Shops', operationName: 'ShopDetails', title: 'Shop, balance and ledger', variables: { id: 'shop_…', entries: 20 } },
  { group: 'Shops', operationName: 'CreateSellerWithShop', title: 'New seller and shop', variables: { email: '', shop: { shopName: '', webhookUrl: null } }, roles: OWNER },
  { group: 'Shops', operationName: 'DeactivateShop', title: 'Deactivate a shop', variables: { id: 'shop_…', reason: '' }, roles: OWNER },
  { group: 'Shops', operationName: 'ReactivateShop', title: 'Reactivate a shop', variables: { id: 'shop_…', reason: null }, roles: OWNER },
  { group: 'Shops', operationName: 'DeleteShop', title: 'Delete a shop', variables: { id: 'shop_…', reason: '' }, roles: OWNER },
  { group: 'Shops', operationName: 'SuspendSeller', title: 'Suspend a seller', variables: { id: 'sel_…', reason: '' }, roles: OWNER },
  { group: 'Shops', operationName: 'ReactivateSeller', title: 'Reactivate a seller', variables: { id: 'sel_…', reason: null }, roles: OWNER },
  { group: 'Shops', operationName: 'SetSellerAccountStatus', title: "Set a seller's account status", variables: { id: 'sel_…', accountStatus: 'VERIFIED', reason: '' }, roles: OWNER },
  { group: 'Shops', operationName: 'ResetSellerTwoFactor', title: "Reset a seller's two-factor", variables: { sellerId: 'sel_…', reason: '' }, roles: OWNER },
  { group: 'Disputes', operationName: 'Disputes', title: 'Disputes', variables: { status: null, open: true, page: 1, limit: 20 } },
  { group: 'Disputes', operationName: 'Dispute', title: 'One dispute', variables: { id: 'dp_…' } },
  { group: 'Disputes', operationName: 'SimulateChargebackReversal', title: 'Simulated acquirer: the issuer reverses a chargeback', variables: { id: 'dp_…' }, roles: FINANCE },
  { group: 'Audit', operationName: 'AuditLog', title: 'Audit log', variables: { targetId: null, action: null, actor: null, createdFrom: null, createdTo: null, page: 1, limit: 20 } },
  { group: 'Admins', operationName: 'CurrentAdmin', title: 'Who am I', variables: {} },
  { group: 'Admins', operationName: 'AdminTokens', title: 'Admin tokens', variables: { adminId: null } },
  { group: 'Admins', operationName: 'IssueAdminToken', title: 'Issue yourself a new token', variables: {} },
  { group: 'Admins', operationName: 'RevokeAdminToken', title: 'Revoke a token', variables: { id: 'atk_…' } },
  { group: 'Admins', operationName: 'Admins', title: 'All admins', variables: {}, roles: OWNER },
];

/** The presets an admin with `role` may run. */
export function presetsFor(role: AdminRole): Preset[] {
  return PRESETS.filter((preset) => !preset.roles || preset.roles.includes(role));
}

/** The preset's operation, as the shared document (schema/operations/admin-console.graphql) writes it. */
export function presetQuery(preset: Preset): string {
  return `# ${preset.title}\n${operationSource(preset.operationName)}`;
}

export function presetVariables(preset: Preset): string {
  return JSON.stringify(preset.variables, null, 2);
}
