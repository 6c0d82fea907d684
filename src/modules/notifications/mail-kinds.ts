/**
 * Every mail of the mail outbox, by kind. Customers get three, in the shop's name: the receipt (a paid payment with
 * `customer_email`), the refund request (with the link to follow it) and the refund notice. Sellers get notifications, each under a topic they can switch off on
 * the dashboard's Account screen (all on until switched off).
 */
export const NOTIFICATION_TOPICS = ['disputes', 'refunds', 'withdrawals', 'new_sign_in', 'account_changes', 'webhook_failures'] as const;
export type NotificationTopic = (typeof NOTIFICATION_TOPICS)[number];

/** What the Account screen says next to each switch. */
export const TOPIC_LABELS: Record<NotificationTopic, string> = {
  disputes: 'A dispute (chargeback) is opened or decided',
  refunds: 'A refund request is approved, rejected or fails',
  withdrawals: 'A withdrawal is paid or rejected',
  new_sign_in: 'Someone signs in from a browser not seen before',
  account_changes: 'The payout account, webhook URL, webhook secret or support address changes',
  webhook_failures: 'Webhook deliveries keep failing for more than a day',
};

/** The seller notifications and the topic that switches each. */
export const SELLER_NOTICES = {
  'dispute-opened': 'disputes',
  'dispute-decided': 'disputes',
  'refund-approved': 'refunds',
  'refund-rejected': 'refunds',
  'refund-failed': 'refunds',
  'withdrawal-paid': 'withdrawals',
  'withdrawal-rejected': 'withdrawals',
  'new-sign-in': 'new_sign_in',
  'payout-account-changed': 'account_changes',
  'webhook-url-changed': 'account_changes',
  'webhook-secret-rotated': 'account_changes',
  'support-email-changed': 'account_changes',
  'webhook-failing': 'webhook_failures',
} as const satisfies Record<string, NotificationTopic>;

export type SellerNoticeKind = keyof typeof SELLER_NOTICES;
export type CustomerMailKind = 'receipt' | 'refund-requested' | 'refund-notice';
/** Mails to our own staff (src/modules/notifications/admin-notices.ts): a refund request nearing its 24-hour review promise. */
export type AdminMailKind = 'refund-review-due';
export type MailKind = CustomerMailKind | SellerNoticeKind | AdminMailKind;

export const CUSTOMER_MAIL_KINDS: readonly CustomerMailKind[] = ['receipt', 'refund-requested', 'refund-notice'];
export const ADMIN_MAIL_KINDS: readonly AdminMailKind[] = ['refund-review-due'];
export const MAIL_KINDS: readonly MailKind[] = [...CUSTOMER_MAIL_KINDS, ...(Object.keys(SELLER_NOTICES) as SellerNoticeKind[]), ...ADMIN_MAIL_KINDS];

export const isMailKind = (text: string): text is MailKind => (MAIL_KINDS as readonly string[]).includes(text);
/** A mail to a shop's customer: an address anyone paying may type, so its mailbox's daily cap applies (mail-delivery.ts). */
export const isCustomerMail = (kind: string): kind is CustomerMailKind => (CUSTOMER_MAIL_KINDS as readonly string[]).includes(kind);
export const isSellerNotice = (kind: string): kind is SellerNoticeKind => Object.prototype.hasOwnProperty.call(SELLER_NOTICES, kind);
