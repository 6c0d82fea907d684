import type { EntityManager } from '@mikro-orm/postgresql';
import { numberedPlaceholders, pooledQuery } from '../db/pooled-query';
import { completedPaymentPostings, liveTestPostings, newJournalId } from '../ledger/ledger.service';
import type { Payment } from '../payments/payment.entity';
import { PAYMENT_LIFECYCLE } from '../lifecycles/payment.lifecycle';
import type { PaymentFields } from '../payments/payment-snapshot';
import type { SellerStatus } from '../shops/seller.entity';
import type { ShopStatus } from '../shops/shop.entity';
import { TAKES_PAYMENTS_SQL, type ShopStanding } from '../shops/payment-standing';
import { shopReceives } from '../shops/webhook-event-choice';
import { newWebhookDeliveryId } from '../webhooks/webhook-delivery.entity';
import { NEXT_SEQUENCE_SQL, paymentEventDraft, type PaymentEventType } from '../webhooks/outbox';
import { newMailId } from '../notifications/mail-outbox';
import type { CustomerMailKind } from '../notifications/mail-kinds';
import { currentTraceparent } from '../observability/tracing';

/**
 * The payment table's `complete` move, which this statement writes (its journal and event are the CTEs below),
 * or `completeTest` for a live test: the same states, a journal without fee (liveTestPostings).
 */
const completionMove = (name: 'complete' | 'completeTest') => {
  const move = PAYMENT_LIFECYCLE.moves[name];
  if (!move.stage || !move.event || !move.journal) throw new Error(`the payment table's ${name} move must declare its stage, journal and event`);
  return { from: move.from[0], to: move.to, stageFrom: move.stage.from[0], stageTo: move.stage.to, event: move.event as PaymentEventType };
};
const COMPLETE = completionMove('complete');
const COMPLETE_TEST = completionMove('completeTest');

export interface CompletionFacts {
  /** The payment as created (its amount, customer, metadata and `test` never change). */
  payment: PaymentFields & { test: boolean };
  shop: { id: string; name: string };
  processorReference: string;
  /** Undefined: keep what is stored (reconciliation does not know how 3-D Secure went). */
  threeDsOutcome: Payment['threeDsOutcome'] | undefined;
  baseUrl: string;
}

export interface CompletionResult {
  /** Whether this statement moved the payment to `completed` (and wrote its journal and event). */
  completed: boolean;
  /** The shop's standing read under FOR SHARE locks by the same statement. */
  standing: ShopStanding;
  /** Whether a webhook delivery was written (the relay is woken for it). */
  delivery: boolean;
  /** Whether the customer's receipt was written to the mail outbox (the mail relay is woken for it). */
  receipt: boolean;
  /** When `completed`: the columns a checkout view shows, as this statement wrote them. */
  written: Pick<Payment, 'status' | 'checkoutStage' | 'completedAt'> | null;
}

/** The mail kind of the customer's receipt (src/notifications/mail-kinds.ts). */
const RECEIPT = 'receipt' satisfies CustomerMailKind;

const builtStatements = new Map<number, string>();

/** The statement for a journal of `postingCount` entries (a completion's four, a live test's two), in pg's `$n` form, built once each. */
function completionSql(postingCount: number): string {
  let sql = builtStatements.get(postingCount);
  if (sql === undefined) {
    sql = numberedPlaceholders(templateSql(postingCount));
    builtStatements.set(postingCount, sql);
  }
  return sql;
}

const templateSql = (postingCount: number) => `with standing as (
       select sh."id" as shop_id, se."id" as seller_id, sh."status" as shop_status, sh."deleted_at", se."status" as seller_status,
              sh."webhook_url", sh."webhook_events", (${TAKES_PAYMENTS_SQL}) as takes_payments
         from "payments" p join "shops" sh on sh."id" = p."shop_id" join "sellers" se on se."id" = sh."seller_id"
        where p."id" = ? for share of sh, se
     ), moved as (
       update "payments" set "status" = ?, "checkout_stage" = ?, "completed_at" = ?, "processor_reference" = ?,
              "needs_attention_at" = null, "three_ds_outcome" = case when ?::boolean then "three_ds_outcome" else ?::text end
        where "id" = ? and "status" = ? and "checkout_stage" = ? and (select takes_payments from standing)
       returning "id"
     ), ledger as (
       insert into "ledger_entries" ("journal_id", "account", "seller_id", "payment_id", "kind", "amount", "created_at")
       select ?::text, v.account, case when v.to_seller then s.seller_id end, m."id", v.kind, v.amount, ?::timestamptz
         from moved m cross join standing s
        cross join (values ${Array.from({ length: postingCount }, () => '(?::text, ?::text, ?::bigint, ?::boolean, ?::int)').join(', ')}) as v(account, kind, amount, to_seller, n)
        order by v.n
     ), event as (
       insert into "webhook_events" ("id", "shop_id", "payment_id", "type", "sequence", "body", "test", "created_at", "traceparent")
       select ?::text, s.shop_id, m."id", ?::text, n.next, ?::text || n.next::text || ?::text, false, ?::timestamptz, ?::text
         from moved m cross join standing s cross join (${NEXT_SEQUENCE_SQL}) n
       returning "id"
     ), delivery as (
       insert into "webhook_deliveries" ("id", "event_id", "shop_id", "payment_id", "next_attempt_at", "created_at")
       select ?::text, e."id", s.shop_id, ?::text, ?::timestamptz, ?::timestamptz
         from event e cross join standing s
        where s."webhook_url" is not null and (?::boolean or ?::text = any(s."webhook_events"))
       returning "id"
     ), receipt as (
       insert into "mail_outbox" ("id", "kind", "subject_id", "recipient", "seller_id", "shop_id", "payment_id", "traceparent")
       select ?::text, ?::text, m."id", ?::text, s.seller_id, s.shop_id, m."id", ?::text
         from moved m cross join standing s
        where ?::text is not null
       on conflict ("kind", "subject_id") do nothing
       returning "id"
     )
     select (select count(*) from moved)::int as moved, (select count(*) from delivery)::int as deliveries,
            (select count(*) from receipt)::int as receipts,
            s.shop_status, s.deleted_at, s.seller_status
       from standing s`;

/**
 * The whole completion as ONE statement, so it is atomic without BEGIN/COMMIT and costs one round trip (sent on
 * a pooled connection, never inside a transaction)
 * (docs/decisions/0003-completion-statement.md):
 * 1. `standing`: the shop and seller rows under FOR SHARE, so a suspension, deactivation or deletion waits for
 *    this statement, and one committed before it is seen (READ COMMITTED re-reads a locked row's newest version);
 * 2. `moved`: the conditional UPDATE `processing` -> `completed`, only while the shop takes payments; it takes the
 *    payment's row lock, so only one completion of a payment ever gets a row out of it;
 * 3. `ledger`: the journal's entries (four; a live test's two, without fee) in one INSERT, only for a moved row (the journal-balance trigger runs
 *    at the end of the statement's implicit transaction);
 * 4. `event`: the outbox row, its sequence taken in the same INSERT (with tracing on, the request's traceparent);
 * 5. `delivery`: the webhook delivery, due at once, when the shop has a webhook URL that receives the event;
 * 6. `receipt`: the customer's receipt in the mail outbox, when the payment has `customer_email`
 *    (src/notifications/, docs/decisions/0001-mail-outbox.md): the mail workers render and send it later.
 * Nothing is written unless `moved` returned a row, and all of it commits together or not at all.
 */
export async function completeInOneStatement(em: EntityManager, facts: CompletionFacts): Promise<CompletionResult> {
  const { test } = facts.payment;
  const { from, to, stageFrom, stageTo, event: eventType } = test ? COMPLETE_TEST : COMPLETE;
  const completedAt = new Date();
  const { id, amount, currency, customerEmail, customerName, metadata, createdAt } = facts.payment;
  const after: PaymentFields = { id, amount, currency, status: to, customerEmail, customerName, metadata, createdAt, completedAt };
  const event = paymentEventDraft(after, facts.shop, eventType, facts.baseUrl, test);
  const postings = test ? liveTestPostings(amount) : completedPaymentPostings(amount);
  const keepThreeDs = facts.threeDsOutcome === undefined;
  const receivesAlways = shopReceives([], event.type);
  // With tracing on, the event and the receipt carry this request's trace to their delivery (null when off).
  const traceparent = currentTraceparent();

  const [row] = (await pooledQuery(em, completionSql(postings.length), [
    id,
    to, stageTo, completedAt, facts.processorReference, keepThreeDs, facts.threeDsOutcome ?? null,
    id, from, stageFrom,
    newJournalId(), event.createdAt, ...postings.flatMap((p, n) => [p.account, p.kind, p.amount, p.toSeller, n]),
    event.id, event.type, event.before, event.after, event.createdAt, traceparent, id,
    newWebhookDeliveryId(), id, event.createdAt, event.createdAt, receivesAlways, event.type,
    newMailId(), RECEIPT, customerEmail, traceparent, customerEmail,
  ])) as { moved: number; deliveries: number; receipts: number; shop_status: ShopStatus; deleted_at: Date | null; seller_status: SellerStatus }[];
  return {
    completed: row.moved === 1,
    standing: { shopStatus: row.shop_status, shopDeleted: row.deleted_at !== null, sellerStatus: row.seller_status },
    delivery: row.deliveries > 0,
    receipt: row.receipts > 0,
    written: row.moved === 1 ? { status: to as Payment['status'], checkoutStage: stageTo as Payment['checkoutStage'], completedAt } : null,
  };
}
