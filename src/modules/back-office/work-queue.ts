import type { EntityManager } from '@mikro-orm/postgresql';
import { balanceFigures } from '../ledger';
import {
  countFlaggedNotifications, countMailsInTrouble, countOpenDisputes, countRefundsFailedAfterSuccess, countRefundsWaiting, countRequestedWithdrawalsOf,
  countWithdrawalsWaiting, selectFailingWebhookShops,
} from './work-queue-store';
import type { FailingWebhookShop } from './work-queue-store';
export type { FailingWebhookShop } from './work-queue-store';

/** How far back the Home screen counts acquirer notifications that booked nothing (they are never cleared). */
export const FLAGGED_NOTIFICATIONS_WINDOW_DAYS = 7;
/** At most this many failing shops are listed on Home (the count is exact). */
const FAILING_SHOPS_LISTED = 20;

/** What waits for admins, counted in one round of small indexed queries (the back office's Home screen). */
export interface WorkQueueFigures {
  refundsWaiting: number;
  refundsNearDeadline: number;
  refundsPastDeadline: number;
  oldestRefundRequestedAt: Date | null;
  refundsFailedAfterSuccess: number;
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

export async function workQueueFigures(em: EntityManager): Promise<WorkQueueFigures> {
  const [refunds, withdrawals, disputes, mails, notificationsFlagged, failing, refundsFailedAfterSuccess] = await Promise.all([
    countRefundsWaiting(em),
    countWithdrawalsWaiting(em),
    countOpenDisputes(em),
    countMailsInTrouble(em),
    countFlaggedNotifications(em, FLAGGED_NOTIFICATIONS_WINDOW_DAYS),
    selectFailingWebhookShops(em),
    countRefundsFailedAfterSuccess(em, FLAGGED_NOTIFICATIONS_WINDOW_DAYS),
  ]);
  const requestedSellers = withdrawals.requestedSellerIds;
  const balances = await balanceFigures(em, requestedSellers);
  const notCovered = requestedSellers.filter((id) => (balances.get(id)?.available ?? 0n) < 0n);
  const withdrawalsNotCovered = notCovered.length ? await countRequestedWithdrawalsOf(em, notCovered) : 0;
  return {
    refundsWaiting: refunds.waiting,
    refundsNearDeadline: refunds.nearDeadline,
    refundsPastDeadline: refunds.pastDeadline,
    oldestRefundRequestedAt: refunds.oldestRequestedAt,
    refundsFailedAfterSuccess,
    withdrawalsRequested: withdrawals.requested,
    withdrawalsApproved: withdrawals.approved,
    withdrawalsNotCovered,
    disputesOpen: disputes.open,
    disputesToContest: disputes.toContest,
    mailsFailed: mails.failed,
    mailsUnknown: mails.unknown,
    acquirerNotificationsFlagged: notificationsFlagged,
    failingWebhookShops: failing.length,
    failingWebhooks: failing.slice(0, FAILING_SHOPS_LISTED),
  };
}
