import type { EntityManager } from '@mikro-orm/postgresql';
import type { CreatePaymentCommand } from './payment-rules';
import type { PaymentSnapshot, PaymentFields } from './payment-snapshot';
import type { PaymentStatus } from './payment-status';

/**
 * The hot path's SQL: one statement per request, run on a pooled connection of the ORM's own pool
 * without the unit of work or the query builder (docs/performance.md has the measurements). Never call these inside
 * a transaction: they take their own connection.
 */
async function query(em: EntityManager, sql: string, values: unknown[]): Promise<Record<string, unknown>[]> {
  const client = em.getConnection().getKnex().client;
  const connection = await client.acquireConnection();
  try {
    return (await connection.query(sql, values)).rows;
  } finally {
    client.releaseConnection(connection);
  }
}

const PAYMENT_COLUMNS = `"id", "shop_id", "amount", "currency", "return_url", "customer_email", "customer_name", "metadata", "created_at"`;

function paymentValues(shopId: string, snapshot: PaymentSnapshot, command: CreatePaymentCommand): unknown[] {
  return [snapshot.id, shopId, command.amount, command.currency, command.returnUrl, command.customerEmail, command.customerName, JSON.stringify(command.metadata), snapshot.createdAt];
}

/** `$first, $first+1, …` for the nine payment values. */
const placeholders = (first: number) => Array.from({ length: 9 }, (_, i) => `$${first + i}`).join(', ').replace(`$${first + 7}`, `$${first + 7}::json`);

// Built once: these run on every create.
const INSERT_PAYMENT = `insert into "payments" (${PAYMENT_COLUMNS}) values (${placeholders(1)})`;
const INSERT_PAYMENT_FOR_NEW_KEY = `with "record" as (
       insert into "idempotency_records" ("shop_id", "key", "request", "response", "payment_id", "created_at")
       values ($1, $2, $3::json, $4::json, $5, $6) on conflict ("shop_id", "key") do nothing returning "payment_id")
     insert into "payments" (${PAYMENT_COLUMNS}) select ${placeholders(7)} from "record" returning "id"`;

export async function insertPayment(em: EntityManager, shopId: string, snapshot: PaymentSnapshot, command: CreatePaymentCommand): Promise<void> {
  await query(em, INSERT_PAYMENT, paymentValues(shopId, snapshot, command));
}

/**
 * Inserts the idempotency record and the payment in one statement: the payment exists only if the
 * record for (shop, key) was new. A concurrent twin waits on the unique index for the first statement
 * to commit, then inserts nothing. Returns false when the key was already taken.
 */
export async function insertPaymentForNewKey(em: EntityManager, shopId: string, key: string, snapshot: PaymentSnapshot, command: CreatePaymentCommand): Promise<boolean> {
  const rows = await query(
    em,
    INSERT_PAYMENT_FOR_NEW_KEY,
    [shopId, key, JSON.stringify(command), JSON.stringify(snapshot), snapshot.id, snapshot.createdAt, ...paymentValues(shopId, snapshot, command)],
  );
  return rows.length === 1;
}

/** A shop's payment as the seller reads it: the scalar fields of the GraphQL `Payment` type. */
export async function selectShopPayment(em: EntityManager, id: string, shopId: string): Promise<PaymentFields | null> {
  const [row] = await query(
    em,
    // Epoch milliseconds: the ORM's type parsers leave timestamps as driver strings on this pool.
    `select "id", "amount", "currency", "status", "customer_email", "customer_name", "metadata",
       floor(extract(epoch from "created_at") * 1000) as "created_ms", floor(extract(epoch from "completed_at") * 1000) as "completed_ms"
     from "payments" where "id" = $1 and "shop_id" = $2`,
    [id, shopId],
  );
  if (!row) return null;
  return {
    id: row.id as string,
    amount: Number(row.amount),
    currency: row.currency as string,
    status: row.status as PaymentStatus,
    customerEmail: row.customer_email as string | null,
    customerName: row.customer_name as string | null,
    metadata: (typeof row.metadata === 'string' ? JSON.parse(row.metadata) : row.metadata) as PaymentFields['metadata'],
    createdAt: new Date(Number(row.created_ms)),
    completedAt: row.completed_ms === null ? null : new Date(Number(row.completed_ms)),
  };
}
