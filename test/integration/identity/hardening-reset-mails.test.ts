import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DASHBOARD_DOCUMENT, newEmail, signUpSeller, STRONG_PASSWORD } from '../../support/dashboard-client';
import { useMailServer } from '../../support/mail-server';
import { startTestService, useTestService } from '../../support/test-service';
import { mailsSettled, outboxMailsTo } from '../../support/mail-outbox';

/**
 * Password-reset mails are limited per e-mail address, whoever asks (PASSWORD_RESET_MAILS_PER_HOUR, 3): an
 * attacker spreading requests over many client addresses still cannot flood a victim's mailbox, and the answer
 * stays the same whether a mail went out or not, and whether the address has an account or not.
 */
const mail = useMailServer();
// Each request below comes from its own client address (believed from the loopback balancer).
const service = useTestService(() => ({ SMTP_URL: mail.url, TRUST_PROXY: 'loopback', ACCOUNT_ATTEMPTS_PER_CLIENT: '5' }));

let client = 0;
/** A dashboard operation from a client address of its own, so no per-client limit is reached. */
function fromOwnClient(operationName: string, variables: Record<string, unknown>, url = service.url) {
  client += 1;
  return request(url)
    .post('/graphql')
    .set('Content-Type', 'application/json')
    .set('X-Forwarded-For', `203.0.113.${client % 250}, 198.51.${Math.floor(client / 250)}.${client % 250}`)
    .send({ query: DASHBOARD_DOCUMENT, operationName, variables });
}

/** "Forgot password" for `email`, from a client address of its own. */
const askReset = (email: string, url = service.url) => fromOwnClient('RequestPasswordReset', { email }, url);

const resetMailsTo = (email: string) => mail.received.filter((m) => m.to.includes(email) && /Reset your password/.test(m.subject));

test('ten requests from ten client addresses: three mails, ten identical answers; the last mailed link still works', async () => {
  const victim = await signUpSeller(service.url);
  const answers = [];
  for (let i = 0; i < 10; i++) answers.push(await askReset(i % 2 ? victim.email.toUpperCase() : ` ${victim.email} `));
  for (const res of answers) expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { data: { requestPasswordReset: true } } });
  await mailsSettled(service, [victim.email]);
  const mails = resetMailsTo(victim.email);
  expect(mails).toHaveLength(3);
  // Over the limit no new link was made, so the last one mailed was not retired by the flood: of the three links
  // (which may arrive in any order), exactly one still works, the newest.
  const tokens = mails.map((m) => m.links.map((l) => l.searchParams.get('token')).find(Boolean)!);
  const outcomes = [];
  for (const token of tokens) outcomes.push((await fromOwnClient('ResetPassword', { token, password: 'quartz-meadow-lantern-31' })).body.data?.resetPassword === true);
  expect(outcomes.filter(Boolean)).toHaveLength(1);
  const suppressed = service.logs.filter((l) => l.msg === 'password reset mail not sent: too many for this address this hour');
  expect(suppressed).toHaveLength(7);
  expect(JSON.stringify(suppressed)).not.toContain(victim.email.split('@')[0]);
});

test('no enumeration: an address without an account gets the same answers, under the limit and over it', async () => {
  const seller = await signUpSeller(service.url);
  const nobody = newEmail();
  for (let i = 0; i < 5; i++) {
    const [known, unknown] = [await askReset(seller.email), await askReset(nobody)];
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: known.status, body: known.body });
  }
  await mailsSettled(service, [seller.email, nobody]);
  expect(resetMailsTo(seller.email)).toHaveLength(3);
  expect(await outboxMailsTo(service, nobody)).toEqual([]);
  expect(mail.received.some((m) => m.to.includes(nobody))).toBe(false);
});

test("one address's limit is its own: another seller still gets a reset mail", async () => {
  const flooded = await signUpSeller(service.url);
  for (let i = 0; i < 4; i++) await askReset(flooded.email);
  const other = await signUpSeller(service.url, newEmail(), STRONG_PASSWORD);
  await askReset(other.email);
  await mail.mailTo(other.email, /Reset your password/);
  await mailsSettled(service, [flooded.email, other.email]);
  expect(resetMailsTo(flooded.email)).toHaveLength(3);
});

test('two instances share the count (Redis): two requests to each, three mails', async () => {
  const namespace = randomBytes(4).toString('hex');
  const env = { SMTP_URL: mail.url, TRUST_PROXY: 'loopback' };
  const [a, b] = await Promise.all([startTestService(env, namespace), startTestService(env, namespace)]);
  try {
    const seller = await signUpSeller(a.url);
    for (const instance of [a, b, a, b]) expect((await askReset(seller.email, instance.url)).body).toEqual({ data: { requestPasswordReset: true } });
    await mailsSettled(a, [seller.email]);
    expect(resetMailsTo(seller.email)).toHaveLength(3);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
});
