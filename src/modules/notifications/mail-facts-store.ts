import type { EntityManager } from '@mikro-orm/postgresql';
import { enumOf } from '../../platform/lifecycle/lifecycle';
import { WEBHOOK_DELIVERY_LIFECYCLE } from '../webhooks/webhook-delivery.lifecycle';

// What mails tell and whom they go to, read from other modules' tables: the payment and refund a customer's mail
// tells of and the shop a seller's notice names (read at the first attempt, as they are then), the webhook outages
// the failure sweep tells sellers of, and the admins a staff mail goes to.

const DELIVERY = enumOf(WEBHOOK_DELIVERY_LIFECYCLE.states);

/** A payment as its customer's mails tell it, with its shop's name and the addresses a reply could go to. */
export interface MailPaymentFacts {
  id: string;
  amount: number;
  /** Null while the payment is not completed. */
  completedAt: Date | null;
  cardBrand: string | null;
  cardLast4: string | null;
  customerName: string | null;
  shopName: string;
  sellerEmail: string;
  /** The seller's support address, when set (seller_mail_settings). */
  supportEmail: string | null;
  /** The customer's language (payments.language), null when none was recorded. */
  language: string | null;
}

/** A payment with its shop, seller and the seller's support address; null when there is no such payment. */
export async function mailPaymentFacts(em: EntityManager, paymentId: string): Promise<MailPaymentFacts | null> {
  const [row] = await em.execute<
    { id: string; amount: string | number; completed_at: Date | string | null; card_brand: string | null; card_last4: string | null; customer_name: string | null; shop_name: string; seller_email: string; support_email: string | null; language: string | null }[]
  >(
    `select p."id", p."amount", p."completed_at", p."card_brand", p."card_last4", p."customer_name", p."language",
            sh."name" as shop_name, se."email" as seller_email, m."support_email"
       from "payments" p join "shops" sh on sh."id" = p."shop_id" join "sellers" se on se."id" = sh."seller_id"
       left join "seller_mail_settings" m on m."seller_id" = se."id"
      where p."id" = ?`,
    [paymentId],
  );
  if (!row) return null;
  return {
    id: row.id,
    amount: Number(row.amount),
    completedAt: row.completed_at ? new Date(row.completed_at) : null,
    cardBrand: row.card_brand,
    cardLast4: row.card_last4,
    customerName: row.customer_name,
    shopName: row.shop_name,
    sellerEmail: row.seller_email,
    supportEmail: row.support_email,
    language: row.language,
  };
}

/** A refund as the customer's refund mails tell it. */
export interface MailRefundFacts {
  id: string;
  amount: number;
  createdAt: Date;
  /** Null until the refund was carried out. */
  refundedAt: Date | null;
}

/** The refund `refundId` of payment `paymentId`; null when that payment has no such refund. */
export async function mailRefundFacts(em: EntityManager, refundId: string, paymentId: string | null): Promise<MailRefundFacts | null> {
  const [row] = await em.execute<{ id: string; amount: string | number; created_at: Date | string; refunded_at: Date | string | null }[]>(
    `select "id", "amount", "created_at", "refunded_at" from "refunds" where "id" = ? and "payment_id" = ?`,
    [refundId, paymentId],
  );
  if (!row) return null;
  return { id: row.id, amount: Number(row.amount), createdAt: new Date(row.created_at), refundedAt: row.refunded_at ? new Date(row.refunded_at) : null };
}

/** A shop's name; null when there is no such shop. */
export async function shopNameOf(em: EntityManager, shopId: string): Promise<string | null> {
  const [row] = await em.execute<{ name: string }[]>(`select "name" from "shops" where "id" = ?`, [shopId]);
  return row?.name ?? null;
}

/** A shop whose webhook deliveries are failing: its oldest failing delivery, since when, and how many fail. */
export interface WebhookOutage {
  shopId: string;
  /** The oldest failing delivery: the notification's subject, so one outage is told once. */
  deliveryId: string;
  since: Date;
  webhookUrl: string;
  failing: number;
}

/**
 * Per shop (live, with a webhook URL), its oldest real delivery still pending after at least one attempt and
 * created more than `afterMs` ago, when no delivery of that shop succeeded since it was created.
 */
export async function webhookOutages(em: EntityManager, afterMs: number): Promise<WebhookOutage[]> {
  const rows = await em.execute<{ shop_id: string; delivery_id: string; since: Date | string; webhook_url: string; failing: number }[]>(
    `select distinct on (d."shop_id") d."shop_id", d."id" as delivery_id, d."created_at" as since, sh."webhook_url",
            (select count(*) from "webhook_deliveries" x where x."shop_id" = d."shop_id" and x."status" = ? and x."attempt_count" > 0)::int as failing
       from "webhook_deliveries" d
       join "webhook_events" e on e."id" = d."event_id"
       join "shops" sh on sh."id" = d."shop_id"
      where d."status" = ? and d."attempt_count" > 0 and not e."test"
        and d."created_at" < now() - ? * interval '1 millisecond'
        and sh."deleted_at" is null and sh."webhook_url" is not null
        and not exists (select 1 from "webhook_deliveries" ok where ok."shop_id" = d."shop_id" and ok."status" = ? and ok."delivered_at" > d."created_at")
      order by d."shop_id", d."created_at", d."id"`,
    [DELIVERY.PENDING, DELIVERY.PENDING, afterMs, DELIVERY.DELIVERED],
  );
  return rows.map((row) => ({ shopId: row.shop_id, deliveryId: row.delivery_id, since: new Date(row.since), webhookUrl: row.webhook_url, failing: row.failing }));
}

/** The admins of a role who are not revoked, by id: the recipients of a staff mail. */
export async function activeAdminsOfRole(tx: EntityManager, role: string): Promise<{ id: string; email: string }[]> {
  return tx.execute<{ id: string; email: string }[]>(`select "id", "email" from "admins" where "role" = ? and "revoked_at" is null order by "id"`, [role]);
}
