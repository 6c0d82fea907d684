// The smallest complete webhook receiver: plain Node 20, no dependencies.
//   WEBHOOK_SECRET=whsec_… PORT=4001 node examples/webhook-receiver.mjs
import http from 'node:http';
import { verifyServiceSignature, verifyStandardWebhook } from './verify-webhook.mjs';

const secret = process.env.WEBHOOK_SECRET;
const seen = new Set(); // event ids already handled; keep them in your database

const server = http.createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const rawBody = Buffer.concat(chunks); // the exact bytes: verify before parsing
    const valid =
      verifyServiceSignature(rawBody, request.headers['x-service-signature'], secret) &&
      verifyStandardWebhook(rawBody, request.headers, secret);
    if (!valid) return response.writeHead(400).end();
    const event = JSON.parse(rawBody.toString('utf8'));
    if (!seen.has(event.id)) {
      seen.add(event.id);
      console.log(JSON.stringify({ received: event.event, payment_id: event.payment.id, amount: event.payment.amount }));
    }
    response.writeHead(200).end('ok'); // only 200 counts as delivered
  });
});
server.listen(Number(process.env.PORT ?? 4001), '127.0.0.1', () => {
  console.log(JSON.stringify({ msg: 'listening', url: `http://127.0.0.1:${server.address().port}` }));
});
