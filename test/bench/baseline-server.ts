import { randomBytes } from 'node:crypto';
import express from 'express';
import { Pool } from 'pg';

/**
 * The practical limit of this stack on this machine: a plain Express handler with the `pg` driver doing
 * the same single INSERT / SELECT as the service, with no auth, rate limit, GraphQL or ORM.
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
  const server = app.listen(port, '127.0.0.1');
  return { close: async () => { server.close(); await pool.end(); } };
}

if (require.main === module) {
  const [databaseUrl, shopId, port, poolSize] = process.argv.slice(2);
  startBaselineServer(databaseUrl, shopId, Number(port), Number(poolSize));
  process.stdout.write('baseline listening\n');
}
