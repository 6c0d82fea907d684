import { spawnSync } from 'node:child_process';
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { EntityManager } from '@mikro-orm/postgresql';
import { monthlyStatement } from '../../../src/modules/ledger/balance-lines';
import { LedgerAccount, LedgerEntry } from '../../../src/modules/ledger/ledger-entry.entity';
import { bookPayout, bookWithdrawalHold, postJournal } from '../../../src/modules/ledger/ledger.service';
import { canonicalJson } from '../../../src/modules/ledger/signed-statement';
import { keyIdOf } from '../../../src/modules/ledger/statement-keys';
import { Payment } from '../../../src/modules/payments/payment.entity';
import { EXPORT_PAGE_ROWS } from '../../../src/shared/limits';
import { Seller } from '../../../src/modules/identity/seller.entity';
import { Shop } from '../../../src/modules/identity/shop.entity';
import { Withdrawal, WithdrawalStatus } from '../../../src/modules/withdrawals/withdrawal.entity';
import { dashboard, signUpSeller } from '../../support/dashboard-client';
import { seedCompletedPayments } from '../../support/ledger-seed';
import { testRun } from '../../support/test-env';
import { useTestService } from '../../support/test-service';

/**
 * Signed statements (docs/dashboard.md, "Signed statements"): two months of real ledger activity downloaded as
 * the signed-in seller, checked by the offline verifier (scripts/verify-statement.mjs, run as a seller would run
 * it), and every way of altering a statement refused by it.
 */
jest.setTimeout(60_000);

const VERIFIER = path.join(__dirname, '../../../scripts/verify-statement.mjs');
const serviceKey = generateKeyPairSync('ed25519');
const retiredKey = generateKeyPairSync('ed25519');
const attackerKey = generateKeyPairSync('ed25519');
const pem = (key: KeyObject) => key.export({ format: 'pem', type: key.type === 'private' ? 'pkcs8' : 'spki' }).toString();

const service = useTestService({ STATEMENT_SIGNING_KEY: pem(serviceKey.privateKey), STATEMENT_SIGNING_OLD_PUBLIC_KEYS: pem(retiredKey.publicKey) }, 'signed-statements');
let seller: Awaited<ReturnType<typeof signUpSeller>>;
let other: Awaited<ReturnType<typeof signUpSeller>>;
let dir: string;
let keysFile: string;
/** The two months as downloaded: the file's text, parsed. */
let may: Statement;
let june: Statement;

interface Line {
  entry_id: string;
  amount: number;
  balance_after: number;
  hash: string;
  [field: string]: unknown;
}
interface Statement {
  month: string;
  seller_id: string;
  opening_balance: number;
  closing_balance: number;
  opening_hash: string;
  closing_hash: string;
  line_count: number;
  previous: { month: string; closing_balance: number; closing_hash: string };
  key_id: string;
  signature: string;
  lines: Line[];
  [field: string]: unknown;
}

/** Writes the entries of one journal dated `at` (the ledger refuses UPDATE: the date is set before the insert). */
async function datedJournal(at: Date, write: (tx: EntityManager) => unknown): Promise<void> {
  await service.em().transactional(async (tx) => {
    const before = new Set(tx.getUnitOfWork().getPersistStack());
    await write(tx);
    for (const entry of tx.getUnitOfWork().getPersistStack()) if (entry instanceof LedgerEntry && !before.has(entry)) entry.createdAt = at;
    await tx.flush();
  });
}

const secondsAgo = (at: Date) => Math.round((Date.now() - at.getTime()) / 1000);

/** April (the opening), May and June 2025: payments and fees, a refund, a chargeback, a withdrawal held and paid out. */
async function writeActivity(): Promise<void> {
  const shop = { shopId: seller.shopId, sellerId: seller.sellerId };
  await seedCompletedPayments(testRun().databaseUrl, shop, { payments: 2, amount: 5000, ageSeconds: secondsAgo(new Date('2025-04-15T12:00:00Z')) });
  await seedCompletedPayments(testRun().databaseUrl, shop, { payments: 3, amount: 1234, ageSeconds: secondsAgo(new Date('2025-05-10T08:00:00Z')) });
  await seedCompletedPayments(testRun().databaseUrl, shop, { payments: 2, amount: 2500, ageSeconds: secondsAgo(new Date('2025-06-05T09:30:00Z')) });
  const em = service.em();
  const [refunded] = await em.find(Payment, { shop: seller.shopId, amount: 1234 }, { limit: 1 });
  const sellerRef = () => em.getReference(Seller, seller.sellerId);
  await datedJournal(new Date('2025-05-20T10:00:00Z'), (tx) => postJournal(tx, { payment: tx.getReference(Payment, refunded.id) }, [
    { account: LedgerAccount.SELLER_BALANCE, kind: 'refund', amount: -1234, seller: sellerRef() },
    { account: LedgerAccount.CUSTOMER_FUNDS, kind: 'refund', amount: 1234 },
  ]));
  await datedJournal(new Date('2025-06-08T11:00:00Z'), (tx) => postJournal(tx, {}, [
    { account: LedgerAccount.SELLER_BALANCE, kind: 'chargeback', amount: -700, seller: sellerRef() },
    { account: LedgerAccount.CUSTOMER_FUNDS, kind: 'chargeback', amount: 700 },
  ]));
  const withdrawal = em.create(Withdrawal, { seller: sellerRef(), shop: em.getReference(Shop, seller.shopId), amount: 3000, status: WithdrawalStatus.PAID, createdAt: new Date('2025-06-10T00:00:00Z') });
  await em.flush();
  await datedJournal(new Date('2025-06-10T00:00:00Z'), async (tx) => bookWithdrawalHold(tx, await tx.findOneOrFail(Withdrawal, withdrawal.id), tx.getReference(Seller, seller.sellerId)));
  await datedJournal(new Date('2025-06-11T00:00:00Z'), async (tx) => bookPayout(tx, await tx.findOneOrFail(Withdrawal, withdrawal.id)));
}

function download(file: string, cookie?: string) {
  const req = request(service.url).get(`/dashboard/exports/${file}`).buffer(true).parse((res, done) => {
    let text = '';
    res.on('data', (chunk) => (text += chunk));
    res.on('end', () => done(null, text));
  });
  return cookie ? req.set('Cookie', cookie) : req;
}

async function downloadStatement(month: string, cookie = seller.session.cookie): Promise<Statement> {
  const res = await download(`statement-${month}.json`, cookie);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(res.headers['content-disposition']).toBe(`attachment; filename="statement-${month}.json"`);
  return JSON.parse(res.body as string);
}

/** Statements run from the account's first month: a seller whose history is dated back has an account as old. */
const openedOn = (sellerId: string, at: string) => service.em().getConnection().execute('update "sellers" set "created_at" = ? where "id" = ?', [new Date(at), sellerId]);

beforeAll(async () => {
  seller = await signUpSeller(service.url);
  other = await signUpSeller(service.url);
  await openedOn(seller.sellerId, '2025-01-10T00:00:00Z');
  await openedOn(other.sellerId, '2025-01-10T00:00:00Z');
  await writeActivity();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signed-statements-'));
  const keys = await request(service.url).get('/.well-known/statement-keys.json');
  keysFile = path.join(dir, 'statement-keys.json');
  fs.writeFileSync(keysFile, keys.text);
  may = await downloadStatement('2025-05');
  june = await downloadStatement('2025-06');
});
afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs the verifier as a seller would, on the statements given (written to files); its exit code and output. */
function verifyStatements(statements: Statement[], options: { json?: boolean; keys?: string } = {}) {
  const files = statements.map((statement, i) => {
    const file = path.join(dir, `check-${i}-${statement.month}.json`);
    fs.writeFileSync(file, JSON.stringify(statement, null, 2));
    return file;
  });
  const run = spawnSync(process.execPath, [VERIFIER, '--keys', options.keys ?? keysFile, ...files, ...(options.json ? ['--json'] : [])], { encoding: 'utf8' });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

const copy = (statement: Statement): Statement => structuredClone(statement);
const sha256 = (...parts: (Buffer | string)[]) => parts.reduce((hash, part) => hash.update(part), createHash('sha256')).digest('hex');
const HEADER = ['format', 'seller_id', 'month', 'from', 'to', 'currency', 'opening_balance'];

/** What a forger with a signing key would do after changing a statement: balances, chain and signature made whole again. */
function rechainAndSign(statement: Statement, privateKey: KeyObject): Statement {
  let balance = statement.opening_balance;
  let hash = sha256(canonicalJson(Object.fromEntries(HEADER.map((name) => [name, statement[name as keyof Statement]]))));
  statement.opening_hash = hash;
  for (const line of statement.lines) {
    balance += line.amount;
    line.balance_after = balance;
    const { hash: _old, ...fields } = line;
    hash = sha256(Buffer.from(hash, 'hex'), canonicalJson(fields));
    line.hash = hash;
  }
  Object.assign(statement, { closing_balance: balance, closing_hash: hash, line_count: statement.lines.length });
  const { lines: _lines, signature: _signature, ...signed } = statement;
  statement.signature = sign(null, Buffer.from(canonicalJson(signed)), privateKey).toString('base64');
  return statement;
}

describe('a seller downloads two months and verifies them offline', () => {
  test('the documents hold the month as the statement and the CSV have it, in integer cents', async () => {
    for (const doc of [may, june]) {
      const statement = await monthlyStatement(service.em(), seller.sellerId, doc.month);
      expect(doc).toMatchObject({ format: 'hcp-statement/1', seller_id: seller.sellerId, currency: 'usd', opening_balance: Number(statement.opening), closing_balance: Number(statement.closing), line_count: statement.lineCount, key_id: keyIdOf(serviceKey.publicKey) });
      const csv = (await download(`statement-${doc.month}.csv`, seller.session.cookie)).body as string;
      const csvEntries = csv.trim().split('\r\n').slice(2, -1).map((row) => row.split(',')[5]);
      expect(doc.lines.map((line) => line.entry_id)).toEqual(csvEntries);
    }
    // April's two payments (less fees) open May; May closes where June opens.
    expect(may.opening_balance).toBe(2 * (5000 - 750));
    expect(june.opening_balance).toBe(may.closing_balance);
    expect(june.previous).toEqual({ month: '2025-05', closing_balance: may.closing_balance, closing_hash: may.closing_hash });
    const payout = june.lines.find((line) => line.type === 'payout')!;
    expect(payout).toMatchObject({ amount: 0, paid_out: 3000, withdrawal_id: expect.stringMatching(/^wd_/) });
    expect(may.lines.find((line) => line.type === 'refund')).toMatchObject({ amount: -1234, payment_id: expect.stringMatching(/^pay_/) });
  });

  test('the verifier accepts each month and the two together, in words and as JSON', () => {
    const both = verifyStatements([june, may]);
    expect(both.err).toBe('');
    expect(both.code).toBe(0);
    expect(both.out).toMatch(new RegExp(`^OK {6}.*: seller ${seller.sellerId}, month 2025-06, closing balance ${june.closing_balance} cents, final;`, 'm'));
    expect(both.out).toMatch(/the months link/);
    expect(both.out).toMatch(/^Verified\.$/m);
    const json = verifyStatements([may, june], { json: true });
    expect(json.code).toBe(0);
    const report = JSON.parse(json.out);
    expect(report).toMatchObject({ ok: true, series_failures: [] });
    expect(report.statements.map((s: { month: string; ok: boolean; final: boolean }) => [s.month, s.ok, s.final])).toEqual([['2025-05', true, true], ['2025-06', true, true]]);
  });

  test('a month longer than one keyset page is one document that verifies', async () => {
    const busy = await signUpSeller(service.url);
    await openedOn(busy.sellerId, '2025-06-01T00:00:00Z');
    await seedCompletedPayments(testRun().databaseUrl, { shopId: busy.shopId, sellerId: busy.sellerId }, { payments: EXPORT_PAGE_ROWS, amount: 700, ageSeconds: secondsAgo(new Date('2025-06-20T00:00:00Z')) });
    const statement = await downloadStatement('2025-06', busy.session.cookie);
    expect(statement.line_count).toBe(2 * EXPORT_PAGE_ROWS);
    expect(statement.closing_balance).toBe(EXPORT_PAGE_ROWS * (700 - 105));
    expect(verifyStatements([statement]).code).toBe(0);
  });

  test('a statement downloaded again verifies the same (the chain does not depend on when it was made)', async () => {
    const again = await downloadStatement('2025-06');
    expect(again.closing_hash).toBe(june.closing_hash);
    expect(verifyStatements([may, again]).code).toBe(0);
  });
});

describe('every alteration is refused', () => {
  /** The verifier's answer on a changed June (with May, so the series is checked too). */
  const refused = (changed: Statement, withMay = true) => {
    const result = verifyStatements(withMay ? [may, changed] : [changed], { json: true });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.out);
    expect(report.ok).toBe(false);
    return [...report.statements.flatMap((s: { failures: string[] }) => s.failures), ...report.series_failures].join('\n');
  };

  test("a line's amount changed", () => {
    const changed = copy(june);
    changed.lines[1].amount += 100;
    expect(refused(changed)).toMatch(/line 2 .*hash does not follow the chain/);
  });

  test('a line removed', () => {
    const changed = copy(june);
    changed.lines.splice(2, 1);
    expect(refused(changed)).toMatch(/line 3 .*hash does not follow the chain[\s\S]*line_count/);
  });

  test('a line added', () => {
    const changed = copy(june);
    const forged = { ...changed.lines[0], entry_id: String(BigInt(changed.lines[0].entry_id) + 1n), amount: 99_999, balance_after: changed.lines[0].balance_after + 99_999 };
    changed.lines.splice(1, 0, forged);
    expect(refused(changed)).toMatch(/hash does not follow the chain/);
  });

  test('lines reordered', () => {
    const changed = copy(june);
    [changed.lines[0], changed.lines[1]] = [changed.lines[1], changed.lines[0]];
    expect(refused(changed)).toMatch(/line 1 .*hash does not follow the chain/);
  });

  test('opening balance changed', () => {
    const changed = copy(june);
    changed.opening_balance += 5000;
    expect(refused(changed, false)).toMatch(/opening_hash is not the hash of the header[\s\S]*signature does not verify/);
  });

  test('closing balance changed', () => {
    const changed = copy(june);
    changed.closing_balance += 5000;
    expect(refused(changed, false)).toMatch(/closing_balance .* is not the opening plus the lines[\s\S]*signature does not verify/);
  });

  test('the signature made with another key, the key id left as it was', () => {
    const changed = rechainAndSign(copy(june), attackerKey.privateKey);
    changed.key_id = june.key_id;
    expect(refused(changed, false)).toMatch(/the signature does not verify with key/);
  });

  test('a statement altered and signed again with a key that is not in the keys file', () => {
    const changed = copy(june);
    changed.lines[0].amount += 10_000;
    changed.key_id = keyIdOf(attackerKey.publicKey);
    rechainAndSign(changed, attackerKey.privateKey);
    expect(refused(changed, false)).toMatch(/which is not in the keys file/);
  });

  test('a key file that is not the published one: the real statements fail against it', () => {
    const forgedKeys = path.join(dir, 'forged-keys.json');
    const { x } = attackerKey.publicKey.export({ format: 'jwk' });
    fs.writeFileSync(forgedKeys, JSON.stringify({ keys: [{ kid: keyIdOf(attackerKey.publicKey), kty: 'OKP', crv: 'Ed25519', x }] }));
    expect(verifyStatements([june], { keys: forgedKeys }).code).toBe(1);
    // A keys file naming a key by someone else's id is refused outright.
    fs.writeFileSync(forgedKeys, JSON.stringify({ keys: [{ kid: june.key_id, kty: 'OKP', crv: 'Ed25519', x }] }));
    const misnamed = verifyStatements([june], { keys: forgedKeys });
    expect(misnamed.code).toBe(2);
    expect(misnamed.err).toMatch(/names key .* wrongly/);
  });

  test('the month chain broken: a June validly signed on its own, whose opening is not May\'s closing', () => {
    // Even with the service's own key (the worst case), a June that does not continue May is caught by the series.
    const changed = copy(june);
    changed.opening_balance += 5000;
    changed.previous = { ...changed.previous, closing_balance: changed.opening_balance, closing_hash: '0'.repeat(64) };
    rechainAndSign(changed, serviceKey.privateKey);
    expect(verifyStatements([changed]).code).toBe(0);
    expect(refused(changed)).toMatch(/opening balance .* is not the closing balance[\s\S]*does not name 2025-05's closing/);
  });

  test('months that are not consecutive do not make a series', () => {
    const result = verifyStatements([may, copy(june)].map((s, i) => (i === 1 ? { ...s, month: '2025-07' } : s)), { json: true });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.out).series_failures.join('\n')).toMatch(/not consecutive months/);
  });
});

describe('statements that say what they are', () => {
  const thisMonth = () => new Date().toISOString().slice(0, 7);

  test('no statement of a month that has not begun, signed or not', async () => {
    for (const file of ['statement-2099-01.json', 'statement-2099-01.csv']) {
      const res = await download(file, seller.session.cookie);
      expect([file, res.status, JSON.parse(res.body as string)]).toEqual([file, 400, { success: false, error: 'There is no statement of a month that has not begun' }]);
    }
  });

  test('no statement of a month that has not begun on /graphql either: the same refusal, not a statement of nothing', async () => {
    const next = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1)).toISOString().slice(0, 7);
    for (const month of ['2099-01', next]) {
      const res = await dashboard(service.url, 'Statement', { month }, seller.session);
      expect([month, res.body.data, res.body.errors?.[0]?.extensions?.code, res.body.errors?.[0]?.message]).toEqual([month, null, 'MONTH_NOT_BEGUN', 'There is no statement of a month that has not begun']);
    }
    const current = await dashboard(service.url, 'Statement', { month: thisMonth() }, seller.session);
    expect(current.body.errors).toBeUndefined();
    expect(current.body.data.balance.statement.month).toBe(thisMonth());
  });

  test("no statement of a month before the account was opened, on /graphql, in a download signed or not: the account's first month is said; the months offered are the account's", async () => {
    const fresh = await signUpSeller(service.url);
    const [month, before] = [thisMonth(), new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 1)).toISOString().slice(0, 7)];
    const refusal = `There is no statement of a month before the account was opened; its first month is ${month}`;
    for (const earlier of [before, '2025-06']) {
      const res = await dashboard(service.url, 'Statement', { month: earlier }, fresh.session);
      expect([earlier, res.body.data, res.body.errors?.[0]?.extensions?.code, res.body.errors?.[0]?.message]).toEqual([earlier, null, 'MONTH_BEFORE_ACCOUNT', refusal]);
      for (const file of [`statement-${earlier}.json`, `statement-${earlier}.csv`]) {
        const answer = await download(file, fresh.session.cookie);
        expect([file, answer.status, JSON.parse(answer.body as string)]).toEqual([file, 400, { success: false, error: refusal }]);
      }
    }
    expect((await dashboard(service.url, 'StatementMonths', {}, fresh.session)).body.data.balance.statementMonths).toEqual({ first: month, last: month });
    // The account's first month is served, its signed statement chaining to a month before the account that closes at zero.
    const first = await downloadStatement(month, fresh.session.cookie);
    expect(first.previous).toMatchObject({ month: before, closing_balance: 0 });
    expect(verifyStatements([first]).code).toBe(0);
    // The seller whose history goes back to 2025 is offered it all.
    expect((await dashboard(service.url, 'StatementMonths', {}, seller.session)).body.data.balance.statementMonths).toEqual({ first: '2025-01', last: month });
  });

  test("the current month's statement verifies as provisional, as of when it was made; the verifier never calls it plain Verified", async () => {
    const current = await downloadStatement(thisMonth());
    const result = verifyStatements([current]);
    expect(result.code).toBe(0);
    expect(result.out).toContain(`: seller ${seller.sellerId}, month ${thisMonth()}, closing balance ${current.closing_balance} cents, PROVISIONAL, as of ${current.generated_at} (the month had not ended)`);
    expect(result.out).toMatch(new RegExp(`^Verified, but provisional: ${thisMonth()} had not ended when signed\\.$`, 'm'));
    expect(result.out).not.toMatch(/^Verified\.$/m);
    expect(JSON.parse(verifyStatements([current], { json: true }).out).statements[0]).toMatchObject({ ok: true, final: false, as_of: current.generated_at });
  });

  test('a statement of a month signed before the month began is refused, even with the service key', () => {
    const forged = copy(june);
    Object.assign(forged, { month: '2099-01', from: '2099-01-01T00:00:00.000Z', to: '2099-02-01T00:00:00.000Z', lines: [] });
    rechainAndSign(forged, serviceKey.privateKey);
    const result = verifyStatements([forged]);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/before its month 2099-01 began/);
  });

  test('a member given twice is refused: a forged closing balance and lines placed before the real ones do not hide behind them', () => {
    const text = JSON.stringify(june);
    const forged = `{"closing_balance":99999999,"lines":[],${text.slice(1)}`;
    const file = path.join(dir, 'duplicate-members.json');
    fs.writeFileSync(file, forged);
    // JSON.parse alone keeps the last of each pair: the real statement, which verifies.
    expect(JSON.parse(forged)).toEqual(june);
    const run = spawnSync(process.execPath, [VERIFIER, '--keys', keysFile, file], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/member (lines|closing_balance) is given twice/);
    // Inside a line too.
    const inLine = text.replace('"entry_id":', '"amount":1,"entry_id":');
    fs.writeFileSync(file, inLine);
    expect(spawnSync(process.execPath, [VERIFIER, '--keys', keysFile, file], { encoding: 'utf8' }).stdout).toContain('member lines.0.amount is given twice');
  });
});

describe('who may download, and what is published', () => {
  test("another seller gets its own statement, never this seller's, whatever the address says", async () => {
    const theirs = await downloadStatement('2025-06', other.session.cookie);
    expect(theirs).toMatchObject({ seller_id: other.sellerId, opening_balance: 0, closing_balance: 0, line_count: 0, lines: [] });
    const asked = await request(service.url).get(`/dashboard/exports/statement-2025-06.json?sellerId=${seller.sellerId}&seller=${seller.sellerId}`).set('Cookie', other.session.cookie);
    expect(asked.text).not.toContain(seller.sellerId);
  });

  test('without a session, or from another site, nothing is sent', async () => {
    const anonymous = await download('statement-2025-06.json');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).not.toContain('opening_balance');
    const crossSite = await download('statement-2025-06.json', seller.session.cookie).set('Sec-Fetch-Site', 'cross-site');
    expect(crossSite.status).toBe(403);
  });

  test('a month that is not one is refused before any byte of a document', async () => {
    const res = await download('statement-2025-13.json', seller.session.cookie);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body as string)).toEqual({ success: false, error: 'A month is written YYYY-MM, for example 2026-03' });
  });

  test('the well-known URL publishes the current and the retired public key, and nothing private', async () => {
    const res = await request(service.url).get('/.well-known/statement-keys.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.body.keys).toEqual([
      expect.objectContaining({ kid: keyIdOf(serviceKey.publicKey), kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', status: 'current', pem: pem(serviceKey.publicKey), x: serviceKey.publicKey.export({ format: 'jwk' }).x }),
      expect.objectContaining({ kid: keyIdOf(retiredKey.publicKey), status: 'previous', pem: pem(retiredKey.publicKey) }),
    ]);
    const { d } = serviceKey.privateKey.export({ format: 'jwk' });
    const privateDer = serviceKey.privateKey.export({ format: 'der', type: 'pkcs8' });
    expect(res.text).not.toContain(d!);
    expect(res.text).not.toContain(privateDer.toString('base64'));
    expect(res.text).not.toContain(privateDer.subarray(-32).toString('base64'));
    expect(res.text).not.toMatch(/PRIVATE/);
    for (const key of res.body.keys) expect(Object.keys(key).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'pem', 'status', 'use', 'x']);
  });
});
