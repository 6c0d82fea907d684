import { parse, type OperationDefinitionNode } from 'graphql';
import OPERATIONS from '../../../schema/operations/admin-console.graphql';

export type AdminRole = 'SUPPORT' | 'FINANCE' | 'OWNER';

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

/** The daily work first: the queues, then support's look-ups, then the shop and seller life cycle. */
export const PRESETS: Preset[] = [
  { group: 'Refunds', operationName: 'RefundQueue', title: 'Refund queue', variables: { status: 'REQUESTED', paymentId: null, page: 1, limit: 20 } },
  { group: 'Refunds', operationName: 'ApproveRefund', title: 'Approve a refund', variables: { id: 'ref_…', note: null }, roles: FINANCE },
  { group: 'Refunds', operationName: 'RejectRefund', title: 'Reject a refund', variables: { id: 'ref_…', reason: '' }, roles: FINANCE },
  { group: 'Refunds', operationName: 'RequestRefund', title: 'Record a refund request', variables: { paymentId: 'pay_…', reason: '', amount: null }, roles: RECORDS },
  { group: 'Refunds', operationName: 'Refund', title: 'One refund', variables: { id: 'ref_…' } },
  { group: 'Withdrawals', operationName: 'WithdrawalQueue', title: 'Withdrawal queue', variables: { status: 'REQUESTED', page: 1, limit: 20 } },
  { group: 'Withdrawals', operationName: 'ApproveWithdrawal', title: 'Approve a withdrawal', variables: { id: 'wd_…' }, roles: FINANCE },
  { group: 'Withdrawals', operationName: 'RejectWithdrawal', title: 'Reject a withdrawal', variables: { id: 'wd_…', reason: '' }, roles: FINANCE },
  { group: 'Withdrawals', operationName: 'MarkWithdrawalPaid', title: 'Mark a withdrawal paid', variables: { id: 'wd_…', reference: '' }, roles: FINANCE },
  { group: 'Withdrawals', operationName: 'RequestWithdrawal', title: 'Withdraw for a shop', variables: { shopId: 'shop_…', amount: 1000 }, roles: RECORDS },
  {
    group: 'Payments',
    operationName: 'FindPayments',
    title: 'Find a payment',
    variables: { filter: { id: null, shopId: null, status: null, customerEmail: null, createdFrom: null, createdTo: null }, page: 1, limit: 20 },
  },
  { group: 'Payments', operationName: 'PaymentStory', title: "A payment's story", variables: { id: 'pay_…' } },
  { group: 'Payments', operationName: 'FlaggedAcquirerNotifications', title: 'Acquirer notifications that booked nothing', variables: { limit: 50 } },
  { group: 'Shops', operationName: 'Shops', title: 'Find a shop', variables: { search: '', page: 1, limit: 20 } },
  { group: 'Shops', operationName: 'ShopDetails', title: 'Shop, balance and ledger', variables: { id: 'shop_…', entries: 20 } },
  { group: 'Shops', operationName: 'CreateSellerWithShop', title: 'New seller and shop', variables: { email: '', shop: { shopName: '', webhookUrl: null } }, roles: OWNER },
  { group: 'Shops', operationName: 'DeactivateShop', title: 'Deactivate a shop', variables: { id: 'shop_…', reason: '' }, roles: OWNER },
  { group: 'Shops', operationName: 'ReactivateShop', title: 'Reactivate a shop', variables: { id: 'shop_…', reason: null }, roles: OWNER },
  { group: 'Shops', operationName: 'DeleteShop', title: 'Delete a shop', variables: { id: 'shop_…', reason: '' }, roles: OWNER },
  { group: 'Shops', operationName: 'SuspendSeller', title: 'Suspend a seller', variables: { id: 'sel_…', reason: '' }, roles: OWNER },
  { group: 'Shops', operationName: 'ReactivateSeller', title: 'Reactivate a seller', variables: { id: 'sel_…', reason: null }, roles: OWNER },
  { group: 'Audit', operationName: 'AuditLog', title: 'Audit log', variables: { targetId: null, action: null, page: 1, limit: 20 } },
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

/** Each operation's own text, cut from the shared document (schema/operations/admin-console.graphql). */
const SOURCES: Map<string, string> = new Map(
  parse(OPERATIONS)
    .definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition' && Boolean(d.name))
    .map((d) => [d.name!.value, OPERATIONS.slice(d.loc!.start, d.loc!.end) + '\n']),
);

export function presetQuery(preset: Preset): string {
  const source = SOURCES.get(preset.operationName);
  if (!source) throw new Error(`No operation ${preset.operationName} in admin-console.graphql`);
  return `# ${preset.title}\n${source}`;
}

export function presetVariables(preset: Preset): string {
  return JSON.stringify(preset.variables, null, 2);
}
