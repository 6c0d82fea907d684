import type { EntityManager } from '@mikro-orm/postgresql';
import type { Shop } from '../shops/shop.entity';
import { Payment } from './payment.entity';
import type { CreatePaymentCommand } from './payment-rules';
import type { PaymentSnapshot } from './payment-snapshot';

/**
 * The create path's SQL: one statement per request, no unit of work. This is the hottest write in the
 * service (docs/performance.md); the entity mapping stays in payment.entity.ts for everything else.
 */
const INSERT_PAYMENT = `insert into "payments" ("id", "shop_id", "amount", "currency", "return_url", "customer_email", "customer_name", "metadata", "created_at")`;
const PAYMENT_VALUES = `?, ?, ?, ?, ?, ?, ?, ?::json, ?`;

function paymentValues(shop: Shop, snapshot: PaymentSnapshot, command: CreatePaymentCommand): unknown[] {
  return [snapshot.id, shop.id, command.amount, command.currency, command.returnUrl, command.customerEmail, command.customerName, JSON.stringify(command.metadata), snapshot.createdAt];
}

export async function insertPayment(em: EntityManager, shop: Shop, snapshot: PaymentSnapshot, command: CreatePaymentCommand): Promise<void> {
  await em.getConnection().execute(`${INSERT_PAYMENT} values (${PAYMENT_VALUES})`, paymentValues(shop, snapshot, command), 'run');
}

/**
 * Inserts the idempotency record and the payment in one statement: the payment exists only if the
 * record for (shop, key) was new. A concurrent twin waits on the unique index for the first statement
 * to commit, then inserts nothing. Returns false when the key was already taken.
 */
export async function insertPaymentForNewKey(em: EntityManager, shop: Shop, key: string, snapshot: PaymentSnapshot, command: CreatePaymentCommand): Promise<boolean> {
  const rows = await em.getConnection().execute(
    `with "record" as (
       insert into "idempotency_records" ("shop_id", "key", "request", "response", "payment_id", "created_at")
       values (?, ?, ?::json, ?::json, ?, ?) on conflict ("shop_id", "key") do nothing returning "payment_id")
     ${INSERT_PAYMENT} select ${PAYMENT_VALUES} from "record" returning "id"`,
    [shop.id, key, JSON.stringify(command), JSON.stringify(snapshot), snapshot.id, snapshot.createdAt, ...paymentValues(shop, snapshot, command)],
    'all',
  );
  return rows.length === 1;
}

/** The retrieve path: one SELECT, mapped to a managed entity without building a query per request. */
export async function selectPayment(em: EntityManager, id: string, shopId: string | null): Promise<Payment | null> {
  const rows = shopId
    ? await em.getConnection().execute('select * from "payments" where "id" = ? and "shop_id" = ?', [id, shopId])
    : await em.getConnection().execute('select * from "payments" where "id" = ?', [id]);
  return rows.length === 1 ? em.map(Payment, rows[0]) : null;
}
