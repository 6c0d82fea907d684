import { Client } from 'pg';
import type { Receiver } from '../../support/webhook-receiver';
import { sleep } from './daemons';
import type { Acknowledged } from './mixed-load';
import { checkLedger } from './service-processes';

/** What the books and the seller's endpoint hold after a drill, against what callers were told. */
export interface Findings {
  creates_acknowledged: number;
  creates_found: number;
  completions_acknowledged: number;
  completions_found: number;
  refunds_approved: number;
  refunds_carried_out: number;
  withdrawals_paid_acknowledged: number;
  withdrawals_paid_found: number;
  /** Payments with more than one `payment` journal: the seller credited twice. */
  double_credits: number;
  webhook_events: number;
  webhooks_received_once: number;
  /** Events the receiver got more than once (each counted once here). */
  double_webhook_deliveries: number;
  webhooks_missing: number;
  /** For the first few missing webhooks: where their delivery stands, to say why. */
  missing_deliveries: Record<string, unknown>[];
  ledger_clean: boolean;
  ledger_violations: unknown[];
}

async function query<T>(databaseUrl: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Waits (up to `timeoutMs`) for the asynchronous work to finish: approved refunds carried out, deliveries settled. */
export async function waitForQuiet(databaseUrl: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const busy = await query(databaseUrl, async (c) => {
      const { rows } = await c.query(
        `select (select count(*) from refunds where status in ('approved', 'processing'))::int as refunds,
                (select count(*) from webhook_deliveries where status = 'pending')::int as deliveries`,
      );
      return rows[0].refunds + rows[0].deliveries;
    }).catch(() => 1);
    if (busy === 0) return;
    await sleep(250);
  }
}

export async function findings(databaseUrl: string, env: Record<string, string>, acknowledged: Acknowledged, receiver: Receiver): Promise<Findings> {
  const db = await query(databaseUrl, async (c) => {
    const ids = [...acknowledged.creates.keys()];
    const creates = await c.query(`select id, metadata->>'key' as key from payments where id = any($1)`, [ids]);
    const completed = await c.query(
      `select count(*)::int as n from payments p where p.id = any($1) and p.status in ('completed', 'refunded')
          and exists (select 1 from ledger_entries l where l.payment_id = p.id and l.kind = 'payment')`,
      [[...acknowledged.completions]],
    );
    const refunds = await c.query(`select count(*)::int as n from refunds where id = any($1) and status = 'refunded'`, [[...acknowledged.approvedRefunds]]);
    const paid = await c.query(`select count(*)::int as n from withdrawals where id = any($1) and status = 'paid'`, [[...acknowledged.paidWithdrawals]]);
    const doubles = await c.query(
      `select count(*)::int as n from (select payment_id from ledger_entries where kind = 'payment' group by payment_id having count(distinct journal_id) > 1) d`,
    );
    // Only the events the shop chose to receive have a delivery (docs/reference.md, "Webhooks").
    const events = await c.query(`select e.id from webhook_events e where not e.test and exists (select 1 from webhook_deliveries d where d.event_id = e.id)`);
    return {
      createsFound: creates.rows.filter((r) => acknowledged.creates.get(r.id) === r.key).length,
      completionsFound: completed.rows[0].n as number,
      refundsCarriedOut: refunds.rows[0].n as number,
      withdrawalsPaid: paid.rows[0].n as number,
      doubleCredits: doubles.rows[0].n as number,
      eventIds: events.rows.map((r) => r.id as string),
    };
  });
  const received = new Map<string, number>();
  for (const hook of receiver.received) {
    const id = String(hook.headers['webhook-id']);
    received.set(id, (received.get(id) ?? 0) + 1);
  }
  const missing = db.eventIds.filter((id) => !received.has(id));
  const ledger = await checkLedger(env);
  return {
    creates_acknowledged: acknowledged.creates.size,
    creates_found: db.createsFound,
    completions_acknowledged: acknowledged.completions.size,
    completions_found: db.completionsFound,
    refunds_approved: acknowledged.approvedRefunds.size,
    refunds_carried_out: db.refundsCarriedOut,
    withdrawals_paid_acknowledged: acknowledged.paidWithdrawals.size,
    withdrawals_paid_found: db.withdrawalsPaid,
    double_credits: db.doubleCredits,
    webhook_events: db.eventIds.length,
    webhooks_received_once: db.eventIds.filter((id) => received.get(id) === 1).length,
    double_webhook_deliveries: [...received.values()].filter((n) => n > 1).length,
    webhooks_missing: missing.length,
    missing_deliveries: await deliveriesOf(databaseUrl, missing.slice(0, 5)),
    ledger_clean: ledger.clean,
    ledger_violations: ledger.violations,
  };
}

async function deliveriesOf(databaseUrl: string, eventIds: string[]): Promise<Record<string, unknown>[]> {
  if (eventIds.length === 0) return [];
  return query(databaseUrl, async (c) => {
    const { rows } = await c.query(
      `select e.type, d.id, d.status, d.attempt_count, d.enqueued_attempt, d.enqueued_at, d.next_attempt_at, d.locked_until, d.last_attempt_at,
              (select concat_ws(' ', a.http_status, a.error) from webhook_attempts a where a.delivery_id = d.id order by a.number desc limit 1) as last_attempt
         from webhook_events e join webhook_deliveries d on d.event_id = e.id where e.id = any($1)`,
      [eventIds],
    );
    return rows;
  });
}

/** The checks every drill makes of its findings; each failed one is a line of the report. */
export function findingsProblems(f: Findings): string[] {
  const problems: string[] = [];
  if (f.creates_found !== f.creates_acknowledged) problems.push(`${f.creates_acknowledged - f.creates_found} acknowledged creates are missing`);
  if (f.completions_found !== f.completions_acknowledged) problems.push(`${f.completions_acknowledged - f.completions_found} acknowledged completions are missing`);
  if (f.refunds_carried_out !== f.refunds_approved) problems.push(`${f.refunds_approved - f.refunds_carried_out} approved refunds were not carried out`);
  if (f.withdrawals_paid_found !== f.withdrawals_paid_acknowledged) problems.push(`${f.withdrawals_paid_acknowledged - f.withdrawals_paid_found} paid withdrawals are missing`);
  if (f.double_credits > 0) problems.push(`${f.double_credits} payments were credited twice`);
  if (f.double_webhook_deliveries > 0) problems.push(`${f.double_webhook_deliveries} webhooks were delivered more than once`);
  if (f.webhooks_missing > 0) problems.push(`${f.webhooks_missing} webhooks were never delivered`);
  if (!f.ledger_clean) problems.push(`check-ledger found ${f.ledger_violations.length} violations`);
  if (f.creates_acknowledged === 0 || f.completions_acknowledged === 0) problems.push('the load made no payments: nothing was tested');
  return problems;
}
