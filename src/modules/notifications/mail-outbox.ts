import { commitSignal } from '../../platform/outbox/wake-on-commit';
import { enumOf } from '../../platform/lifecycle/lifecycle';
import { MAIL_LIFECYCLE } from './mail.lifecycle';
import { prefixedId } from '../../shared/random-id';
import type { SellerNoticeKind } from './mail-kinds';

/** The mail lifecycle's states (src/modules/notifications/mail.lifecycle.ts). */
export const MailStatus = enumOf(MAIL_LIFECYCLE.states);
export type MailStatus = (typeof MailStatus)[keyof typeof MailStatus];

export const newMailId = (): string => prefixedId('mail', 24);

/** An id for what has no id of its own (a change of settings): the subject of its one notification. */
export const newChangeId = (): string => prefixedId('chg', 24);

/**
 * Raised when a transaction of this process that wrote a mail row commits (mail-store.ts marks each write): the
 * mail runtime's relay wakes (mail-runtime.ts), so the mail goes out at once rather than at the next poll.
 */
export const MAILS_COMMITTED = commitSignal();

/** A seller notification as a feature asks for it (queueSellerNotice, mail-store.ts, writes it). */
export interface SellerNotice {
  kind: SellerNoticeKind;
  /** The seller told; when absent, the seller of `shopId`, or of the shop of `paymentId`. */
  sellerId?: string | null;
  /** What it is about: unique per notification of this kind (a dispute and its state, a refund, a change's own id). */
  subjectId: string;
  shopId?: string | null;
  paymentId?: string | null;
  /** The facts the mail tells, as they were when it happened (rendered later, at the first attempt). */
  params?: Record<string, unknown>;
}
