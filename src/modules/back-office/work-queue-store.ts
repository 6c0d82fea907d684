import type { EntityManager } from '@mikro-orm/postgresql';
import { OPEN_DISPUTE_STATUSES } from '../disputes';
import { enumOf, sqlList } from '../../platform/lifecycle/lifecycle';
import { ACQUIRER_NOTIFICATION_LIFECYCLE } from '../../platform/processor/adyen/acquirer-notification.lifecycle';
import { MAIL_LIFECYCLE } from '../notifications/mail.lifecycle';
import { REFUND_LIFECYCLE } from '../refunds/refund.lifecycle';
import { WEBHOOK_DELIVERY_LIFECYCLE } from '../webhooks/webhook-delivery.lifecycle';
import { WITHDRAWAL_LIFECYCLE } from '../withdrawals/withdrawal.lifecycle';
import { REFUND_REVIEW_REMINDER_MS, REFUND_REVIEW_WINDOW_MS } from '../../shared/limits';

export interface FailingWebhookShop {
  shopId: string;
  shopName: string;
  /** When the oldest delivery still being retried was created (no delivery of the shop succeeded since). */
  failingSince: Date;
  /** Deliveries still being retried after at least one failed attempt. */
  failing: number;
}

// The Home screen's counts: small indexed queries, each on the EntityManager given, so they can run at once.

// The states come from the lifecycle tables (the kernel), not from the features that move them: Home only counts.
const DELIVERY = enumOf(WEBHOOK_DELIVERY_LIFECYCLE.states);
const REFUND = enumOf(REFUND_LIFECYCLE.states);
const WITHDRAWAL = enumOf(WITHDRAWAL_LIFECYCLE.states);
const MAIL = enumOf(MAIL_LIFECYCLE.states);
const NOTIFICATION = enumOf(ACQUIRER_NOTIFICATION_LIFECYCLE.states);
/** Written into the SQL, as the partial index on them is. */
const FLAGGED_NOTIFICATIONS = sqlList([NOTIFICATION.FLAGGED, NOTIFICATION.REJECTED]);

type Count = string | number;

/** Refund requests waiting for review, and how many are near or past the review promise. */
export async function countRefundsWaiting(em: EntityManager): Promise<{ waiting: number; nearDeadline: number; pastDeadline: number; oldestRequestedAt: Date | null }> {
  const [row] = await em.execute<{ waiting: Count; near: Count; past: Count; oldest: Date | string | null }[]>(
    `select count(*) as waiting,
              count(*) filter (where "created_at" < now() - ? * interval '1 millisecond' and "created_at" >= now() - ? * interval '1 millisecond') as near,
              count(*) filter (where "created_at" < now() - ? * interval '1 millisecond') as past,
              min("created_at") as oldest
         from "refunds" where "status" = ?`,
    [REFUND_REVIEW_REMINDER_MS, REFUND_REVIEW_WINDOW_MS, REFUND_REVIEW_WINDOW_MS, REFUND.REQUESTED],
  );
  return { waiting: Number(row.waiting), nearDeadline: Number(row.near), pastDeadline: Number(row.past), oldestRequestedAt: row.oldest ? new Date(row.oldest) : null };
}

/** Refunds the card scheme rejected after the acquirer carried them out, in the last `windowDays` days: the customer did not get the money. */
export async function countRefundsFailedAfterSuccess(em: EntityManager, windowDays: number): Promise<number> {
  const [row] = await em.execute<{ n: Count }[]>(
    `select count(*) as n from "refunds" where "status" = ? and "refunded_at" is not null and "failed_at" > now() - ? * interval '1 day'`,
    [REFUND.FAILED, windowDays],
  );
  return Number(row.n);
}

/** Withdrawals requested and approved, and the sellers with a request waiting (whose balance decides whether it is covered). */
export async function countWithdrawalsWaiting(em: EntityManager): Promise<{ requested: number; approved: number; requestedSellerIds: string[] }> {
  const [row] = await em.execute<{ requested: Count; approved: Count; sellers: string[] | null }[]>(
    `select count(*) filter (where "status" = ?) as requested, count(*) filter (where "status" = ?) as approved,
              array_agg(distinct "seller_id") filter (where "status" = ?) as sellers
         from "withdrawals" where "status" in (?, ?)`,
    [WITHDRAWAL.REQUESTED, WITHDRAWAL.APPROVED, WITHDRAWAL.REQUESTED, WITHDRAWAL.REQUESTED, WITHDRAWAL.APPROVED],
  );
  return { requested: Number(row.requested), approved: Number(row.approved), requestedSellerIds: row.sellers ?? [] };
}

/** The requested withdrawals of these sellers. */
export async function countRequestedWithdrawalsOf(em: EntityManager, sellerIds: string[]): Promise<number> {
  const [row] = await em.execute<{ n: Count }[]>(`select count(*) as n from "withdrawals" where "status" = ? and "seller_id" in (?)`, [WITHDRAWAL.REQUESTED, sellerIds]);
  return Number(row.n);
}

/** Open disputes, and those an admin flagged to contest. */
export async function countOpenDisputes(em: EntityManager): Promise<{ open: number; toContest: number }> {
  const [row] = await em.execute<{ open: Count; contest: Count }[]>(
    `select count(*) as open, count(*) filter (where "contest_flagged_at" is not null) as contest from "disputes" where "status" in (?)`,
    [[...OPEN_DISPUTE_STATUSES]],
  );
  return { open: Number(row.open), toContest: Number(row.contest) };
}

/** Mails that failed, and those whose delivery is unknown. */
export async function countMailsInTrouble(em: EntityManager): Promise<{ failed: number; unknown: number }> {
  const [row] = await em.execute<{ failed: Count; unknown: Count }[]>(
    `select count(*) filter (where "status" = ?) as failed, count(*) filter (where "status" = ?) as unknown
         from "mail_outbox" where "status" in (?, ?)`,
    [MAIL.FAILED, MAIL.UNKNOWN, MAIL.FAILED, MAIL.UNKNOWN],
  );
  return { failed: Number(row.failed), unknown: Number(row.unknown) };
}

/** Acquirer notifications that booked nothing (flagged or rejected), received in the last `windowDays` days. */
export async function countFlaggedNotifications(em: EntityManager, windowDays: number): Promise<number> {
  const [row] = await em.execute<{ flagged: Count }[]>(
    `select count(*) as flagged from "adyen_notifications" where "status" in (${FLAGGED_NOTIFICATIONS}) and "received_at" > now() - ? * interval '1 day'`,
    [windowDays],
  );
  return Number(row.flagged);
}

/**
 * Every shop whose real (not test) deliveries are still being retried after a failed attempt, none of its
 * deliveries having succeeded since: the outage the seller is mailed about after a day
 * (webhook-failure-notices.ts). Failing longest first.
 */
export async function selectFailingWebhookShops(em: EntityManager): Promise<FailingWebhookShop[]> {
  const rows = await em.execute<{ shop_id: string; shop_name: string; since: Date | string; failing: Count }[]>(
    `select d."shop_id", sh."name" as shop_name, min(d."created_at") as since, count(*) as failing
         from "webhook_deliveries" d
         join "webhook_events" e on e."id" = d."event_id"
         join "shops" sh on sh."id" = d."shop_id"
        where d."status" = ? and d."attempt_count" > 0 and not e."test" and sh."deleted_at" is null
          and not exists (select 1 from "webhook_deliveries" ok where ok."shop_id" = d."shop_id" and ok."status" = ? and ok."delivered_at" > d."created_at")
        group by d."shop_id", sh."name"
        order by since, d."shop_id"`,
    [DELIVERY.PENDING, DELIVERY.DELIVERED],
  );
  return rows.map((row) => ({ shopId: row.shop_id, shopName: row.shop_name, failingSince: new Date(row.since), failing: Number(row.failing) }));
}
