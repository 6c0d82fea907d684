import type { EntityManager } from '@mikro-orm/postgresql';
import { runMoveStatement, type SqlPart } from '../../platform/lifecycle/move-statement';
import { currentTraceparent, tracingOn } from '../../platform/observability/tracing';
import { HANDED_OVER_AT_SQL, type RelayStatements } from '../../platform/outbox/attempt-relay';
import { SELLER_NOTICES, type CustomerMailKind } from './mail-kinds';
import { MAILS_COMMITTED, MailStatus, newMailId, type SellerNotice } from './mail-outbox';
import { MAIL_LIFECYCLE } from './mail.lifecycle';

// The mail outbox's SQL (`mail_outbox`, docs/decisions/0001-mail-outbox.md): writing a mail in the caller's
// transaction, the relay's look for due mails, a worker's claim and what it keeps of the message, a customer
// mail's place under its mailbox's daily cap, and one mail read whole. Every write of a mail row marks its transaction (MAILS_COMMITTED), so the relay wakes at its commit.

/**
 * A mail to a customer (the refund request, and the refund notice the refund table's moves declare), written in the
 * caller's transaction, exactly when what it tells of is. (`kind`, `subjectId`) is unique: a second write of the
 * same mail writes nothing. Answers whether this call wrote it. The receipt is the payment table's declared effect,
 * written by the card completion's own statement (receiptInsertPart).
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
  if (rows.length > 0) MAILS_COMMITTED.markWrittenIn(tx);
  return rows.length > 0;
}

/**
 * The declared receipt (its mail kind) as a part of the card completion's one statement (checkout/completion-statement.ts,
 * docs/decisions/0003-completion-statement.md): the customer's mail, only for the statement's `moved` payment and when
 * it has an address. No transaction marks it: the statement's caller wakes the relay when it returns a row.
 */
export const receiptInsertPart = (kind: CustomerMailKind, customerEmail: string | null, traceparent: string | null): SqlPart => ({
  sql: `insert into "mail_outbox" ("id", "kind", "subject_id", "recipient", "seller_id", "shop_id", "payment_id", "traceparent")
        select ?::text, ?::text, m."id", ?::text, s.seller_id, s.shop_id, m."id", ?::text
          from moved m cross join standing s
         where ?::text is not null
        on conflict ("kind", "subject_id") do nothing
        returning "id"`,
  params: [newMailId(), kind, customerEmail, traceparent, customerEmail],
});

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
  if (rows.length > 0) MAILS_COMMITTED.markWrittenIn(tx);
  return rows.length > 0;
}

/**
 * One finance admin's refund-review reminder (admin-notices.ts), in the caller's transaction; unique per
 * (`kind`, `subjectId`) like every mail. Answers whether this call wrote it.
 */
export async function queueRefundReviewDueMail(tx: EntityManager, mail: { subjectId: string; recipient: string; paymentId: string; params: Record<string, unknown> }): Promise<boolean> {
  // The seller is no party to this mail: no seller or shop id, so it never shows among the seller's own mails.
  const rows = await tx.execute<{ id: string }[]>(
    `insert into "mail_outbox" ("id", "kind", "subject_id", "recipient", "payment_id", "params", "traceparent")
     values (?, 'refund-review-due', ?, ?, ?, ?::jsonb, ?)
     on conflict ("kind", "subject_id") do nothing
     returning "id"`,
    [newMailId(), mail.subjectId, mail.recipient, mail.paymentId, JSON.stringify(mail.params), currentTraceparent()],
  );
  if (rows.length > 0) MAILS_COMMITTED.markWrittenIn(tx);
  return rows.length > 0;
}

/**
 * An account mail (account-mail.ts): its own subject (every one a mail of its own: a second reset link is a second
 * mail), its subject line in the clear (no link is in it), its words only sealed. Outside a transaction the insert
 * commits on its own, so the relay is woken at once.
 */
export async function insertAccountMail(em: EntityManager, mail: { id: string; kind: string; recipient: string; sellerId: string; subject: string; sealedBody: string }): Promise<void> {
  await em.execute(
    `insert into "mail_outbox" ("id", "kind", "subject_id", "recipient", "seller_id", "subject", "sealed_body", "traceparent") values (?, ?, ?, ?, ?, ?, ?, ?)`,
    [mail.id, mail.kind, mail.id, mail.recipient, mail.sellerId, mail.subject, mail.sealedBody, currentTraceparent()],
  );
  if (em.isInTransaction()) MAILS_COMMITTED.markWrittenIn(em);
  else MAILS_COMMITTED.raise();
}

/** Whether the seller has verified their own e-mail address. */
export async function sellerAddressVerified(tx: EntityManager, sellerId: string): Promise<boolean> {
  const rows = await tx.execute(`select 1 from "sellers" where "id" = ? and "email_verified_at" is not null`, [sellerId]);
  return rows.length > 0;
}

/** Whether a refund-request mail was written for the payment already (of any of its refunds). */
export async function refundRequestMailed(tx: EntityManager, paymentId: string): Promise<boolean> {
  const rows = await tx.execute(`select 1 from "mail_outbox" where "kind" = 'refund-requested' and "payment_id" = ? limit 1`, [paymentId]);
  return rows.length > 0;
}

/** The `trackingToken` a refund's request mail was written with; null when there is no such mail or it carries none. */
export async function requestMailTrackingToken(tx: EntityManager, refundId: string): Promise<string | null> {
  const [row] = await tx.execute<{ token: string | null }[]>(`select "params"->>'trackingToken' as token from "mail_outbox" where "kind" = 'refund-requested' and "subject_id" = ?`, [refundId]);
  return row?.token ?? null;
}

/** A mail the relay found due: attempt number `attemptCount + 1`, and the traceparent it was written under (tracing on). */
export interface DueMailRow {
  id: string;
  attemptCount: number;
  traceparent: string | null;
  /** When this attempt was put on the queue before (ms since the epoch) and not claimed since, or null. */
  handedOverAt: number | null;
}

/**
 * Up to `limit` mails due for an attempt, the most overdue first: pending and due, or `sending` with a lease run
 * out. With `requeueAfterMs` (queue mode), a mail already handed over for this attempt is left out unless that was
 * longer ago. The traceparent is read only with tracing on.
 */
async function dueMails(em: EntityManager, limit: number, requeueAfterMs: number | null): Promise<DueMailRow[]> {
  const rows = await em.execute<{ id: string; attempt_count: number; traceparent: string | null; handed_over_at: number | null }[]>(
    `select "id", "attempt_count", ${HANDED_OVER_AT_SQL}, case when ?::boolean then "traceparent" end as traceparent from "mail_outbox"
      where (("status" = ? and "next_attempt_at" <= now()) or ("status" = ? and "locked_until" < now()))
        and (?::int is null or "enqueued_attempt" is distinct from "attempt_count" or "enqueued_at" < now() - ?::int * interval '1 millisecond')
      order by "next_attempt_at" limit ?`,
    [tracingOn(), MailStatus.PENDING, MailStatus.SENDING, requeueAfterMs, requeueAfterMs, limit],
  );
  return rows.map((row) => ({ id: row.id, attemptCount: row.attempt_count, traceparent: row.traceparent, handedOverAt: row.handed_over_at }));
}

/** Notes what was put on the queue, per mail and attempt, so the next relay pass does not put it there again. */
async function markMailsEnqueued(em: EntityManager, due: { id: string; attemptCount: number }[]): Promise<void> {
  await em.execute(
    `update "mail_outbox" m set "enqueued_attempt" = v."attempt", "enqueued_at" = now()
       from jsonb_to_recordset(?::jsonb) as v("id" text, "attempt" int) where m."id" = v."id"`,
    [JSON.stringify(due.map((d) => ({ id: d.id, attempt: d.attemptCount })))],
  );
}

/** The mail relay's statements (src/platform/outbox/attempt-relay.ts). */
export const MAIL_STATEMENTS: RelayStatements<EntityManager> = { signal: MAILS_COMMITTED, due: dueMails, markHandedOver: markMailsEnqueued };

/** An outbox row as selected (`select *`, or a claim's `returning`): the columns a mail is rendered from. */
export interface OutboxRow {
  id: string;
  kind: string;
  subject_id: string;
  recipient: string;
  seller_id: string | null;
  shop_id: string | null;
  payment_id: string | null;
  params: Record<string, unknown> | string | null;
  created_at: Date | string;
}

/** What a mail is rendered from: what it is, to whom, about what, and the facts it was written with. */
export interface OutboxMail {
  id: string;
  kind: string;
  subjectId: string;
  recipient: string;
  sellerId: string | null;
  shopId: string | null;
  paymentId: string | null;
  params: Record<string, unknown>;
  createdAt: Date;
}

/** A row as a mail; `params` is a jsonb column, parsed already by some pools and text on others. */
export function outboxMailOf(row: OutboxRow): OutboxMail {
  return {
    id: row.id,
    kind: row.kind,
    subjectId: row.subject_id,
    recipient: row.recipient,
    sellerId: row.seller_id,
    shopId: row.shop_id,
    paymentId: row.payment_id,
    params: typeof row.params === 'string' ? (JSON.parse(row.params) as Record<string, unknown>) : (row.params ?? {}),
    createdAt: new Date(row.created_at),
  };
}

/** A mail as a worker claimed it: the message as written out at the first claim, or nulls until then. */
export interface ClaimedMail extends OutboxMail {
  /** This attempt's number. */
  attemptCount: number;
  /** When its retries started: its writing, or an admin's resend. */
  retryFrom: Date;
  rawMessage: string | null;
  messageId: string | null;
  subject: string | null;
  /** A customer mail's mailbox once decided under the daily cap (admitted or suppressed); null before its first claim. */
  recipientKey: string | null;
  /** An account mail's words, sealed (account-mail.ts); null for the other mails. */
  sealedBody: string | null;
}

/** A mail as its claim returns it. */
type ClaimedRow = OutboxRow & { attempt_count: number; retry_from: Date | string; raw_message: string | null; message_id: string | null; subject: string | null; recipient_key: string | null; sealed_body: string | null };
/** The columns a claim reads of the mail it took. */
const CLAIMED_COLUMNS = ['kind', 'subject_id', 'recipient', 'seller_id', 'shop_id', 'payment_id', 'params', 'created_at', 'retry_from', 'attempt_count', 'raw_message', 'message_id', 'subject', 'recipient_key', 'sealed_body'];

const NOW: SqlPart = { sql: 'now()', params: [] };
const NULL: SqlPart = { sql: 'null', params: [] };
const value = (v: unknown): SqlPart => ({ sql: '?', params: [v] });

/**
 * Claims attempt number `attemptCount + 1` of a mail for `leaseMs` under `token`: the mail table's `claim` (due and
 * pending) and `reclaim` (`sending` with its lease run out) as one conditional UPDATE of the move engine, still at
 * `attemptCount` attempts, so two workers, a duplicate job or a retried job can never take the same attempt. Null
 * when it was not this worker's to take.
 */
export async function claimMail(em: EntityManager, mailId: string, attemptCount: number, token: string, leaseMs: number): Promise<ClaimedMail | null> {
  const [row] = (await runMoveStatement(em, MAIL_LIFECYCLE, ['claim', 'reclaim'], {
    id: mailId,
    set: {
      attempt_count: { sql: '"attempt_count" + 1', params: [] },
      last_attempt_at: NOW,
      claim_token: value(token),
      locked_until: { sql: "now() + ? * interval '1 millisecond'", params: [leaseMs] },
    },
    condition: { sql: '"attempt_count" = ?', params: [attemptCount] },
    when: { claim: { sql: '"next_attempt_at" <= now()', params: [] }, reclaim: { sql: '"locked_until" < now()', params: [] } },
    returning: CLAIMED_COLUMNS,
    select: { sql: 'select * from moved', params: [] },
  })) as unknown as ClaimedRow[];
  if (!row) return null;
  return {
    ...outboxMailOf(row),
    attemptCount: row.attempt_count,
    retryFrom: new Date(row.retry_from),
    rawMessage: row.raw_message,
    messageId: row.message_id,
    subject: row.subject,
    recipientKey: row.recipient_key,
    sealedBody: row.sealed_body,
  };
}

/** The moves out of `sending` that record an attempt's outcome. */
export type MailOutcomeMove = 'send' | 'keep' | 'retry' | 'lose' | 'giveUp' | 'suppress';

/** What an outcome writes besides the state (an account mail's words go once it is sent: `sealedBody` null). */
export interface MailOutcomeColumns {
  sentAt?: Date;
  failedAt?: Date;
  nextAttemptAt?: Date;
  lastError?: string | null;
  recipientKey?: string;
  sealedBody?: null;
}

const OUTCOME_COLUMNS: Record<keyof MailOutcomeColumns, string> = {
  sentAt: 'sent_at',
  failedAt: 'failed_at',
  nextAttemptAt: 'next_attempt_at',
  lastError: 'last_error',
  recipientKey: 'recipient_key',
  sealedBody: 'sealed_body',
};

/**
 * An attempt's outcome, the move out of `sending` in the move engine's statement, only under the claim's `token`;
 * the lease is released with it. False when the claim was no longer this worker's (its lease ran out).
 */
export async function recordMailOutcome(em: EntityManager, mailId: string, token: string, move: MailOutcomeMove, columns: MailOutcomeColumns): Promise<boolean> {
  const set: Record<string, SqlPart> = {};
  for (const [property, written] of Object.entries(columns)) set[OUTCOME_COLUMNS[property as keyof MailOutcomeColumns]] = value(written);
  const [row] = await runMoveStatement(em, MAIL_LIFECYCLE, move, {
    id: mailId,
    set: { ...set, locked_until: NULL, claim_token: NULL },
    condition: { sql: '"claim_token" = ?', params: [token] },
    select: { sql: 'select count(*)::int as moved from moved', params: [] },
  });
  return row.moved === 1;
}

/**
 * Whether a customer mail claimed under `token`, not yet decided, may go to mailbox `key` (mailboxKey): fewer than
 * `perDay` customer mails written in the last 24 hours were admitted to that mailbox, from any shop. Admitted, the
 * mail is marked with the key (under its claim), so it counts for the next. The count and the mark hold the
 * mailbox's advisory lock until the transaction ends: mails to one mailbox claimed at once are decided one after
 * the other, and never more than `perDay` admitted. `lost`: the claim was no longer this worker's.
 */
export async function admitCustomerMail(em: EntityManager, mailId: string, token: string, key: string, perDay: number): Promise<'admitted' | 'over' | 'lost'> {
  return em.transactional(async (tx) => {
    await tx.execute(`select pg_advisory_xact_lock(hashtext('mail-recipient:' || ?))`, [key]);
    const [row] = await tx.execute<{ n: number }[]>(
      `select count(*)::int as n from "mail_outbox"
        where "recipient_key" = ? and "created_at" > now() - interval '24 hours' and "status" <> ? and "id" <> ?`,
      [key, MailStatus.SUPPRESSED, mailId],
    );
    if (row.n >= perDay) return 'over';
    const marked = await tx.execute(`update "mail_outbox" set "recipient_key" = ? where "id" = ? and "claim_token" = ? returning "id"`, [key, mailId, token]);
    return marked.length > 0 ? 'admitted' : 'lost';
  });
}

/**
 * Keeps the message written out at a mail's first claim, which every later attempt sends byte for byte: only
 * under that claim's token and only once, so a claim that lost its lease meanwhile writes nothing.
 */
export async function keepWrittenOutMail(
  em: EntityManager,
  mailId: string,
  token: string,
  message: { messageId: string; subject: string; text: string; html: string; raw: string },
): Promise<void> {
  await em.execute(
    `update "mail_outbox" set "message_id" = ?, "subject" = ?, "text_body" = ?, "html_body" = ?, "raw_message" = ?
      where "id" = ? and "claim_token" = ? and "raw_message" is null`,
    [message.messageId, message.subject, message.text, message.html, message.raw, mailId, token],
  );
}

/**
 * An account mail written out at its first claim: its Message-ID, and its words sealed again with the whole message
 * (`sealedBody`), which every later attempt sends. Only under that claim's token and only once, like the others.
 */
export async function keepWrittenOutAccountMail(em: EntityManager, mailId: string, token: string, message: { messageId: string; sealedBody: string }): Promise<void> {
  await em.execute(`update "mail_outbox" set "message_id" = ?, "sealed_body" = ? where "id" = ? and "claim_token" = ? and "message_id" is null`, [
    message.messageId, message.sealedBody, mailId, token,
  ]);
}

/** One mail whole, as the CLI's `mail show` prints it: its words and its message as written at the first attempt. */
export interface MailText {
  id: string;
  kind: string;
  status: string;
  recipient: string;
  createdAt: Date;
  sentAt: Date | null;
  lastError: string | null;
  /** Null until a worker wrote the mail out (its first attempt). */
  subject: string | null;
  text: string | null;
  html: string | null;
  raw: string | null;
  /** An account mail's words, sealed: opened by mailText (mail-listing.ts); null once sent, and for the other mails. */
  sealedBody: string | null;
}

/** A mail whole by its id; null when there is none. */
export async function selectMailText(em: EntityManager, id: string): Promise<MailText | null> {
  const [row] = await em.execute<
    { id: string; kind: string; status: string; recipient: string; created_at: Date; sent_at: Date | null; last_error: string | null; subject: string | null; text_body: string | null; html_body: string | null; raw_message: string | null; sealed_body: string | null }[]
  >(
    `select "id", "kind", "status", "recipient", "created_at", "sent_at", "last_error", "subject", "text_body", "html_body", "raw_message", "sealed_body" from "mail_outbox" where "id" = ?`,
    [id],
  );
  if (!row) return null;
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    recipient: row.recipient,
    createdAt: new Date(row.created_at),
    sentAt: row.sent_at ? new Date(row.sent_at) : null,
    lastError: row.last_error,
    subject: row.subject,
    text: row.text_body,
    html: row.html_body,
    raw: row.raw_message,
    sealedBody: row.sealed_body,
  };
}

/** The mail outbox's counts behind the /metrics gauges: due now, waiting for a retry, and those an admin should look at. */
export interface MailQueueDepth {
  due: number;
  waiting: number;
  failed: number;
  /** Handed over and unanswered: maybe delivered. */
  unknown: number;
}

/** The mail outbox's counts for a /metrics scrape, in one statement. */
export async function mailQueueDepth(em: EntityManager): Promise<MailQueueDepth> {
  const [row] = await em.execute<{ due: string; waiting: string; failed: string; unknown: string }[]>(
    `select
       (select count(*) from "mail_outbox" where "status" = ? and "next_attempt_at" <= now()) as due,
       (select count(*) from "mail_outbox" where "status" = ? and "next_attempt_at" > now()) as waiting,
       (select count(*) from "mail_outbox" where "status" = ?) as failed,
       (select count(*) from "mail_outbox" where "status" = ?) as unknown`,
    [MailStatus.PENDING, MailStatus.PENDING, MailStatus.FAILED, MailStatus.UNKNOWN],
  );
  return { due: Number(row.due), waiting: Number(row.waiting), failed: Number(row.failed), unknown: Number(row.unknown) };
}
