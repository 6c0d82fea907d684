import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { seedCompletedPayments, seedPayoutAccount } from '../support/ledger-seed';

/** Seller entries the bench seeds for one seller (2 per completed payment); BENCH_BALANCE_ENTRIES for a quicker run. */
const SELLER_ENTRIES = Number(process.env.BENCH_BALANCE_ENTRIES ?? 1_000_000);
const SAMPLES = 21;

export interface BalanceTiming {
  sellerEntries: number;
  /** The first read after the load: it sums every entry once and writes the first checkpoint. */
  firstReadMs: number;
  /** Median of SAMPLES `balance` queries afterwards (GraphQL over HTTP, the seller's key). */
  balanceMs: number;
  /** Median of SAMPLES `requestWithdrawal` mutations (each reads the balance under the seller's lock, holds 1000 cents). */
  withdrawalMs: number;
}

/**
 * A seller with SELLER_ENTRIES balance entries (loaded in bulk, an hour old, so checkpoints may cover them),
 * then the time of its `balance` query and of a withdrawal request, through the running service.
 */
export async function measureBalanceAtScale(service: string, databaseUrl: string, shop: { shop_id: string; seller_id: string; api_key: string }): Promise<BalanceTiming> {
  await seedCompletedPayments(databaseUrl, { shopId: shop.shop_id, sellerId: shop.seller_id }, { payments: Math.ceil(SELLER_ENTRIES / 2), amount: 1000, ageSeconds: 3600, fast: true });
  await seedPayoutAccount(databaseUrl, shop.shop_id);
  await checkpoint(databaseUrl);
  const graphql = async (query: string) => {
    const started = performance.now();
    const res = await fetch(`${service}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    const body = await res.json();
    const ms = performance.now() - started;
    if (body.errors) throw new Error(`balance bench: ${JSON.stringify(body.errors)}`);
    return ms;
  };
  const firstReadMs = await graphql('{ balance { available gross fees refunds } }');
  const balance: number[] = [];
  for (let i = 0; i < SAMPLES; i++) balance.push(await graphql('{ balance { available gross fees refunds } }'));
  const withdrawal: number[] = [];
  for (let i = 0; i < SAMPLES; i++) withdrawal.push(await graphql('mutation { requestWithdrawal(amount: 1000) { id } }'));
  return { sellerEntries: SELLER_ENTRIES, firstReadMs: round(firstReadMs), balanceMs: round(median(balance)), withdrawalMs: round(median(withdrawal)) };
}

/**
 * Writes the load's pages back now. Otherwise PostgreSQL checkpoints every 15 s or so for a minute after the
 * million-row load, under the timings; a real seller's entries arrive over months, not in one statement.
 */
async function checkpoint(databaseUrl: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('checkpoint');
  } finally {
    await client.end();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (ms: number) => Math.round(ms * 10) / 10;
