import { Client } from 'pg';

/**
 * `payments` completed payments of `amount` cents for one shop, each booked as a live completion books it
 * (credit, fee, customer funds, fee revenue: one journal), all `ageSeconds` old: a big seller's history,
 * written in bulk. `fast` turns triggers off for the load (superuser only): the journal-balance trigger would
 * otherwise sum each journal once per row; the rows are balanced by construction and check-ledger verifies them.
 */
export async function seedCompletedPayments(
  databaseUrl: string,
  shop: { shopId: string; sellerId: string },
  options: { payments: number; amount?: number; ageSeconds?: number; fast?: boolean },
): Promise<void> {
  const amount = options.amount ?? 1000;
  const fee = Number((BigInt(amount) * 15n + 50n) / 100n);
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('begin');
    if (options.fast) await client.query(`set local session_replication_role = replica`);
    await client.query(
      `with p as (
         insert into "payments" ("id", "shop_id", "amount", "currency", "return_url", "metadata", "status", "checkout_stage", "created_at", "completed_at")
         select 'pay_' || substr(md5(random()::text || g::text), 1, 24), $1, $3::bigint, 'usd', 'https://shop.example.com/thanks', '{}', 'completed', 'finished',
                now() - make_interval(secs => $5), now() - make_interval(secs => $5)
           from generate_series(1, $4::int) g
         returning "id"
       )
       insert into "ledger_entries" ("journal_id", "account", "seller_id", "payment_id", "kind", "amount", "created_at")
       select 'jrn_' || substr(md5(p."id"), 1, 20), v.account, case when v.to_seller then $2 end, p."id", v.kind, v.amount, now() - make_interval(secs => $5)
         from p cross join (values ('customer_funds', 'payment', -$3::bigint, false), ('seller_balance', 'payment', $3::bigint, true),
                                   ('seller_balance', 'fee', -$6::bigint, true), ('fee_revenue', 'fee', $6::bigint, false)) as v(account, kind, amount, to_seller)`,
      [shop.shopId, shop.sellerId, amount, options.payments, options.ageSeconds ?? 3600, fee],
    );
    await client.query('commit');
    await client.query('analyze "ledger_entries"');
  } finally {
    await client.end();
  }
}

/**
 * The seller of `shopId` saves a payout account (stored as it is, as with ACCOUNT_SECRETS_KEY unset; a key set
 * later still reads it): every withdrawal needs one, whoever asks. For services started as processes of their own
 * (benchmarks, drills), whose shops the CLI made.
 */
export async function seedPayoutAccount(databaseUrl: string, shopId: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `update "sellers" set "payout_account_holder" = 'Seeded Payouts Ltd', "payout_account_number" = 'DE89370400440532013000', "payout_account_last4" = '3000'
        where "id" = (select "seller_id" from "shops" where "id" = $1)`,
      [shopId],
    );
  } finally {
    await client.end();
  }
}
