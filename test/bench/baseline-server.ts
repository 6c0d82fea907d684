import { randomBytes } from 'node:crypto';
import express from 'express';
import { Pool } from 'pg';

/**
 * The practical limit of this stack on this machine: a plain Express handler with the `pg` driver doing
 * the same single INSERT / SELECT as the service, with no auth, rate limit, GraphQL or ORM; and a payment
 * completion the way a hand-written handler would do it: one transaction with the conditional UPDATE, the
 * journal's four ledger rows in one INSERT and the outbox row (no card checks, guard or acquirer).
 */
export function startBaselineServer(databaseUrl: string, shopId: string, port: number, poolSize: number) {
  const pool = new Pool({ connectionString: databaseUrl, max: poolSize });
  const app = express();
  app.use(express.json());
  app.post('/payments', async (req, res) => {
    const id = `pay_${randomBytes(18).toString('base64url').replace(/[-_]/g, 'x').slice(0, 24)}`;
    const { amount, currency, return_url: returnUrl } = req.body;
    const { rows } = await pool.query(
      `insert into payments (id, shop_id, amount, currency, return_url, metadata) values ($1, $2, $3, $4, $5, '{}')
       returning id, amount, currency, status, created_at`,
      [id, shopId, amount, currency, returnUrl],
    );
    res.json({ success: true, data: rows[0] });
  });
  app.get('/payments/:id', async (req, res) => {
    const { rows } = await pool.query('select * from payments where id = $1 and shop_id = $2', [req.params.id, shopId]);
    if (rows.length === 0) res.status(404).json({ success: false, error: 'Payment not found' });
    else res.json({ success: true, data: rows[0] });
  });
  const sellerId = pool.query('select seller_id from shops where id = $1', [shopId]).then(({ rows }) => rows[0].seller_id as string);
  app.post('/payments/:id/complete', async (req, res) => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      const { rows } = await client.query(
        `update payments set status = 'completed', checkout_stage = 'finished', completed_at = now(), card_last4 = '4242'
          where id = $1 and shop_id = $2 and status = 'pending' and checkout_stage = 'card_required'
          returning id, amount, currency, status, created_at, completed_at`,
        [req.params.id, shopId],
      );
      if (rows.length === 0) {
        await client.query('rollback');
        res.status(409).json({ success: false, error: 'Payment is not payable' });
        return;
      }
      const payment = rows[0];
      const amount = Number(payment.amount);
      const fee = Math.round(amount * 0.15);
      const journal = `jrn_${randomBytes(15).toString('base64url').slice(0, 20)}`;
      await client.query(
        `insert into ledger_entries (journal_id, account, seller_id, payment_id, kind, amount) values
           ($1, 'customer_funds', null, $2, 'payment', $3), ($1, 'seller_balance', $4, $2, 'payment', $5),
           ($1, 'seller_balance', $4, $2, 'fee', $6), ($1, 'fee_revenue', null, $2, 'fee', $7)`,
        [journal, payment.id, -amount, await sellerId, amount, -fee, fee],
      );
      const eventId = `evt_${randomBytes(18).toString('base64url').slice(0, 24)}`;
      const body = JSON.stringify({ id: eventId, event: 'payment.completed', sequence: 1, payment, shop: { id: shopId }, timestamp: new Date().toISOString() });
      await client.query(`insert into webhook_events (id, shop_id, payment_id, type, sequence, body) values ($1, $2, $3, 'payment.completed', 1, $4)`, [eventId, shopId, payment.id, body]);
      await client.query('commit');
      res.json({ success: true, data: payment });
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      res.status(500).json({ success: false, error: (error as Error).message });
    } finally {
      client.release();
    }
  });
  const server = app.listen(port, '127.0.0.1');
  // Bound only once the address is looked up: "listening" must wait for it, or a first request can be refused.
  const listening = new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return { listening, close: async () => { server.close(); await pool.end(); } };
}

if (require.main === module) {
  const [databaseUrl, shopId, port, poolSize] = process.argv.slice(2);
  const { listening } = startBaselineServer(databaseUrl, shopId, Number(port), Number(poolSize));
  // An orderly exit, so a profile taken with --cpu-prof (npm run bench:profile) is written.
  process.on('SIGTERM', () => process.exit(0));
  void listening.then(() => process.stdout.write('baseline listening\n'));
}
