import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monthlyStatement, statementMonths } from '../../src/modules/ledger/balance-lines';
import { sellerBalance } from '../../src/modules/ledger/ledger.service';
import { canonicalJson, STATEMENT_FORMAT, writeSignedStatement } from '../../src/modules/ledger/signed-statement';
import { loadStatementKeys } from '../../src/modules/ledger/statement-keys';
import { createLogger } from '../../src/shared/logger';
import { useModuleDatabase } from '../support/module-database';

/**
 * A seller's signed statement as written (src/modules/ledger/signed-statement.ts), on the run's database, checked by
 * the offline verifier a seller runs (scripts/verify-statement.mjs): an independent reading of the format, so a
 * statement it accepts has the chain, balances and signature the format promises. The downloads, tampering and key
 * rotation are in test/integration/ledger/signed-statements.test.ts.
 */
const db = useModuleDatabase();
const VERIFIER = path.join(__dirname, '../../scripts/verify-statement.mjs');
const key = generateKeyPairSync('ed25519');
const keys = loadStatementKeys(
  { statementSigningKey: key.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), statementSigningOldPublicKeys: [], baseUrl: 'https://pay.example', dataDir: os.tmpdir() },
  createLogger('silent'),
);
let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signed-statement-'));
  fs.writeFileSync(path.join(dir, 'keys.json'), JSON.stringify(keys.published));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function statementOf(sellerId: string, month: string, now = new Date()) {
  let text = '';
  await writeSignedStatement(db.em(), sellerId, month, keys.signer, async (piece) => void (text += piece), now);
  return text;
}
function verify(...texts: string[]) {
  const files = texts.map((text, i) => {
    const file = path.join(dir, `statement-${i}.json`);
    fs.writeFileSync(file, text);
    return file;
  });
  return spawnSync(process.execPath, [VERIFIER, '--keys', path.join(dir, 'keys.json'), ...files, '--json'], { encoding: 'utf8' });
}
const thisMonth = () => new Date().toISOString().slice(0, 7);
const monthBefore = (month: string) => new Date(new Date(`${month}-01T00:00:00Z`).getTime() - 1).toISOString().slice(0, 7);
/** Statements run from the account's first month: the account dates back to `at`. */
const openedAt = (sellerId: string, at: Date) => db.em().getConnection().execute('update "sellers" set "created_at" = ? where "id" = ?', [at, sellerId]);

test("a month with payments: the verifier accepts it, its lines add up to the seller's balance, and the month before chains into it", async () => {
  const shop = await db.newShop('statement');
  const month = thisMonth();
  await openedAt(shop.seller.id, new Date(`${monthBefore(month)}-15T00:00:00Z`));
  await db.completedPayment(shop, 5000);
  await db.completedPayment(shop, 1234);
  const text = await statementOf(shop.seller.id, month);
  const statement = JSON.parse(text);

  expect(statement).toMatchObject({ format: STATEMENT_FORMAT, seller_id: shop.seller.id, month, currency: 'usd', opening_balance: 0, key_id: keys.signer.keyId });
  const balance = Number(await sellerBalance(db.em(), shop.seller.id));
  expect(statement.closing_balance).toBe(balance);
  expect(statement.line_count).toBe(statement.lines.length);
  expect(statement.lines.length).toBeGreaterThanOrEqual(2);
  expect(statement.lines.reduce((sum: number, line: { amount: number }) => sum + line.amount, 0)).toBe(balance);
  expect(statement.lines.at(-1).balance_after).toBe(balance);
  expect(statement.closing_hash).toBe(statement.lines.at(-1).hash);
  // One member a line, one ledger line a line, as the format promises to a reader.
  expect(text.split('\n')).toHaveLength(statement.lines.length + 20);

  const before = JSON.parse(await statementOf(shop.seller.id, monthBefore(month)));
  expect(before).toMatchObject({ line_count: 0, lines: [], opening_balance: 0, closing_balance: 0 });
  expect(before.closing_hash).toBe(before.opening_hash);
  expect(statement.previous).toEqual({ month: before.month, closing_balance: 0, closing_hash: before.closing_hash });

  const run = verify(await statementOf(shop.seller.id, monthBefore(month)), text);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
});

test('no statement of a month that has not begun: refused before anything is written or signed', async () => {
  const shop = await db.newShop('statement-future');
  let written = '';
  const write = async (piece: string) => void (written += piece);
  await expect(writeSignedStatement(db.em(), shop.seller.id, '2026-05', keys.signer, write, new Date('2026-04-30T23:59:59.999Z'))).rejects.toMatchObject({ code: 'MONTH_NOT_BEGUN' });
  await expect(monthlyStatement(db.em(), shop.seller.id, '2099-01')).rejects.toMatchObject({ code: 'MONTH_NOT_BEGUN' });
  expect(written).toBe('');
  // The month that has just begun is served (provisional until it ends).
  expect(JSON.parse(await statementOf(shop.seller.id, '2026-05', new Date('2026-05-01T00:00:00.000Z')))).toMatchObject({ month: '2026-05', generated_at: '2026-05-01T00:00:00.000Z' });
});

test("statements run from the account's first month, in UTC: the months before are refused, signed or not, and the first chains to a zero closing", async () => {
  const shop = await db.newShop('statement-first-month');
  // Opened on the evening of 28 February in New York: already 1 March in UTC, the statements' time zone.
  await openedAt(shop.seller.id, new Date('2026-03-01T04:30:00Z'));
  const now = new Date('2026-11-29T12:00:00Z');
  expect(await statementMonths(db.em(), shop.seller.id, now)).toEqual({ first: '2026-03', last: '2026-11' });
  let written = '';
  const write = async (piece: string) => void (written += piece);
  const refusal = { code: 'MONTH_BEFORE_ACCOUNT', message: 'There is no statement of a month before the account was opened; its first month is 2026-03' };
  for (const month of ['2026-02', '2025-12', '1999-01']) {
    await expect(monthlyStatement(db.em(), shop.seller.id, month, now)).rejects.toMatchObject(refusal);
    await expect(writeSignedStatement(db.em(), shop.seller.id, month, keys.signer, write, now)).rejects.toMatchObject(refusal);
  }
  expect(written).toBe('');
  // A month after the current one is still MONTH_NOT_BEGUN; a month that is not one, MONTH_INVALID.
  await expect(monthlyStatement(db.em(), shop.seller.id, '2026-12', now)).rejects.toMatchObject({ code: 'MONTH_NOT_BEGUN' });
  await expect(monthlyStatement(db.em(), shop.seller.id, '2026-00', now)).rejects.toMatchObject({ code: 'MONTH_INVALID' });

  const first = JSON.parse(await statementOf(shop.seller.id, '2026-03', now));
  expect(first).toMatchObject({ month: '2026-03', opening_balance: 0, previous: { month: '2026-02', closing_balance: 0 } });
  expect(first.previous.closing_hash).toMatch(/^[0-9a-f]{64}$/);
  const run = verify(JSON.stringify(first));
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
});

test('a statement changed after signing fails the verifier', async () => {
  const shop = await db.newShop('statement-forged');
  await db.completedPayment(shop, 2000);
  const statement = JSON.parse(await statementOf(shop.seller.id, thisMonth()));
  statement.lines[0].amount += 1;
  expect(verify(JSON.stringify(statement)).status).toBe(1);
});

test('canonical JSON: sorted keys, no whitespace, integers only', () => {
  expect(canonicalJson({ b: [1, 'x', null, true], a: { d: -2, c: 'é"' } })).toBe('{"a":{"c":"é\\"","d":-2},"b":[1,"x",null,true]}');
  expect(() => canonicalJson({ amount: 1.5 })).toThrow('integers only');
  expect(() => canonicalJson({ amount: 2 ** 53 })).toThrow('integers only');
  expect(() => canonicalJson({ at: new Date(0).toISOString(), f: () => 1 })).toThrow('cannot hold function');
  expect(() => canonicalJson([undefined])).toThrow('cannot hold undefined');
});
