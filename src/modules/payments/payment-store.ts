import type { EntityManager } from '@mikro-orm/postgresql';
import { pooledQuery } from '../../platform/db/pooled-query';
import type { Seller, Shop } from '../identity';
import type { Payment } from './payment.entity';
import type { CreatePaymentCommand } from './payment-rules';
import type { PaymentView } from './payment-view';
import { CheckoutStage, type PaymentStatus } from './payment-status';

// The hot paths' SQL: one statement per request on a pooled connection (src/platform/db/pooled-query.ts).

/** The driver hands json columns back parsed; text is parsed too, so the mapping does not hang on the driver's type parsers. */
const parsedJson = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);
const dateOf = (epochMs: unknown): Date | null => (epochMs === null ? null : new Date(Number(epochMs)));

const PAYMENT_COLUMNS = `"id", "shop_id", "amount", "currency", "return_url", "customer_email", "customer_name", "metadata", "created_at"`;

function paymentValues(shopId: string, payment: PaymentView, command: CreatePaymentCommand): unknown[] {
  return [payment.id, shopId, command.amount, command.currency, command.returnUrl, command.customerEmail, command.customerName, JSON.stringify(command.metadata), payment.createdAt];
}

/** The nine payment values' placeholders (the eighth, metadata, is JSON). */
const PAYMENT_PLACEHOLDERS = '?, ?, ?, ?, ?, ?, ?, ?::json, ?';

// Built once: these run on every create.
const INSERT_PAYMENT = `insert into "payments" (${PAYMENT_COLUMNS}) values (${PAYMENT_PLACEHOLDERS})`;
const INSERT_PAYMENT_FOR_NEW_KEY = `with "record" as (
       insert into "idempotency_records" ("shop_id", "key", "request", "response", "payment_id", "created_at")
       values (?, ?, ?::json, ?::json, ?, ?) on conflict ("shop_id", "key") do nothing returning "payment_id")
     insert into "payments" (${PAYMENT_COLUMNS}) select ${PAYMENT_PLACEHOLDERS} from "record" returning "id"`;

export async function insertPayment(em: EntityManager, shopId: string, payment: PaymentView, command: CreatePaymentCommand): Promise<void> {
  await pooledQuery(em, INSERT_PAYMENT, paymentValues(shopId, payment, command));
}

/**
 * Inserts the idempotency record and the payment in one statement: the payment exists only if the
 * record for (shop, key) was new. A concurrent twin waits on the unique index for the first statement
 * to commit, then inserts nothing. Returns false when the key was already taken.
 */
export async function insertPaymentForNewKey(em: EntityManager, shopId: string, key: string, payment: PaymentView, command: CreatePaymentCommand): Promise<boolean> {
  const rows = await pooledQuery(
    em,
    INSERT_PAYMENT_FOR_NEW_KEY,
    [shopId, key, JSON.stringify(command), JSON.stringify(payment), payment.id, payment.createdAt, ...paymentValues(shopId, payment, command)],
  );
  return rows.length === 1;
}

/** A shop's payment as the seller reads it: the scalar fields of the GraphQL `Payment` type. */
export async function selectShopPayment(em: EntityManager, id: string, shopId: string): Promise<(PaymentView & Pick<Payment, 'test'>) | null> {
  const [row] = await pooledQuery(
    em,
    // Epoch milliseconds: the ORM's type parsers leave timestamps as driver strings on this pool.
    `select "id", "amount", "currency", "status", "customer_email", "customer_name", "metadata", "test",
       floor(extract(epoch from "created_at") * 1000) as "created_ms", floor(extract(epoch from "completed_at") * 1000) as "completed_ms"
     from "payments" where "id" = ? and "shop_id" = ?`,
    [id, shopId],
  );
  return row ? { ...paymentViewOfEpochRow(row), test: row.test === true } : null;
}

/**
 * The read shape of a `payments` row that a raw statement selected: the hot paths here, and the export's pages
 * (payment-search-store.ts). Each statement gives its times in its own form, so they come converted.
 */
export function paymentViewOfRow(row: Record<string, unknown>, createdAt: Date, completedAt: Date | null): PaymentView {
  return {
    id: row.id as string,
    amount: Number(row.amount),
    currency: row.currency as string,
    status: row.status as PaymentStatus,
    customerEmail: row.customer_email as string | null,
    customerName: row.customer_name as string | null,
    metadata: parsedJson(row.metadata) as PaymentView['metadata'],
    createdAt,
    completedAt,
  };
}

/** The view of a hot-path row, which selects its times as `created_ms` and `completed_ms` (epoch milliseconds). */
function paymentViewOfEpochRow(row: Record<string, unknown>): PaymentView {
  return paymentViewOfRow(row, dateOf(row.created_ms)!, dateOf(row.completed_ms));
}

/** A payment as its checkout reads it: its view plus the checkout's own fields and its shop's standing, what the page, a card submission and a completion use. */
export type CheckoutPayment = PaymentView &
  Pick<Payment, 'checkoutStage' | 'failureCode' | 'returnUrl' | 'threeDsRedirect' | 'threeDsReference' | 'threeDsReturnHash' | 'test'> & {
    shop: Pick<Shop, 'id' | 'name' | 'status' | 'deletedAt'> & { seller: Pick<Seller, 'status'> };
  };

const SELECT_CHECKOUT_PAYMENT = `select p."id", p."amount", p."currency", p."status", p."checkout_stage", p."failure_code", p."return_url",
       p."three_ds_redirect", p."three_ds_reference", p."three_ds_return_hash", p."test", p."customer_email", p."customer_name", p."metadata",
       floor(extract(epoch from p."created_at") * 1000) as "created_ms", floor(extract(epoch from p."completed_at") * 1000) as "completed_ms",
       sh."id" as "shop_id", sh."name" as "shop_name", sh."status" as "shop_status",
       floor(extract(epoch from sh."deleted_at") * 1000) as "shop_deleted_ms", se."status" as "seller_status"
     from "payments" p join "shops" sh on sh."id" = p."shop_id" join "sellers" se on se."id" = sh."seller_id"
    where p."id" = ?`;

/**
 * Any payment with its shop and seller, by id alone (the id is the checkout's capability): one joined statement,
 * the row as it is now. Every checkout call reads it, so no entities are built (docs/decisions/0003-completion-statement.md).
 */
export async function selectCheckoutPayment(em: EntityManager, id: string): Promise<CheckoutPayment | null> {
  const [row] = await pooledQuery(em, SELECT_CHECKOUT_PAYMENT, [id]);
  if (!row) return null;
  return {
    ...paymentViewOfEpochRow(row),
    checkoutStage: row.checkout_stage as CheckoutStage,
    failureCode: row.failure_code as string | null,
    returnUrl: row.return_url as string,
    threeDsRedirect: parsedJson(row.three_ds_redirect) as CheckoutPayment['threeDsRedirect'],
    threeDsReference: row.three_ds_reference as string | null,
    threeDsReturnHash: row.three_ds_return_hash as string | null,
    test: row.test === true,
    shop: {
      id: row.shop_id as string,
      name: row.shop_name as string,
      status: row.shop_status as Shop['status'],
      deletedAt: dateOf(row.shop_deleted_ms),
      seller: { status: row.seller_status as Seller['status'] },
    },
  };
}

// Off the hot paths: on the EntityManager's own connection, so a caller inside a transaction reads in it.

/** The shop's live tests created since midnight UTC, whatever became of them (a test abandoned or declined counts too). */
export async function countLiveTestsToday(em: EntityManager, shopId: string): Promise<number> {
  const [row] = await em.execute<{ used: string }[]>(
    `select count(*) as used from "payments"
      where "shop_id" = ? and "test" and "created_at" >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'`,
    [shopId],
  );
  return Number(row.used);
}

/**
 * Takes the shop's live-test lock until `tx` ends: a transaction-scoped advisory lock, so no payment row or shop
 * row is locked, and two live tests of one shop count and insert one after the other.
 */
export async function lockShopLiveTests(tx: EntityManager, shopId: string): Promise<void> {
  await tx.execute(`select pg_advisory_xact_lock(hashtext('live-test:' || ?))`, [shopId]);
}

/** When the payment's last `payment.failed` event was written (in the failing move's transaction); null if none. */
export async function selectFailedAt(em: EntityManager, paymentId: string): Promise<Date | null> {
  const [row] = await em.execute<{ created_at: Date | string }[]>(
    `select "created_at" from "webhook_events" where "payment_id" = ? and "type" = 'payment.failed' order by "sequence" desc limit 1`,
    [paymentId],
  );
  return row ? new Date(row.created_at) : null;
}

/** Payments left processing whose acquirer outcome stayed unknown (`needs_attention_at`): an admin must settle them. */
export async function countPaymentsNeedingAttention(em: EntityManager): Promise<number> {
  const [row] = await em.execute<{ flagged: string }[]>(
    `select count(*) as flagged from "payments" where "needs_attention_at" is not null and "checkout_stage" = ?`,
    [CheckoutStage.PROCESSING],
  );
  return Number(row.flagged);
}
