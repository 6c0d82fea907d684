// A seller's integration with the payment service, end to end: plain Node 20, no dependencies.
//
//   API_KEY=svc_live_… WEBHOOK_SECRET=whsec_… node examples/seller-shop.mjs
//
// GET  /buy?amount=1234      creates a payment (with an Idempotency-Key) and redirects to its checkout page
// GET  /thanks?payment_id=…  where the customer comes back (return_url); the parameters are only a hint:
//                            the payment is retrieved to learn its real status
// POST /webhooks/payments    receives payment.completed, verifies both signatures on the raw body,
//                            ignores repeats by event id, answers 200
//
// Settings: API_BASE (http://localhost:3000), PORT (4000; 0 picks a free one), PUBLIC_URL (the shop's own
// https address, used for return_url; https://localhost:<PORT>: on your machine, where the service's test mode
// brings the customer back over http, so /thanks runs with no certificate; set your public address in production).
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { verifyServiceSignature, verifyStandardWebhook } from './verify-webhook.mjs';

const API_BASE = process.env.API_BASE ?? 'http://localhost:3000';
const API_KEY = process.env.API_KEY;
const WEBHOOK_SECRET = process.env.WEBHOOK_SECRET;
// Known once the server listens (PORT=0 picks the port then).
let publicUrl = process.env.PUBLIC_URL;
if (!API_KEY || !WEBHOOK_SECRET) {
  console.error('Set API_KEY and WEBHOOK_SECRET (printed once when the shop was created).');
  process.exit(1);
}

/** The service's REST API: every answer is {"success":true,"data":…} or {"success":false,"error":"…"}. */
async function api(method, path, body, headers = {}) {
  const response = await fetch(`${API_BASE}/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${API_KEY}`, ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = await response.json();
  if (!answer.success) throw new Error(`${response.status} ${answer.error}`);
  return answer.data;
}

/** One order, one Idempotency-Key: a retry after a time-out answers the same payment instead of a second one. */
export function createPayment(orderId, amount) {
  return api(
    'POST',
    '/payments',
    { amount, currency: 'usd', return_url: `${publicUrl}/thanks`, metadata: { order_id: orderId } },
    { 'Idempotency-Key': `order-${orderId}` },
  );
}

const seenEvents = new Set(); // a real shop keeps these in its database, next to the order

function readRawBody(request) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

async function receiveWebhook(request, response) {
  const rawBody = await readRawBody(request);
  const signed =
    verifyServiceSignature(rawBody, request.headers['x-service-signature'], WEBHOOK_SECRET) &&
    verifyStandardWebhook(rawBody, request.headers, WEBHOOK_SECRET);
  if (!signed) {
    console.error(JSON.stringify({ msg: 'webhook refused: bad signature' }));
    response.writeHead(400).end();
    return;
  }
  const event = JSON.parse(rawBody.toString('utf8'));
  if (!seenEvents.has(event.id)) {
    seenEvents.add(event.id);
    // Fulfil the order here (metadata.order_id), quickly: answer 200 within 10 s or it is retried.
    console.log(JSON.stringify({ msg: 'webhook verified', event: event.event, event_id: event.id, payment_id: event.payment.id, status: event.payment.status, order_id: event.payment.metadata?.order_id }));
  }
  response.writeHead(200).end('ok'); // only 200 counts as delivered; repeats get 200 too
}

async function handle(request, response) {
  const url = new URL(request.url, 'http://shop.invalid');
  if (request.method === 'GET' && url.pathname === '/buy') {
    const payment = await createPayment(url.searchParams.get('order') ?? randomUUID(), Number(url.searchParams.get('amount') ?? 1234));
    response.writeHead(303, { Location: payment.checkout_url }).end();
  } else if (request.method === 'GET' && url.pathname === '/thanks') {
    // status=completed|cancelled|failed is a hint from the browser, which anyone can type: ask the API.
    const payment = await api('GET', `/payments/${encodeURIComponent(url.searchParams.get('payment_id') ?? '')}`);
    response.writeHead(200, { 'Content-Type': 'text/plain' }).end(`Payment ${payment.id} is ${payment.status}.\n`);
  } else if (request.method === 'POST' && url.pathname === '/webhooks/payments') {
    await receiveWebhook(request, response);
  } else {
    response.writeHead(404).end();
  }
}

const server = http.createServer((request, response) => {
  handle(request, response).catch((error) => {
    console.error(JSON.stringify({ msg: 'request failed', error: error.message }));
    if (!response.headersSent) response.writeHead(502).end();
  });
});
server.listen(Number(process.env.PORT ?? 4000), '127.0.0.1', () => {
  const { port } = server.address();
  publicUrl ??= `https://localhost:${port}`;
  console.log(JSON.stringify({ msg: 'listening', url: `http://127.0.0.1:${port}`, return_url: `${publicUrl}/thanks` }));
});
