import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
// The validator's own file: the package index loads every Adyen API's typings (over a second of CPU per suite).
import HmacValidator from '@adyen/api-library/lib/src/utils/hmacValidator';
import { suiteFixture } from './suite-fixture';

/**
 * Adyen's own published definitions, copied unchanged with their MIT licence into the repository
 * (test/fixtures/adyen/README.md says where from): read from there and nowhere else.
 */
const ADYEN_DIR = path.join(__dirname, '../fixtures/adyen');
const CHECKOUT = JSON.parse(fs.readFileSync(path.join(ADYEN_DIR, 'CheckoutService-v71.json'), 'utf8'));
const WEBHOOKS = JSON.parse(fs.readFileSync(path.join(ADYEN_DIR, 'Webhooks-v1.json'), 'utf8'));

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(CHECKOUT, 'checkout-v71');
ajv.addSchema(WEBHOOKS, 'webhooks-v1');

/** The request schema of a Checkout operation, as the document declares it (JSON Schema 2020-12). */
function checkoutRequestSchema(path: string): ValidateFunction {
  const ref: string = CHECKOUT.paths[path].post.requestBody.content['application/json'].schema.$ref;
  return ajv.getSchema(`checkout-v71${ref}`)!;
}

/** The request schema of one standard notification event (Webhooks-v1.json, `webhooks./EVENT`). */
export function notificationSchema(eventCode: string): ValidateFunction {
  const ref: string = WEBHOOKS.webhooks[`/${eventCode}`].post.requestBody.content['application/json'].schema.$ref;
  return ajv.getSchema(`webhooks-v1${ref}`)!;
}

function example(name: string): Record<string, unknown> {
  return structuredClone(CHECKOUT.components.examples[name].value);
}

const OPERATIONS: { pattern: RegExp; path: string }[] = [
  { pattern: /^\/v71\/payments$/, path: '/payments' },
  { pattern: /^\/v71\/payments\/details$/, path: '/payments/details' },
  { pattern: /^\/v71\/payments\/([^/]+)\/refunds$/, path: '/payments/{paymentPspReference}/refunds' },
  { pattern: /^\/v71\/payments\/([^/]+)\/cancels$/, path: '/payments/{paymentPspReference}/cancels' },
  { pattern: /^\/v71\/payments\/([^/]+)\/reversals$/, path: '/payments/{paymentPspReference}/reversals' },
];

/** Adyen's 3-D Secure 2 test card (the document's `card-3d-secure-redirect` example). */
export const ADYEN_3DS_CARD = '4212345678901237';
/** Holder names that steer the stand-in, like the holder names of Adyen's test environment. */
export const HOLDER = {
  refuse: (code: string) => `REFUSE ${code}`,
  /** Charged, then the connection drops before the answer: to us, a time-out. */
  loseAnswer: 'LOSE ANSWER',
  /** Adyen answers resultCode Error: a final failure, which Adyen defines as not processed. */
  error: 'RESULT ERROR',
  /** Adyen refuses the request without processing it: HTTP 422 with its error body (errorCode 101, Invalid card number). */
  unprocessable: 'UNPROCESSABLE',
  /** HTTP 422 with errorCode 704 (the same request is already processed or in progress): not a refusal. */
  inProgress: 'IN PROGRESS',
  /** With the 3-D Secure card: the issuer's page is reached by a form POST (as 3-D Secure 1 issuers did). */
  postRedirect: 'POST REDIRECT',
  /** Refused with Adyen's reason text (e.g. "CVC Declined") and no refusalReasonCode. */
  refuseByReasonOnly: (reason: string) => `REASON ONLY ${reason}`,
};

/** A refund of this many cents is carried out and its answer lost (the connection drops). */
export const LOSE_REFUND_ANSWER_CENTS = 4040;
/** A refund of this many cents is refused without being processed: HTTP 422, errorCode 167, Adyen's error body. */
export const REFUSE_REFUND_CENTS = 4220;
/** A refund of this many cents meets Adyen's HTTP 500 (the document's generic-500): outcome unknown. */
export const REFUND_SERVER_ERROR_CENTS = 4500;
/** A refund of this many cents is answered HTTP 422 errorCode 704 (already processed or in progress): outcome unknown. */
export const REFUND_IN_PROGRESS_CENTS = 4704;

export interface Recorded {
  path: string;
  idempotencyKey: string | undefined;
  body: Record<string, unknown>;
}

interface Authorisation {
  pspReference: string;
  reference: string;
  amount: { currency: string; value: number };
  resultCode: string;
}

export interface NotificationFields {
  eventCode: string;
  pspReference: string;
  merchantReference: string;
  amount: { currency: string; value: number };
  success: boolean;
  originalReference?: string;
  reason?: string;
  /** When Adyen says it happened (ISO 8601 with an offset, as Adyen writes it); now when not given. */
  eventDate?: string;
}

/** How a test spoils a notification: another HMAC key or password, a change after signing, or a malformed item signed as Adyen would. */
export interface NotificationTamper {
  hmacKey?: string;
  password?: string;
  mutate?: (item: Record<string, any>) => void;
  /** Changes the item before it is signed (Adyen sent it malformed): not checked against the schema. */
  malformed?: (item: Record<string, any>) => void;
}

export interface StandInCredentials {
  apiKey: string;
  merchantAccount: string;
  hmacKey: string;
  username: string;
  password: string;
}

/**
 * A local Adyen for tests: an HTTP server on loopback the adapter is pointed at (ADYEN_CHECKOUT_ENDPOINT).
 * Every request is validated against its operation's request schema in CheckoutService-v71.json (ajv,
 * JSON Schema 2020-12) plus the rules the schema leaves to prose (upper-case ISO currency, an
 * Idempotency-Key); a violation is answered 422 as Adyen would and recorded in `violations`, which the
 * tests require to be empty. Answers are the document's own examples, adapted. It also plays the issuer's
 * 3-D Secure page and sends standard notifications built like Webhooks-v1.json's, signed with a real HMAC.
 */
export class AdyenStandIn {
  readonly requests: Recorded[] = [];
  readonly violations: string[] = [];
  readonly authorisations = new Map<string, Authorisation>();
  readonly credentials: StandInCredentials = {
    apiKey: `AQE_${randomBytes(12).toString('hex')}`,
    merchantAccount: 'TestShopECOM',
    hmacKey: randomBytes(32).toString('hex').toUpperCase(),
    username: 'adyen-notifier',
    password: randomBytes(12).toString('hex'),
  };
  /** Where the notifications go: the service's address, set by the test. */
  serviceUrl = '';
  private readonly answers = new Map<string, { status: number; body: unknown }>();
  private readonly challenges = new Map<string, { reference: string; returnUrl: string; amount: { currency: string; value: number } }>();
  private readonly server = http.createServer((req, res) => void this.handle(req, res));
  url = '';

  async start(): Promise<this> {
    // Compiled now, not inside the first call: compiling /payments' schema takes a CPU-second on a loaded machine,
    // which the service would wait for as if Adyen were slow.
    for (const operation of OPERATIONS) checkoutRequestSchema(operation.path);
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The settings that point the service at this stand-in. */
  env(): Record<string, string> {
    return {
      CARD_PROCESSOR: 'adyen',
      ADYEN_API_KEY: this.credentials.apiKey,
      ADYEN_MERCHANT_ACCOUNT: this.credentials.merchantAccount,
      ADYEN_HMAC_KEY: this.credentials.hmacKey,
      ADYEN_NOTIFICATION_USERNAME: this.credentials.username,
      ADYEN_NOTIFICATION_PASSWORD: this.credentials.password,
      ADYEN_CHECKOUT_ENDPOINT: `${this.url}/v71`,
    };
  }

  requestsTo(path: string): Recorded[] {
    return this.requests.filter((r) => r.path === path);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    if (req.method === 'GET' && url.pathname === '/issuer/3ds') return this.issuerPage(url, res);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const operation = OPERATIONS.find((o) => o.pattern.test(url.pathname));
    if (req.method !== 'POST' || !operation) return send(res, 404, { status: 404, message: 'not found' });
    if (req.headers['x-api-key'] !== this.credentials.apiKey) return send(res, 401, example('generic-401'));

    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      this.violations.push(`${operation.path}: body is not JSON`);
      return send(res, 400, example('generic-400'));
    }
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    this.requests.push({ path: operation.path, idempotencyKey, body });
    const problems = this.check(operation.path, body, idempotencyKey);
    if (problems.length) {
      this.violations.push(...problems.map((p) => `${operation.path}: ${p}`));
      return send(res, 422, { ...example('generic-422'), message: problems.join('; ') });
    }
    // Adyen's idempotency: the same key on the same operation returns the first answer.
    const key = `${url.pathname} ${idempotencyKey}`;
    const earlier = this.answers.get(key);
    if (earlier) return send(res, earlier.status, earlier.body);
    const psp = operation.pattern.exec(url.pathname)![1];
    const answer = this.answer(operation.path, body, psp);
    this.answers.set(key, answer);
    // Carried out, and the answer never arrives; asking again with the same key gets it (Adyen's idempotency).
    if (answer.lose) return void res.destroy();
    send(res, answer.status, answer.body);
  }

  private check(path: string, body: Record<string, unknown>, idempotencyKey: string | undefined): string[] {
    const validate = checkoutRequestSchema(path);
    const problems = validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
    const amount = body.amount as { currency?: string } | undefined;
    if (amount && !/^[A-Z]{3}$/.test(amount.currency ?? '')) problems.push(`/amount/currency must be an upper-case ISO 4217 code (got ${amount.currency})`);
    if ('merchantAccount' in body && body.merchantAccount !== this.credentials.merchantAccount) problems.push('/merchantAccount is not ours');
    if (!idempotencyKey) problems.push('no Idempotency-Key header');
    return problems;
  }

  private answer(path: string, body: Record<string, any>, psp: string | undefined): { status: number; body: unknown; lose?: boolean } {
    const pspReference = newPspReference();
    if (path === '/payments') {
      const holder: string = body.paymentMethod?.holderName ?? '';
      const amount = body.amount;
      if (body.paymentMethod?.number === ADYEN_3DS_CARD) {
        const session = randomBytes(8).toString('hex');
        this.challenges.set(session, { reference: body.reference, returnUrl: body.returnUrl, amount });
        const answer = example('post-payments-card-3d-secure-redirect-200');
        (answer.action as Record<string, unknown>).url = `${this.url}/issuer/3ds?session=${session}`;
        if (holder === HOLDER.postRedirect) {
          Object.assign(answer.action as object, { method: 'POST', data: { MD: session, PaReq: 'BQABAgA"<x>', TermUrl: body.returnUrl } });
        }
        return { status: 200, body: { ...answer, pspReference, additionalData: { ...(answer.additionalData as object), merchantReference: body.reference } } };
      }
      if (holder.startsWith('REFUSE ')) {
        const code = holder.slice('REFUSE '.length);
        this.authorisations.set(body.reference, { pspReference, reference: body.reference, amount, resultCode: 'Refused' });
        return { status: 200, body: { pspReference, resultCode: 'Refused', refusalReason: `Refusal ${code}`, refusalReasonCode: code, merchantReference: body.reference } };
      }
      if (holder.startsWith('REASON ONLY ')) {
        this.authorisations.set(body.reference, { pspReference, reference: body.reference, amount, resultCode: 'Refused' });
        return { status: 200, body: { pspReference, resultCode: 'Refused', refusalReason: holder.slice('REASON ONLY '.length), merchantReference: body.reference } };
      }
      if (holder === HOLDER.error) return { status: 200, body: { pspReference, resultCode: 'Error', refusalReason: 'Internal error', merchantReference: body.reference } };
      if (holder === HOLDER.unprocessable) return refusal(422, '101', 'Invalid card number', pspReference);
      if (holder === HOLDER.inProgress) return refusal(422, '704', 'request already processed or in progress', pspReference);
      this.authorisations.set(body.reference, { pspReference, reference: body.reference, amount, resultCode: 'Authorised' });
      const answer = example('post-payments-card-direct-200');
      return { status: 200, body: { ...answer, pspReference, merchantReference: body.reference }, lose: holder === HOLDER.loseAnswer };
    }
    if (path === '/payments/details') {
      const [session, outcome] = String(body.details?.redirectResult ?? '').split('.');
      const challenge = this.challenges.get(session);
      // An unknown session, or an issuer that sends back a result Adyen will not take: 422, not processed.
      if (!challenge || outcome === 'reject') return { status: 422, body: { ...example('generic-422'), message: 'Invalid redirectResult' } };
      if (outcome === 'pass') {
        this.authorisations.set(challenge.reference, { pspReference, reference: challenge.reference, amount: challenge.amount, resultCode: 'Authorised' });
        return { status: 200, body: { ...example('post-payments-details-00.redirect-200'), pspReference, merchantReference: challenge.reference } };
      }
      return { status: 200, body: { resultCode: 'Refused', pspReference, refusalReason: '3D Not Authenticated', refusalReasonCode: '11', merchantReference: challenge.reference } };
    }
    if (path === '/payments/{paymentPspReference}/refunds') {
      if (body.amount?.value === REFUSE_REFUND_CENTS) return refusal(422, '167', 'Original pspReference required for this operation', pspReference);
      if (body.amount?.value === REFUND_IN_PROGRESS_CENTS) return refusal(422, '704', 'request already processed or in progress', pspReference);
      if (body.amount?.value === REFUND_SERVER_ERROR_CENTS) return { status: 500, body: { ...example('generic-500'), pspReference } };
      const answer = example('post-payments-paymentPspReference-refunds-refund-201');
      const lose = body.amount?.value === LOSE_REFUND_ANSWER_CENTS;
      return { status: 201, body: { ...answer, merchantAccount: body.merchantAccount, paymentPspReference: psp, reference: body.reference, pspReference, amount: body.amount }, lose };
    }
    if (path === '/payments/{paymentPspReference}/reversals') {
      const answer = example('post-payments-paymentPspReference-reversals-reversal-201');
      return { status: 201, body: { ...answer, merchantAccount: body.merchantAccount, paymentPspReference: psp, reference: body.reference, pspReference } };
    }
    const answer = example('post-payments-paymentPspReference-cancels-cancel-with-psp-reference-201');
    return { status: 201, body: { ...answer, merchantAccount: body.merchantAccount, paymentPspReference: psp, reference: body.reference, pspReference } };
  }

  /** The issuer's 3-D Secure page: two ways back to the shop's return address, passed or failed. */
  private issuerPage(url: URL, res: http.ServerResponse): void {
    const session = url.searchParams.get('session') ?? '';
    const challenge = this.challenges.get(session);
    if (!challenge) return send(res, 404, { message: 'no such session' });
    const back = (outcome: string) => this.returnAddress(session, outcome as 'pass' | 'fail');
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="en"><head><title>Test issuer</title></head><body><main>
<h1>Test bank: confirm the payment</h1><a href="${back('pass')}">Authenticate</a> <a href="${back('fail')}">Fail authentication</a></main></body></html>`);
  }

  /** Where the issuer's page sends the customer back: the shop's return URL with Adyen's `redirectResult`. */
  returnAddress(session: string, outcome: 'pass' | 'fail' | 'reject'): string {
    const challenge = this.challenges.get(session)!;
    const back = new URL(challenge.returnUrl);
    back.searchParams.set('redirectResult', `${session}.${outcome}`);
    return back.toString();
  }

  /** The session of the issuer page an action URL points at. */
  static sessionOf(issuerUrl: string): string {
    return new URL(issuerUrl).searchParams.get('session') ?? '';
  }

  /**
   * A standard notification as Adyen sends it (the event's example from Webhooks-v1.json, with our fields),
   * signed with the HMAC key, validated against the event's schema, POSTed to the service with basic auth.
   * `tamper` lets a test send a wrong signature or wrong credentials.
   */
  async notify(fields: NotificationFields, tamper: NotificationTamper = {}): Promise<{ status: number; text: string; body: unknown }> {
    return this.notifyBatch([{ fields, tamper }], tamper);
  }

  /**
   * Several items in one request, as Adyen batches them; each is signed, checked against its event's schema
   * (unless the test sends it malformed on purpose: `tamper.malformed`) and sent under one basic auth.
   */
  async notifyBatch(
    entries: { fields: NotificationFields; tamper?: NotificationTamper }[],
    transport: { password?: string } = {},
  ): Promise<{ status: number; text: string; body: unknown }> {
    const items = entries.map(({ fields, tamper = {} }) => this.signedItem(fields, tamper));
    const body = { live: 'false', notificationItems: items.map((item) => ({ NotificationRequestItem: item })) };
    const auth = Buffer.from(`${this.credentials.username}:${transport.password ?? this.credentials.password}`).toString('base64');
    const response = await fetch(`${this.serviceUrl}/acquirer/adyen/notifications`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Basic ${auth}` },
      body: JSON.stringify(body),
    });
    return { status: response.status, text: await response.text(), body };
  }

  private signedItem(fields: NotificationFields, tamper: NotificationTamper): Record<string, any> {
    const base = structuredClone(WEBHOOKS.components.examples[`post-${fields.eventCode}-${fields.eventCode.toLowerCase()}`].value);
    const item: Record<string, any> = {
      ...base.notificationItems[0].NotificationRequestItem,
      additionalData: {},
      amount: fields.amount,
      eventCode: fields.eventCode,
      eventDate: fields.eventDate ?? new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00'),
      merchantAccountCode: this.credentials.merchantAccount,
      merchantReference: fields.merchantReference,
      pspReference: fields.pspReference,
      success: String(fields.success),
    };
    if (fields.originalReference) item.originalReference = fields.originalReference;
    else delete item.originalReference;
    if (fields.reason) item.reason = fields.reason;
    else delete item.reason;
    if (tamper.malformed) tamper.malformed(item);
    item.additionalData.hmacSignature = new HmacValidator().calculateHmac({ ...item, amount: item.amount ?? {} } as never, tamper.hmacKey ?? this.credentials.hmacKey);
    tamper.mutate?.(item);
    const validate = notificationSchema(fields.eventCode);
    const wrapped = { live: 'false', notificationItems: [{ NotificationRequestItem: item }] };
    if (!tamper.malformed && !validate(wrapped)) this.violations.push(`notification ${fields.eventCode}: ${JSON.stringify(validate.errors)}`);
    return item;
  }

  /**
   * A dispute event as Adyen sends it: every event of one dispute carries the dispute's own PSP reference,
   * the disputed payment's as `originalReference`, and the payment's merchant reference (our payment id).
   */
  notifyDispute(eventCode: string, dispute: { reference: string; paymentId: string; paymentPspReference: string; amount: { currency: string; value: number }; reason?: string }) {
    return this.notify({
      eventCode, pspReference: dispute.reference, originalReference: dispute.paymentPspReference, merchantReference: dispute.paymentId,
      amount: dispute.amount, success: true, reason: dispute.reason ?? 'Fraudulent Processing of Transactions',
    });
  }

  /** Adyen's AUTHORISATION notification for a payment it decided (what settles a lost answer). */
  notifyAuthorisation(reference: string) {
    const done = this.authorisations.get(reference);
    if (!done) throw new Error(`the stand-in never authorised ${reference}`);
    return this.notify({ eventCode: 'AUTHORISATION', pspReference: done.pspReference, merchantReference: reference, amount: done.amount, success: done.resultCode === 'Authorised' });
  }
}

/**
 * Adyen refusing a request it did not process: its error body (ServiceError), shaped like the document's
 * `generic-422` example, with the error code and message Adyen gives for that case.
 */
function refusal(status: number, errorCode: string, message: string, pspReference: string): { status: number; body: unknown } {
  return { status, body: { ...example('generic-422'), status, errorCode, message, errorType: 'validation', pspReference } };
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

/** Adyen's PSP references are 16 characters, upper-case letters and digits. */
function newPspReference(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return Array.from(randomBytes(16), (b) => alphabet[b % alphabet.length]).join('');
}

/**
 * A stand-in for the file or the enclosing `describe` (suite-fixture.ts): start the service after it with its
 * `env()`, then set `serviceUrl` in a hook, for the notifications. The service stops first.
 */
export function useAdyenStandIn(): AdyenStandIn {
  // The class type, not Readonly<>: its private members must stay, and `serviceUrl` is set through the fixture.
  return suiteFixture('useAdyenStandIn', () => new AdyenStandIn().start(), (standIn) => standIn.close()) as AdyenStandIn;
}
