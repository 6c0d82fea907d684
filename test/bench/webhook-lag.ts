import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { approvedSubmission } from './card-submission';

const EVENTS = 200;

/**
 * Time from completion (the event's `timestamp`, written in the completion transaction) to its arrival
 * at a loopback receiver, over EVENTS completions sent 20 at a time. Null when nothing arrives in 30 s.
 */
export async function measureWebhookLag(service: string, auth: Record<string, string>, shopId: string, databaseUrl: string) {
  const lags: number[] = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      lags.push(Date.now() - Date.parse(JSON.parse(body).timestamp));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  await setWebhookUrl(databaseUrl, shopId, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`);
  for (let sent = 0; sent < EVENTS; sent += 20) {
    await Promise.all(Array.from({ length: 20 }, async () => {
      const created = await (await fetch(`${service}/api/v1/payments`, { method: 'POST', headers: auth, body: JSON.stringify({ amount: 5000, currency: 'usd', return_url: 'https://shop.example.com/' }) })).json();
      await fetch(`${service}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: approvedSubmission(created.data.id) });
    }));
  }
  for (let waited = 0; lags.length < EVENTS && waited < 30_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
  receiver.close();
  if (lags.length === 0) return null;
  lags.sort((a, b) => a - b);
  const at = (q: number) => lags[Math.min(lags.length - 1, Math.floor(q * lags.length))];
  return { count: lags.length, p50: at(0.5), p99: at(0.99), max: lags[lags.length - 1] };
}

async function setWebhookUrl(databaseUrl: string, shopId: string, url: string) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('update shops set webhook_url = $1 where id = $2', [url, shopId]);
  await client.end();
}
