import type { EntityManager } from '@mikro-orm/postgresql';
import { enumOf } from '../../platform/lifecycle/lifecycle';
import { MAIL_LIFECYCLE } from './mail.lifecycle';
import { currentTraceparent } from '../../platform/observability/tracing';
import { prefixedId } from '../../shared/random-id';
import { SELLER_NOTICES, type CustomerMailKind, type SellerNoticeKind } from './mail-kinds';

/** The mail lifecycle's states (src/modules/notifications/mail.lifecycle.ts). */
export const MailStatus = enumOf(MAIL_LIFECYCLE.states);
export type MailStatus = (typeof MailStatus)[keyof typeof MailStatus];

export const newMailId = (): string => prefixedId('mail', 24);

/** An id for what has no id of its own (a change of settings): the subject of its one notification. */
export const newChangeId = (): string => prefixedId('chg', 24);

/**
 * The transactions of this process that wrote a mail row: the mail runtime wakes its relay when one commits
 * (src/modules/notifications/mail-runtime.ts), so the mail goes out at once rather than at the next poll.
 */
export const MAIL_WRITTEN_IN = new WeakSet<object>();

/**
 * A mail to a customer (the refund notice), written in the caller's transaction, exactly when what it tells of
 * is. (`kind`, `subjectId`) is unique: a second write of the same mail writes nothing. Answers whether this
 * call wrote it. The receipt is written by the card completion's own statement (checkout/completion-statement.ts).
 */
export async function queueCustomerMail(
  tx: EntityManager,
  mail: { kind: CustomerMailKind; subjectId: string; recipient: string; shopId: string; sellerId: string; paymentId: string; params?: Record<string, unknown> },
): Promise<boolean> {
  const rows = await tx.execute<{ id: string }[]>(
    `insert into "mail_outbox" ("id", "kind", "subject_id", "recipient", "seller_id", "shop_id", "payment_id", "params", "traceparent")
     values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?)
     on conflict ("kind", "subject_id") do nothing
     returning "id"`,
    [newMailId(), mail.kind, mail.subjectId, mail.recipient, mail.sellerId, mail.shopId, mail.paymentId, JSON.stringify(mail.params ?? {}), currentTraceparent()],
  );
  if (rows.length > 0) MAIL_WRITTEN_IN.add(tx);
  return rows.length > 0;
}

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

/**
 * A seller notification, written in the caller's transaction in one statement: to the seller's account address
 * (the seller named, or the seller of the shop or payment named), unless the seller switched its topic off, read
 * in the same statement, so the switch as it stands at the event decides. Unique per (`kind`, `subjectId`).
 * Answers whether a row was written.
 */
export async function queueSellerNotice(tx: EntityManager, notice: SellerNotice): Promise<boolean> {
  if (!notice.sellerId && !notice.shopId && !notice.paymentId) throw new Error(`seller notice ${notice.kind}: name the seller, the shop or the payment`);
  const rows = await tx.execute<{ id: string }[]>(
    `with target as (select coalesce(?::text, (select p."shop_id" from "payments" p where p."id" = ?::text)) as shop_id)
     insert into "mail_outbox" ("id", "kind", "subject_id", "recipient", "seller_id", "shop_id", "payment_id", "params", "traceparent")
     select ?, ?, ?, s."email", s."id", t.shop_id, ?::text, ?::jsonb, ?::text
       from target t
       join "sellers" s on s."id" = coalesce(?::text, (select sh."seller_id" from "shops" sh where sh."id" = t.shop_id))
       left join "seller_mail_settings" m on m."seller_id" = s."id"
      where not (?::text = any(coalesce(m."muted", '{}'::text[])))
     on conflict ("kind", "subject_id") do nothing
     returning "id"`,
    [
      notice.shopId ?? null, notice.paymentId ?? null,
      newMailId(), notice.kind, notice.subjectId, notice.paymentId ?? null, JSON.stringify(notice.params ?? {}), currentTraceparent(),
      notice.sellerId ?? null, SELLER_NOTICES[notice.kind],
    ],
  );
  if (rows.length > 0) MAIL_WRITTEN_IN.add(tx);
  return rows.length > 0;
}
