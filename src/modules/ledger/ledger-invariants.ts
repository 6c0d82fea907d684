import type { EntityManager } from '@mikro-orm/postgresql';
import { FIGURE_SUMS_SQL } from './balance-store';
import { enumOf, sqlList } from '../../platform/lifecycle/lifecycle';
import { ACQUIRER_NOTIFICATION_LIFECYCLE } from '../../platform/processor/adyen/acquirer-notification.lifecycle';
import { DISPUTE_LIFECYCLE } from '../disputes/dispute.lifecycle';
import { PAYMENT_LIFECYCLE } from '../payments/payment.lifecycle';
import { REFUND_LIFECYCLE } from '../refunds/refund.lifecycle';
import { WITHDRAWAL_LIFECYCLE } from '../withdrawals/withdrawal.lifecycle';
import { FEE_PERCENT } from './fee';
import { beginLedgerSnapshot, countSellersAndEntries, selectViolations } from './ledger-store';
import type { LedgerViolation } from './ledger-store';
export type { LedgerViolation } from './ledger-store';

/**
 * The money invariants, each one SQL query that returns the rows breaking it (none when the books are
 * right). `npm run cli -- check-ledger` runs them all; the fault tests run it after every failure.
 * The fee expression is fee.ts's rule (FEE_PERCENT, half up) in SQL.
 */
const FEE = `(p."amount" * ${FEE_PERCENT} + 50) / 100`;
/** What a booked payment leaves on the seller's balance before refunds: the amount less the fee, all of it for a live test (no fee). */
const CREDITED = `(p."amount" - case when p."test" then 0 else ${FEE} end)`;

/** The states the invariants name, as SQL literals from the lifecycle tables (src/modules/lifecycles.ts). */
const P = enumOf(PAYMENT_LIFECYCLE.states);
const W = enumOf(WITHDRAWAL_LIFECYCLE.states);
const R = enumOf(REFUND_LIFECYCLE.states);
const D = enumOf(DISPUTE_LIFECYCLE.states);
const N = enumOf(ACQUIRER_NOTIFICATION_LIFECYCLE.states);
const BOOKED = sqlList([P.COMPLETED, P.REFUNDED]);
const UNPAID = sqlList([P.PENDING, P.FAILED]);
const REFUNDED = sqlList([P.REFUNDED]);
const REFUND_BOOKED = sqlList([R.REFUNDED, R.REVERSED]);
const REFUND_REFUNDED = sqlList([R.REFUNDED]);
const REFUND_REVERSED = sqlList([R.REVERSED]);
/** The dispute states in which the disputed amount is debited from the liable account (dispute.entity.ts CHARGEBACK_STANDS). */
const DISPUTE_DEBITED = sqlList([D.CHARGED_BACK, D.SECOND_CHARGEBACK, D.LOST]);
/** The journals a dispute books: its moves' (src/modules/disputes/dispute.lifecycle.ts), and its share weighed again. */
const DISPUTE_KINDS = sqlList([...Object.values(DISPUTE_LIFECYCLE.moves).flatMap((move) => ('journal' in move && move.journal ? [move.journal] : [])), 'dispute_share']);
/** Refunds whose money is on its way back or back to the card: a standing chargeback's seller share leaves them out. */
const REFUND_SENT = sqlList([R.PROCESSING, R.REFUNDED]);
const REFUND_FAILED_KIND = REFUND_LIFECYCLE.moves.failAfterRefund.journal;
/** A live test's journals (the lifecycle tables: payment completeTest, refund succeedTest). */
const TEST_PAYMENT = PAYMENT_LIFECYCLE.moves.completeTest.journal;
const TEST_REFUND = REFUND_LIFECYCLE.moves.succeedTest.journal;
/** The journals of a refund carried out: the seller's, or a live test's automatic one. */
const REFUND_KINDS = `'refund', '${TEST_REFUND}'`;
/** What a seller gives back of a payment by refunds, less what came back (reversed, or failed after success). */
const REFUND_NET_KINDS = `${REFUND_KINDS}, 'refund_reversed', '${REFUND_FAILED_KIND}'`;
/** What a seller gives back of a payment: its refunds and the dispute debits it bears, less what came back. */
const GIVE_BACK_KINDS = `${REFUND_NET_KINDS}, ${DISPUTE_KINDS}`;
/** A refund the acquirer carried out and the card scheme then rejected: its debit and its credit back are both booked. */
const FAILED_AFTER_SUCCESS = `(r."status" = '${R.FAILED}' and r."refunded_at" is not null)`;
const REJECTED = sqlList([W.REJECTED]);
const PAID = sqlList([W.PAID]);

export const LEDGER_INVARIANTS: { name: string; description: string; sql: string }[] = [
  {
    name: 'journal_balances',
    description: 'every journal sums to zero across accounts',
    sql: `select "journal_id" as subject, sum("amount")::text as detail from "ledger_entries" group by "journal_id" having sum("amount") <> 0`,
  },
  {
    name: 'balance_matches_records',
    description: 'each seller balance (sum of entries) equals what its payments, refunds, disputes and withdrawals imply',
    sql: `with expected as (
            select s."id" as seller_id,
              coalesce((select sum(${CREDITED}) from "payments" p join "shops" sh on sh."id" = p."shop_id"
                        where sh."seller_id" = s."id" and p."status" in (${BOOKED})), 0)
            - coalesce((select sum(r."amount") from "refunds" r join "payments" p on p."id" = r."payment_id" join "shops" sh on sh."id" = p."shop_id"
                        where sh."seller_id" = s."id" and r."status" in (${REFUND_REFUNDED})), 0)
            - coalesce((select sum(w."amount") from "withdrawals" w where w."seller_id" = s."id" and w."status" not in (${REJECTED})), 0)
            - coalesce((select sum(d."seller_share") from "disputes" d join "payments" p on p."id" = d."payment_id" join "shops" sh on sh."id" = p."shop_id"
                        where sh."seller_id" = s."id" and d."status" in (${DISPUTE_DEBITED})), 0) as amount
            from "sellers" s),
          actual as (
            select s."id" as seller_id, coalesce(sum(e."amount"), 0) as amount
            from "sellers" s left join "ledger_entries" e on e."seller_id" = s."id" and e."account" = 'seller_balance' group by s."id")
          select expected.seller_id as subject, 'ledger ' || actual.amount || ' expected ' || expected.amount as detail
          from expected join actual using (seller_id) where expected.amount <> actual.amount`,
  },
  {
    name: 'completed_payment_booked_once',
    description: 'each completed or refunded payment (live tests apart) has exactly one credit of its amount and one fee entry',
    sql: `select p."id" as subject, p."status" as detail from "payments" p
          where p."status" in (${BOOKED}) and not p."test" and (
            (select count(*) from "ledger_entries" e where e."payment_id" = p."id" and e."account" = 'seller_balance' and e."kind" = 'payment' and e."amount" = p."amount") <> 1
            or (select count(*) from "ledger_entries" e where e."payment_id" = p."id" and e."account" = 'seller_balance' and e."kind" = 'fee' and e."amount" = -(${FEE})) <> 1
            or (select count(*) from "ledger_entries" e where e."payment_id" = p."id" and e."account" = 'seller_balance' and e."kind" in ('payment', 'fee')) <> 2)`,
  },
  {
    name: 'unpaid_payment_moves_no_money',
    description: 'pending and failed payments have no ledger entries',
    sql: `select p."id" as subject, p."status" as detail from "payments" p
          where p."status" in (${UNPAID}) and exists (select 1 from "ledger_entries" e where e."payment_id" = p."id")`,
  },
  {
    name: 'refund_entries_match_refunds',
    description: 'each payment has the debits of its refunds carried out and the credits of those reversed or failed after success, and is refunded exactly when its refunds standing add up to its amount',
    sql: `select p."id" as subject, p."status" as detail from "payments" p
          where coalesce((select sum(e."amount") from "ledger_entries" e where e."payment_id" = p."id" and e."account" = 'seller_balance' and e."kind" in (${REFUND_KINDS})), 0)
                <> -coalesce((select sum(r."amount") from "refunds" r where r."payment_id" = p."id" and (r."status" in (${REFUND_BOOKED}) or ${FAILED_AFTER_SUCCESS})), 0)
             or coalesce((select sum(e."amount") from "ledger_entries" e where e."payment_id" = p."id" and e."account" = 'seller_balance' and e."kind" = 'refund_reversed'), 0)
                <> coalesce((select sum(r."amount") from "refunds" r where r."payment_id" = p."id" and r."status" in (${REFUND_REVERSED})), 0)
             or coalesce((select sum(e."amount") from "ledger_entries" e where e."payment_id" = p."id" and e."account" = 'seller_balance' and e."kind" = '${REFUND_FAILED_KIND}'), 0)
                <> coalesce((select sum(r."amount") from "refunds" r where r."payment_id" = p."id" and ${FAILED_AFTER_SUCCESS}), 0)
             or (p."status" in (${REFUNDED})) <> (coalesce((select sum(r."amount") from "refunds" r where r."payment_id" = p."id" and r."status" in (${REFUND_REFUNDED})), 0) = p."amount")`,
  },
  {
    name: 'live_test_booked_without_fee',
    description: `each completed or refunded live test has exactly one ${TEST_PAYMENT} credit of its amount and no payment or fee entry; no live-test journal on any other payment`,
    sql: `select p."id" as subject, p."status" as detail from "payments" p
          where p."test" and p."status" in (${BOOKED}) and (
            (select count(*) from "ledger_entries" e where e."payment_id" = p."id" and e."account" = 'seller_balance' and e."kind" = '${TEST_PAYMENT}' and e."amount" = p."amount") <> 1
            or exists (select 1 from "ledger_entries" e where e."payment_id" = p."id" and e."kind" in ('payment', 'fee')))
          union all
          select e."payment_id", 'live-test journal on a payment that is not a live test' from "ledger_entries" e join "payments" p on p."id" = e."payment_id"
          where e."kind" in ('${TEST_PAYMENT}', '${TEST_REFUND}') and not p."test"
          group by e."payment_id"`,
  },
  {
    name: 'live_test_nets_to_zero',
    description: "each refunded live test's entries on the seller's balance sum to zero: the test cost the seller nothing",
    sql: `select p."id" as subject, 'seller balance moved ' || sum(e."amount") as detail
          from "payments" p join "ledger_entries" e on e."payment_id" = p."id" and e."account" = 'seller_balance'
          where p."test" and p."status" in (${REFUNDED})
          group by p."id" having sum(e."amount") <> 0`,
  },
  {
    name: 'refunds_given_back_match_refunded',
    description: 'what each payment gave back by refunds (debits less credits back) equals the refunds the acquirer kept (refunded)',
    sql: `select p."id" as subject, 'given back ' || g.net || ' refunded ' || k.kept as detail from "payments" p
          cross join lateral (select coalesce(-sum(e."amount"), 0) as net from "ledger_entries" e
                              where e."payment_id" = p."id" and e."account" = 'seller_balance' and e."kind" in (${REFUND_NET_KINDS})) g
          cross join lateral (select coalesce(sum(r."amount"), 0) as kept from "refunds" r where r."payment_id" = p."id" and r."status" in (${REFUND_REFUNDED})) k
          where g.net <> k.kept`,
  },
  {
    name: 'refunds_match_acquirer',
    description: "no refund stands carried out that the acquirer's applied notifications say failed or came back (what a payment gave back is what the acquirer kept)",
    // Adyen's notification inbox (its adapter's table), read here only, for this check.
    sql: `select r."id" as subject, r."status" || ', but the acquirer said ' || n."event_code" as detail
          from "refunds" r join "adyen_notifications" n on n."merchant_reference" = r."id" and n."status" = '${N.APPLIED}'
          where n."event_code" in ('REFUND_FAILED', 'REFUNDED_REVERSED') and r."status" = '${R.REFUNDED}'
          group by r."id", r."status", n."event_code"`,
  },
  {
    name: 'dispute_entries_match_state',
    description: "each dispute's journals leave the seller debited its share and the platform the rest, exactly while the chargeback stands; no dispute journal without its dispute",
    sql: `select d."id" as subject, d."status" || ' seller ' || d."seller_share" || ' of ' || d."amount" as detail from "disputes" d
          where coalesce((select sum(e."amount") from "ledger_entries" e where e."dispute_id" = d."id" and e."account" = 'seller_balance'), 0)
                <> (case when d."status" in (${DISPUTE_DEBITED}) then -d."seller_share" else 0 end)
             or coalesce((select sum(e."amount") from "ledger_entries" e where e."dispute_id" = d."id" and e."account" = 'platform_disputes'), 0)
                <> (case when d."status" in (${DISPUTE_DEBITED}) then d."seller_share" - d."amount" else 0 end)
          union all
          select e."payment_id", 'dispute journal without its dispute' from "ledger_entries" e
          where e."kind" in (${DISPUTE_KINDS}) and (e."dispute_id" is null or not exists (select 1 from "disputes" d where d."id" = e."dispute_id" and d."payment_id" = e."payment_id"))
          group by e."payment_id"`,
  },
  {
    name: 'dispute_share_follows_refunds',
    description: "each standing chargeback leaves the seller its amount less what the seller's refunds of the payment give back (sent or carried out), never below zero",
    sql: `select d."id" as subject, 'seller share ' || d."seller_share" || ' expected ' || greatest(0, least(d."amount", p."amount" - s.sent)) as detail
          from "disputes" d join "payments" p on p."id" = d."payment_id"
          cross join lateral (select coalesce(sum(r."amount"), 0) as sent from "refunds" r where r."payment_id" = p."id" and r."status" in (${REFUND_SENT})) s
          where d."status" in (${DISPUTE_DEBITED}) and d."seller_share" <> greatest(0, least(d."amount", p."amount" - s.sent))`,
  },
  {
    name: 'given_back_within_amount',
    description: 'what a seller gave back of a payment (refunds plus chargebacks, less reversals) never exceeds its amount',
    sql: `select p."id" as subject, 'given back ' || -sum(e."amount") || ' of ' || p."amount" as detail
          from "payments" p join "ledger_entries" e on e."payment_id" = p."id"
          where e."account" = 'seller_balance' and e."kind" in (${GIVE_BACK_KINDS})
          group by p."id", p."amount" having -sum(e."amount") > p."amount"`,
  },
  {
    name: 'withdrawal_hold_covered',
    description: 'no withdrawal hold exceeds the balance it came from',
    sql: `select "withdrawal_id" as subject, 'balance after hold ' || running as detail from (
            select "withdrawal_id", "kind", sum("amount") over (partition by "seller_id" order by "id") as running
            from "ledger_entries" where "account" = 'seller_balance') t
          where "kind" = 'withdrawal_hold' and running < 0`,
  },
  {
    name: 'withdrawal_entries_match_status',
    description: 'each withdrawal has one hold, a release only if rejected, a payout only if paid',
    sql: `select w."id" as subject, w."status" as detail from "withdrawals" w
          where (select count(*) from "ledger_entries" e where e."withdrawal_id" = w."id" and e."account" = 'seller_balance' and e."kind" = 'withdrawal_hold' and e."amount" = -w."amount") <> 1
             or (select count(*) from "ledger_entries" e where e."withdrawal_id" = w."id" and e."account" = 'seller_balance' and e."kind" = 'withdrawal_release') <> (case when w."status" in (${REJECTED}) then 1 else 0 end)
             or (select count(*) from "ledger_entries" e where e."withdrawal_id" = w."id" and e."kind" = 'payout' and e."amount" > 0) <> (case when w."status" in (${PAID}) then 1 else 0 end)`,
  },
  {
    name: 'checkpoint_matches_entries',
    description: 'each balance checkpoint equals the one before it plus the seller entries between them',
    sql: `select c."seller_id" || ' through ' || c."through_entry_id" as subject,
                 'checkpoint ' || c."available" || '/' || c."gross" || '/' || c."fees" || '/' || c."refunds"
                 || ' entries ' || (c.prev_available + t.available) || '/' || (c.prev_gross + t.gross) || '/' || (c.prev_fees + t.fees) || '/' || (c.prev_refunds + t.refunds) as detail
          from (select k.*, lag(k."through_entry_id", 1, 0::bigint) over w as prev_through,
                       lag(k."available", 1, 0::bigint) over w as prev_available, lag(k."gross", 1, 0::bigint) over w as prev_gross,
                       lag(k."fees", 1, 0::bigint) over w as prev_fees, lag(k."refunds", 1, 0::bigint) over w as prev_refunds
                  from "ledger_checkpoints" k window w as (partition by k."seller_id" order by k."through_entry_id")) c
          cross join lateral (select ${FIGURE_SUMS_SQL} from "ledger_entries" e
                               where e."seller_id" = c."seller_id" and e."account" = 'seller_balance' and e."id" > c.prev_through and e."id" <= c."through_entry_id") t
          where (c."available", c."gross", c."fees", c."refunds") <> (c.prev_available + t.available, c.prev_gross + t.gross, c.prev_fees + t.fees, c.prev_refunds + t.refunds)`,
  },
];

export interface LedgerCheck {
  sellers: number;
  entries: number;
  invariants: number;
  violations: LedgerViolation[];
}

/**
 * Runs every invariant in one repeatable-read snapshot, so concurrent writes cannot fake a violation. The scans
 * read the whole ledger, so DATABASE_STATEMENT_TIMEOUT_MS (meant for requests) is lifted for this transaction.
 */
export async function checkLedger(em: EntityManager): Promise<LedgerCheck> {
  return em.transactional(async (tx) => {
    await beginLedgerSnapshot(tx);
    const violations: LedgerViolation[] = [];
    for (const invariant of LEDGER_INVARIANTS) violations.push(...(await selectViolations(tx, invariant)));
    const { sellers, entries } = await countSellersAndEntries(tx);
    return { sellers, entries, invariants: LEDGER_INVARIANTS.length, violations };
  });
}
