export { mailQueueDepth, receiptInsertPart, requestMailTrackingToken } from './mail-store';
export { REFUND_ARRIVES_WITHIN_BUSINESS_DAYS, REFUND_REVIEWED_WITHIN_HOURS } from './mail-templates';
export { dollars, escapeHtml, mailableAddress, utcDateTime } from './mail-text';
export { isTrackingTokenShape } from './refund-link';

export { queueRefundReviewReminders } from './admin-notices';
export { queueAccountMail } from './account-mail';
export { MAIL_CLI_USAGE, mailCli, MailCliUsage } from './mail-cli';
export { startMailRuntime } from './mail-runtime';
export {
  noticeDisputeMoved,
  noticeDisputeOpened,
  noticeNewSignIn,
  noticePayoutAccountChanged,
  noticeRefund,
  noticeWebhookSecretRotated,
  noticeWebhookUrlChanged,
  noticeWithdrawal,
  queueRefundNotice,
  queueRefundRequestedMail,
} from './notices';

// Types
export type { CustomerMailKind } from './mail-kinds';
export type { MailRuntime } from './mail-runtime';
export type { NotificationsContext } from './notifications-context';
