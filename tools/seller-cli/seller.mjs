#!/usr/bin/env node
// A seller's command-line tool: plain Node 20, nothing of the service's own code, only its public API.
//
//   PAYMENTS_API_URL=http://localhost:3000 PAYMENTS_API_KEY=svc_live_… npm run -s seller -- <command>
//
//   listen --forward-to <url> [--events a,b] [--secret whsec_…]
//       Holds the shop's event stream (GET /api/v1/events/stream) and POSTs each event to <url> as a webhook delivery
//       would: the same body, headers and both signatures. Signed with --secret (or PAYMENTS_WEBHOOK_SECRET), the shop's
//       webhook secret as your receiver knows it; without one, with a secret made for this session and printed. The
//       service never hands out a secret (docs/decisions/0022-event-stream.md). Reconnects by itself and resumes after the
//       last event forwarded: none lost, none twice. Each event is forwarded once, whatever your URL answers.
//   trigger <event>
//       Has the service write a signed test event of that type: to the webhook URL if the shop receives the type, and to
//       every `listen`.
//   logs [--limit n] [--failed] [--search text]
//       The shop's latest API requests (the request log), newest first.
import { createHmac, randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const EVENT_TYPES = ['payment.completed', 'payment.failed', 'payment.refunded', 'refund.failed', 'withdrawal.paid', 'withdrawal.rejected'];
/** Without a byte for this long (the service sends a comment every 15 s), the connection counts as dead. */
const SILENCE_MS = 45_000;
const FORWARD_TIMEOUT_MS = 10_000;
const USER_AGENT = 'HostedCheckout-Webhooks/1';

const out = (line) => process.stdout.write(`${line}\n`);
const fail = (message) => {
  process.stderr.write(`seller: ${message}\n`);
  process.exit(1);
};

function settings() {
  const apiUrl = (process.env.PAYMENTS_API_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
  const apiKey = process.env.PAYMENTS_API_KEY;
  if (!apiKey) fail('set PAYMENTS_API_KEY to your shop\'s API key (svc_live_…)');
  return { apiUrl, apiKey };
}

// ---------------------------------------------------------------------------------------------------------------------
// Signing, as the service signs a delivery (docs/reference.md, "Webhooks")

const serviceSignature = (secret, body) => createHmac('sha256', Buffer.from(secret, 'utf8')).update(body, 'utf8').digest('hex');

function standardSignature(secret, id, timestamp, body) {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64')}`;
}

/** The headers of a delivery of `body` (event `id`), signed with `secret` now. */
export function deliveryHeaders(secret, id, body, test) {
  const timestamp = Math.floor(Date.now() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-service-signature': serviceSignature(secret, body),
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardSignature(secret, id, timestamp, body),
    ...(test ? { 'x-service-test': 'true' } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// Server-Sent Events

/** Splits a text/event-stream into messages ({ id, event, data, retry }); comments and partial lines wait for more. */
export function sseParser(onMessage) {
  let buffer = '';
  let message = { data: [] };
  return (chunk) => {
    buffer += chunk;
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop();
    for (const line of lines) {
      if (line === '') {
        if (message.data.length > 0 || message.id !== undefined || message.event !== undefined) {
          onMessage({ id: message.id, event: message.event ?? 'message', data: message.data.join('\n'), retry: message.retry });
        }
        message = { data: [] };
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') message.data.push(value);
      else if (field === 'id') message.id = value;
      else if (field === 'event') message.event = value;
      else if (field === 'retry' && /^\d+$/.test(value)) message.retry = Number(value);
    }
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const time = (date = new Date()) => date.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');

async function listen(argv) {
  const { values } = parseArgs({ args: argv, options: { 'forward-to': { type: 'string' }, events: { type: 'string' }, secret: { type: 'string' } } });
  const target = values['forward-to'];
  if (!target || !/^https?:\/\//.test(target)) fail('listen needs --forward-to <http(s) URL>, for example --forward-to http://localhost:4000/webhooks');
  const only = values.events ? new Set(values.events.split(',').map((e) => e.trim()).filter(Boolean)) : null;
  for (const type of only ?? []) if (!EVENT_TYPES.includes(type)) fail(`unknown event ${type}: one of ${EVENT_TYPES.join(', ')}`);
  const given = values.secret ?? process.env.PAYMENTS_WEBHOOK_SECRET;
  const secret = given ?? `whsec_${randomBytes(24).toString('base64')}`;
  const { apiUrl, apiKey } = settings();

  let lastEventId = null;
  let retryMs = 2000;
  let failures = 0;
  let stopping = false;
  let current = null;
  const stop = () => {
    stopping = true;
    current?.abort();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  /** Forwards one event, once, and says what the local URL answered. */
  async function forward(id, type, test, body) {
    const started = Date.now();
    let answer;
    try {
      const res = await fetch(target, { method: 'POST', headers: deliveryHeaders(secret, id, body, test), body, redirect: 'manual', signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS) });
      await res.arrayBuffer().catch(() => undefined);
      answer = `${res.status}`;
    } catch (error) {
      answer = `no answer (${error.cause?.code ?? error.name ?? 'error'})`;
    }
    out(`${time()}  ${type}${test ? ' (test)' : ''}  ${id}  -> ${target}  ${answer}  ${Date.now() - started} ms`);
  }

  let announced = false;
  while (!stopping) {
    const controller = new AbortController();
    current = controller;
    let silence;
    const watch = () => {
      clearTimeout(silence);
      silence = setTimeout(() => controller.abort(new Error('silent connection')), SILENCE_MS);
    };
    try {
      const headers = { authorization: `Bearer ${apiKey}`, accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) };
      watch();
      const res = await fetch(`${apiUrl}/api/v1/events/stream`, { headers, signal: controller.signal });
      if (res.status !== 200) {
        const text = await res.text().catch(() => '');
        let message = text;
        try {
          message = JSON.parse(text).error ?? text;
        } catch {}
        if (res.status === 401 || res.status === 403 || res.status === 400) fail(`the service refused the stream: ${res.status} ${message}`);
        const wait = Number(res.headers.get('retry-after') ?? 0) * 1000 || Math.min(30_000, 1000 * 2 ** failures);
        process.stderr.write(`seller: the service answered ${res.status} ${message}; trying again in ${Math.round(wait / 1000)} s\n`);
        failures++;
        await sleep(wait);
        continue;
      }
      // Messages are handled one at a time, in order: the cursor moves on only once an event was forwarded.
      const messages = [];
      let wake = null;
      const parse = sseParser((message) => {
        messages.push(message);
        wake?.();
      });
      let ended = false;
      const reading = (async () => {
        const decoder = new TextDecoder();
        for await (const chunk of res.body) {
          watch();
          parse(decoder.decode(chunk, { stream: true }));
        }
      })().catch(() => undefined).finally(() => {
        ended = true;
        wake?.();
      });
      for (;;) {
        const message = messages.shift();
        if (!message) {
          if (ended) break;
          await new Promise((resolve) => (wake = resolve));
          wake = null;
          continue;
        }
        if (message.retry) retryMs = message.retry;
        if (message.event === 'ready') {
          failures = 0;
          if (message.id) lastEventId = message.id;
          if (!announced) {
            announced = true;
            const signing = given ? 'Signing with the webhook secret you gave.' : `Signing with a secret made for this session (give your receiver this one, or run with --secret): ${secret}`;
            out(`Ready: forwarding the shop's events to ${target}\n${signing}`);
          } else {
            out(`${time()}  reconnected; resuming after ${lastEventId}`);
          }
          continue;
        }
        if (message.event === 'error') {
          let text = message.data;
          try {
            text = JSON.parse(message.data).error;
          } catch {}
          fail(`the service ended the stream: ${text}`);
        }
        if (!message.id) continue;
        const { test, body } = JSON.parse(message.data);
        if (!only || only.has(message.event)) await forward(message.id, message.event, test, body);
        lastEventId = message.id;
      }
      await reading;
    } catch (error) {
      if (stopping) break;
      if (error?.name !== 'AbortError' && error?.message !== 'silent connection') process.stderr.write(`seller: stream lost (${error.cause?.code ?? error.message}); reconnecting\n`);
    } finally {
      clearTimeout(silence);
    }
    if (stopping) break;
    out(`${time()}  connection lost; reconnecting in ${Math.round(Math.min(30_000, retryMs * 2 ** failures) / 1000)} s`);
    await sleep(Math.min(30_000, retryMs * 2 ** failures));
    failures = Math.min(failures + 1, 4);
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// trigger and logs: GraphQL with the shop's key

async function graphql(query, variables, operationName) {
  const { apiUrl, apiKey } = settings();
  let res;
  try {
    res = await fetch(`${apiUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables, operationName }),
    });
  } catch (error) {
    fail(`could not reach ${apiUrl} (${error.cause?.code ?? error.message})`);
  }
  const answer = await res.json().catch(() => null);
  const error = answer?.errors?.[0];
  if (error) fail(`${error.message} (${error.extensions?.code ?? res.status})`);
  if (!answer?.data) fail(`the service answered ${res.status}`);
  return answer.data;
}

async function trigger(argv) {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, options: {} });
  const [type] = positionals;
  if (!type) fail(`trigger needs an event: one of ${EVENT_TYPES.join(', ')}`);
  const data = await graphql(
    'mutation TriggerTestEvent($event: String!) { triggerTestEvent(event: $event) { eventId eventType delivery { id status } } }',
    { event: type },
    'TriggerTestEvent',
  );
  const { eventId, eventType, delivery } = data.triggerTestEvent;
  out(`Triggered ${eventType} (test) ${eventId}`);
  out(delivery ? `  to your webhook URL: delivery ${delivery.id}` : `  not to a webhook URL: the shop has none, or does not receive ${eventType}`);
  out('  to every listen of the shop');
}

async function logs(argv) {
  const { values } = parseArgs({ args: argv, options: { limit: { type: 'string', default: '20' }, failed: { type: 'boolean', default: false }, search: { type: 'string' } } });
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) fail('--limit is a whole number from 1 to 100');
  const filter = { ...(values.failed ? { outcome: 'FAILED' } : {}), ...(values.search ? { text: values.search } : {}) };
  const data = await graphql(
    `query RequestLog($filter: RequestLogFilter, $limit: Int) {
      requestLog(filter: $filter, limit: $limit) { items { startedAt method path operationName status errorCode errorMessage idempotencyKey durationMs requestId } }
    }`,
    { filter, limit },
    'RequestLog',
  );
  const items = data.requestLog.items;
  if (items.length === 0) return out('No API requests in the last 30 days match.');
  for (const r of items) {
    const what = r.operationName ? `${r.path} ${r.operationName}` : r.path;
    const error = r.errorCode ? `  ${r.errorCode}: ${r.errorMessage}` : '';
    const key = r.idempotencyKey ? `  Idempotency-Key ${r.idempotencyKey}` : '';
    out(`${time(new Date(r.startedAt))}  ${r.status}  ${r.method.padEnd(4)} ${what}  ${r.durationMs} ms  ${r.requestId}${key}${error}`);
  }
}

const HELP = `Usage: PAYMENTS_API_URL=… PAYMENTS_API_KEY=svc_live_… npm run -s seller -- <command>

  listen --forward-to <url> [--events a,b] [--secret whsec_…]   forward the shop's events to a local URL, signed
  trigger <event>                                                send a test event (${EVENT_TYPES.join(', ')})
  logs [--limit n] [--failed] [--search text]                    the shop's latest API requests
`;

/** Run as a command (not imported, as a test imports the parser). */
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [command, ...rest] = process.argv.slice(2);
  const commands = { listen, trigger, logs };
  if (!command || command === 'help' || command === '--help') process.stdout.write(HELP);
  else if (!commands[command]) fail(`unknown command ${command}\n${HELP}`);
  else await commands[command](rest).catch((error) => fail(error.message));
}
