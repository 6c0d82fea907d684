import type { EntityManager } from '@mikro-orm/postgresql';
import { moveOf, type Lifecycle } from '../../platform/lifecycle/lifecycle';
import { runMoveStatement, type SqlPart } from '../../platform/lifecycle/move-statement';
import { completionJournalPart } from '../ledger';
import { type Payment, paymentPayload, type PaymentView } from '../payments';
import { PAYMENT_LIFECYCLE } from '../payments/payment.lifecycle';
import { type SellerStatus, type ShopStatus, TAKES_PAYMENTS_SQL, type ShopStanding } from '../identity';
import { deliveriesCommitted, emitInStatement, type PaymentEventType } from '../webhooks';
import { receiptInsertPart, type CustomerMailKind } from '../notifications';
import { currentTraceparent } from '../../platform/observability/tracing';

export interface CompletionFacts {
  /** The payment as created (its amount, customer, metadata and `test` never change). */
  payment: PaymentView & { test: boolean };
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
  /** Whether a webhook delivery was written (the relays of this process are woken for it). */
  delivery: boolean;
  /** Whether the customer's receipt was written to the mail outbox (the mail relay is woken for it). */
  receipt: boolean;
  /** When `completed`: the columns a checkout view shows, as this statement wrote them. */
  written: Pick<Payment, 'status' | 'checkoutStage' | 'completedAt'> | null;
}

/** The shop and seller under FOR SHARE locks: a suspension, deactivation or deletion waits for the statement. */
const STANDING = `select sh."id" as shop_id, se."id" as seller_id, sh."status" as shop_status, sh."deleted_at", se."status" as seller_status,
       sh."webhook_url", sh."webhook_events", (${TAKES_PAYMENTS_SQL}) as takes_payments
  from "payments" p join "shops" sh on sh."id" = p."shop_id" join "sellers" se on se."id" = sh."seller_id"
 where p."id" = ? for share of sh, se`;

const ANSWER: SqlPart = {
  sql: `select (select count(*) from moved)::int as moved, (select count(*) from delivery)::int as deliveries,
               (select count(*) from receipt)::int as receipts, s.shop_status, s.deleted_at, s.seller_status
          from standing s`,
  params: [],
};

/**
 * The whole completion as ONE statement, so it is atomic without BEGIN/COMMIT and costs one round trip (sent on
 * a pooled connection, never inside a transaction; docs/decisions/0003-completion-statement.md). It is the
 * payment table's `complete` move (`completeTest` for a live test) in the move engine's one-statement form, so
 * the move's states and its declared journal, event and receipt come from the table:
 * 1. `standing`: the shop and seller rows under FOR SHARE, so a suspension, deactivation or deletion waits for
 *    this statement, and one committed before it is seen (READ COMMITTED re-reads a locked row's newest version);
 * 2. `moved`: the conditional UPDATE `processing` -> `completed`, only while the shop takes payments; it takes the
 *    payment's row lock, so only one completion of a payment ever gets a row out of it;
 * 3. `journal`: the declared journal's entries (the journal-balance trigger runs at the end of the statement);
 * 4. `event`: the declared event in the outbox (with tracing on, the request's traceparent), and its `delivery`,
 *    due at once, when the shop has a webhook URL that receives the event;
 * 5. `receipt`: the declared customer's receipt in the mail outbox, when the payment has `customer_email`: the mail
 *    workers render and send it later.
 * Nothing is written unless `moved` returned a row, and all of it commits together or not at all.
 */
export async function completeInOneStatement(em: EntityManager, facts: CompletionFacts, lifecycle: Lifecycle = PAYMENT_LIFECYCLE): Promise<CompletionResult> {
  const { test } = facts.payment;
  const moveName = test ? 'completeTest' : 'complete';
  const { to, stage } = moveOf(lifecycle, moveName);
  const completedAt = new Date();
  const { id, amount, currency, customerEmail, customerName, metadata, createdAt } = facts.payment;
  const after: PaymentView = { id, amount, currency, status: to as PaymentView['status'], customerEmail, customerName, metadata, createdAt, completedAt };
  // With tracing on, the event and the receipt carry this request's trace to their delivery (null when off).
  const traceparent = currentTraceparent();
  const [row] = (await runMoveStatement(em, lifecycle, moveName, {
    id,
    before: { standing: { sql: STANDING, params: [id] } },
    set: {
      completed_at: { sql: '?', params: [completedAt] },
      processor_reference: { sql: '?', params: [facts.processorReference] },
      needs_attention_at: { sql: 'null', params: [] },
      three_ds_outcome: { sql: 'case when ?::boolean then "three_ds_outcome" else ?::text end', params: [facts.threeDsOutcome === undefined, facts.threeDsOutcome ?? null] },
    },
    condition: { sql: 'select takes_payments from standing', params: [] },
    effects: {
      // The ledger's and the mail outbox's parts, built by their owners' stores.
      journal: (journal) => completionJournalPart(journal, amount, completedAt),
      // The outbox's statement form: the event and, when the shop's webhook receives it, its delivery.
      event: (type) => emitInStatement(id, paymentPayload(after, facts.baseUrl), facts.shop, type as PaymentEventType, test, traceparent),
      receipt: (kind) => receiptInsertPart(kind as CustomerMailKind, customerEmail, traceparent),
    },
    select: ANSWER,
  })) as { moved: number; deliveries: number; receipts: number; shop_status: ShopStatus; deleted_at: Date | null; seller_status: SellerStatus }[];
  // Committed as it returned (one statement, no transaction), which no commit hook sees: the relay may look now.
  if (row.deliveries > 0) deliveriesCommitted();
  return {
    completed: row.moved === 1,
    standing: { shopStatus: row.shop_status, shopDeleted: row.deleted_at !== null, sellerStatus: row.seller_status },
    delivery: row.deliveries > 0,
    receipt: row.receipts > 0,
    written: row.moved === 1 ? { status: to as Payment['status'], checkoutStage: stage?.to as Payment['checkoutStage'], completedAt } : null,
  };
}
