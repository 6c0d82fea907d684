import type { EntityManager } from '@mikro-orm/postgresql';
import { OPEN_DISPUTE_STATUSES } from '../disputes/dispute-listing';
import { balanceFigures } from '../ledger/ledger.service';
import { enumOf } from '../../platform/lifecycle/lifecycle';
import { MAIL_LIFECYCLE } from '../notifications/mail.lifecycle';
import { REFUND_LIFECYCLE } from '../refunds/refund.lifecycle';
import { WEBHOOK_DELIVERY_LIFECYCLE } from '../webhooks/webhook-delivery.lifecycle';
import { WITHDRAWAL_LIFECYCLE } from '../withdrawals/withdrawal.lifecycle';
import { REFUND_REVIEW_REMINDER_MS, REFUND_REVIEW_WINDOW_MS } from '../../shared/limits';

// The states come from the lifecycle tables (the kernel), not from the features that move them: Home only counts.
const DELIVERY = enumOf(WEBHOOK_DELIVERY_LIFECYCLE.states);
const REFUND = enumOf(REFUND_LIFECYCLE.states);
const WITHDRAWAL = enumOf(WITHDRAWAL_LIFECYCLE.states);
const MAIL = enumOf(MAIL_LIFECYCLE.states);

/** How far back the Home screen counts acquirer notifications that booked nothing (they are never cleared). */
export const FLAGGED_NOTIFICATIONS_WINDOW_DAYS = 7;
/** At most this many failing shops are listed on Home (the count is exact). */
const FAILING_SHOPS_LISTED = 20;

export interface FailingWebhookShop {
  shopId: string;
  shopName: string;
  /** When the oldest delivery still being retried was created (no delivery of the shop succeeded since). */
  failingSince: Date;
  /** Deliveries still being retried after at least one failed attempt. */
  failing: number;
}

/** What waits for admins, counted in one round of small indexed queries (the back office's Home screen). */
export interface WorkQueueFigures {
  refundsWaiting: number;
  refundsNearDeadline: number;
  refundsPastDeadline: number;
  oldestRefundRequestedAt: Date | null;
  withdrawalsRequested: number;
  withdrawalsApproved: number;
  withdrawalsNotCovered: number;
  disputesOpen: number;
  disputesToContest: number;
  mailsFailed: number;
  mailsUnknown: number;
  acquirerNotificationsFlagged: number;
  failingWebhookShops: number;
  failingWebhooks: FailingWebhookShop[];
}

type Count = string | number;

export async function workQueueFigures(em: EntityManager): Promise<WorkQueueFigures> {
  const [[refunds], [withdrawals], [disputes], [mails], [notifications], failing] = await Promise.all([
    em.execute<{ waiting: Count; near: Count; past: Count; oldest: Date | string | null }[]>(
      `select count(*) as waiting,
              count(*) filter (where "created_at" < now() - ? * interval '1 millisecond' and "created_at" >= now() - ? * interval '1 millisecond') as near,
              count(*) filter (where "created_at" < now() - ? * interval '1 millisecond') as past,
              min("created_at") as oldest
         from "refunds" where "status" = ?`,
      [REFUND_REVIEW_REMINDER_MS, REFUND_REVIEW_WINDOW_MS, REFUND_REVIEW_WINDOW_MS, REFUND.REQUESTED],
    ),
    em.execute<{ requested: Count; approved: Count; sellers: string[] | null }[]>(
      `select count(*) filter (where "status" = ?) as requested, count(*) filter (where "status" = ?) as approved,
              array_agg(distinct "seller_id") filter (where "status" = ?) as sellers
         from "withdrawals" where "status" in (?, ?)`,
      [WITHDRAWAL.REQUESTED, WITHDRAWAL.APPROVED, WITHDRAWAL.REQUESTED, WITHDRAWAL.REQUESTED, WITHDRAWAL.APPROVED],
    ),
    em.execute<{ open: Count; contest: Count }[]>(
      `select count(*) as open, count(*) filter (where "contest_flagged_at" is not null) as contest from "disputes" where "status" in (?)`,
      [[...OPEN_DISPUTE_STATUSES]],
    ),
    em.execute<{ failed: Count; unknown: Count }[]>(
      `select count(*) filter (where "status" = ?) as failed, count(*) filter (where "status" = ?) as unknown
         from "mail_outbox" where "status" in (?, ?)`,
      [MAIL.FAILED, MAIL.UNKNOWN, MAIL.FAILED, MAIL.UNKNOWN],
    ),
    em.execute<{ flagged: Count }[]>(
      `select count(*) as flagged from "adyen_notifications" where "status" in ('flagged', 'rejected') and "received_at" > now() - ? * interval '1 day'`,
      [FLAGGED_NOTIFICATIONS_WINDOW_DAYS],
    ),
    em.execute<{ shop_id: string; shop_name: string; since: Date | string; failing: Count }[]>(
      // Real (not test) deliveries still being retried after a failed attempt, in shops none of whose deliveries
      // succeeded since: the outage the seller is mailed about after a day (webhook-failure-notices.ts).
      `select d."shop_id", sh."name" as shop_name, min(d."created_at") as since, count(*) as failing
         from "webhook_deliveries" d
         join "webhook_events" e on e."id" = d."event_id"
         join "shops" sh on sh."id" = d."shop_id"
        where d."status" = ? and d."attempt_count" > 0 and not e."test" and sh."deleted_at" is null
          and not exists (select 1 from "webhook_deliveries" ok where ok."shop_id" = d."shop_id" and ok."status" = ? and ok."delivered_at" > d."created_at")
        group by d."shop_id", sh."name"
        order by since, d."shop_id"`,
      [DELIVERY.PENDING, DELIVERY.DELIVERED],
    ),
  ]);
  const requestedSellers = withdrawals.sellers ?? [];
  const balances = await balanceFigures(em, requestedSellers);
  const notCovered = requestedSellers.filter((id) => (balances.get(id)?.available ?? 0n) < 0n);
  const withdrawalsNotCovered = notCovered.length
    ? Number((await em.execute<{ n: Count }[]>(`select count(*) as n from "withdrawals" where "status" = ? and "seller_id" in (?)`, [WITHDRAWAL.REQUESTED, notCovered]))[0].n)
    : 0;
  return {
    refundsWaiting: Number(refunds.waiting),
    refundsNearDeadline: Number(refunds.near),
    refundsPastDeadline: Number(refunds.past),
    oldestRefundRequestedAt: refunds.oldest ? new Date(refunds.oldest) : null,
    withdrawalsRequested: Number(withdrawals.requested),
    withdrawalsApproved: Number(withdrawals.approved),
    withdrawalsNotCovered,
    disputesOpen: Number(disputes.open),
    disputesToContest: Number(disputes.contest),
    mailsFailed: Number(mails.failed),
    mailsUnknown: Number(mails.unknown),
    acquirerNotificationsFlagged: Number(notifications.flagged),
    failingWebhookShops: failing.length,
    failingWebhooks: failing.slice(0, FAILING_SHOPS_LISTED).map((row) => ({ shopId: row.shop_id, shopName: row.shop_name, failingSince: new Date(row.since), failing: Number(row.failing) })),
  };
}
