#!/usr/bin/env node
// Verifies signed monthly statements (statement-YYYY-MM.json from the dashboard) offline, with Node 20 and nothing
// else: copy this file anywhere. The format is described in docs/dashboard.md, "Signed statements".
//
//   node verify-statement.mjs --keys statement-keys.json statement-2026-03.json [statement-2026-02.json ...] [--json]
//
// --keys is the file served at /.well-known/statement-keys.json, saved once from the service over https: a
// statement names its key by id only and is never trusted to bring its own key. Several statements of one seller
// are also checked as a series: each month's opening is the month before's closing (balance and hash). A statement
// signed before its month ended is provisional: it says so, with the time it was made (as_of).
// Exit code: 0 all verified, 1 a check failed, 2 the files could not be read or the arguments are wrong.
import { createHash, createPublicKey, verify } from 'node:crypto';
import fs from 'node:fs';
import { parseArgs } from 'node:util';

const FORMAT = 'hcp-statement/1';
const TOP_LEVEL = ['format', 'seller_id', 'month', 'from', 'to', 'currency', 'opening_balance', 'generated_at', 'previous', 'opening_hash', 'lines', 'line_count', 'closing_balance', 'closing_hash', 'key_id', 'signature'];
const LINE_FIELDS = ['entry_id', 'created_at', 'type', 'amount', 'paid_out', 'balance_after', 'payment_id', 'withdrawal_id', 'refund_id'];
const HEADER_FIELDS = ['format', 'seller_id', 'month', 'from', 'to', 'currency', 'opening_balance'];

class UsageError extends Error {}

/** Sorted keys, no whitespace, JSON.stringify's strings, integers only (RFC 8785 for these values). */
function canonicalJson(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
  if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new Error(`not an exact integer: ${value}`);
  return JSON.stringify(value);
}

const sha256 = (...parts) => parts.reduce((hash, part) => hash.update(part), createHash('sha256')).digest('hex');
const pick = (object, names) => Object.fromEntries(names.map((name) => [name, object[name]]));
const isCents = (value) => Number.isSafeInteger(value);
const isId = (value) => value === null || typeof value === 'string';

/** The published keys by id. Each key's id must be its RFC 7638 thumbprint, and its PEM (when given) the same key. */
function loadKeys(text) {
  const keys = new Map();
  for (const entry of JSON.parse(text)?.keys ?? []) {
    if (entry?.kty !== 'OKP' || entry.crv !== 'Ed25519' || typeof entry.x !== 'string' || typeof entry.kid !== 'string') throw new UsageError(`the keys file holds a key that is not Ed25519: ${JSON.stringify(entry?.kid)}`);
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: entry.x }, format: 'jwk' });
    const thumbprint = createHash('sha256').update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x: entry.x })).digest('base64url');
    if (thumbprint !== entry.kid) throw new UsageError(`the keys file names key ${entry.kid} wrongly (its thumbprint is ${thumbprint})`);
    if (entry.pem !== undefined && !createPublicKey(entry.pem).equals(key)) throw new UsageError(`the keys file gives two different keys for ${entry.kid}`);
    keys.set(entry.kid, key);
  }
  if (keys.size === 0) throw new UsageError('the keys file holds no key');
  return keys;
}

/** Every check of one statement; the failures, in words (none: verified). */
function checkStatement(doc, keys) {
  const failures = [];
  const fail = (text) => failures.push(text);
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return ['not a statement (a JSON object)'];
  const unknown = Object.keys(doc).filter((name) => !TOP_LEVEL.includes(name));
  const missing = TOP_LEVEL.filter((name) => !(name in doc));
  if (unknown.length) fail(`unknown members: ${unknown.join(', ')}`);
  if (missing.length) return [...failures, `missing members: ${missing.join(', ')}`];
  if (doc.format !== FORMAT) return [...failures, `format is ${JSON.stringify(doc.format)}, not ${FORMAT}`];
  if (!Array.isArray(doc.lines)) return [...failures, 'lines is not a list'];
  for (const name of ['opening_balance', 'closing_balance', 'line_count']) if (!isCents(doc[name])) fail(`${name} is not an integer`);
  if (failures.length) return failures;

  const match = /^(\d{4})-(\d{2})$/.exec(String(doc.month));
  const from = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)).toISOString() : null;
  const to = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]), 1)).toISOString() : null;
  if (doc.from !== from || doc.to !== to) fail(`from and to are not the month ${doc.month} (UTC)`);

  let hash = sha256(canonicalJson(pick(doc, HEADER_FIELDS)));
  if (hash !== doc.opening_hash) fail('opening_hash is not the hash of the header (format, seller, month, from, to, currency, opening balance)');
  let balance = doc.opening_balance;
  let chainBroken = false;
  let previousEntry = null;
  doc.lines.forEach((line, index) => {
    const where = `line ${index + 1}${typeof line?.entry_id === 'string' ? ` (entry ${line.entry_id})` : ''}`;
    if (line === null || typeof line !== 'object' || Array.isArray(line)) return fail(`${where} is not an object`);
    const extra = Object.keys(line).filter((name) => !LINE_FIELDS.includes(name) && name !== 'hash');
    if (extra.length) fail(`${where} has unknown members: ${extra.join(', ')}`);
    const fields = pick(line, LINE_FIELDS);
    if (!isCents(fields.amount) || !isCents(fields.balance_after) || !(fields.paid_out === null || isCents(fields.paid_out))) return fail(`${where}: amount, balance_after or paid_out is not an integer`);
    const texts = typeof fields.entry_id === 'string' && /^\d+$/.test(fields.entry_id) && typeof fields.type === 'string' && typeof fields.created_at === 'string';
    if (!texts || ![fields.payment_id, fields.withdrawal_id, fields.refund_id].every(isId)) return fail(`${where}: malformed entry_id, type, created_at or ids`);
    if (fields.balance_after !== balance + fields.amount) fail(`${where}: balance_after ${fields.balance_after} is not ${balance} + ${fields.amount}`);
    balance = fields.balance_after;
    if (previousEntry !== null && BigInt(fields.entry_id) <= previousEntry) fail(`${where}: out of the ledger's order (entry ids must increase)`);
    previousEntry = BigInt(fields.entry_id);
    if (!(fields.created_at >= doc.from && fields.created_at < doc.to)) fail(`${where}: created_at ${fields.created_at} is outside the month`);
    hash = sha256(Buffer.from(hash, 'hex'), canonicalJson(fields));
    if (line.hash !== hash && !chainBroken) {
      chainBroken = true;
      fail(`${where}: hash does not follow the chain (this line or one before it was changed, added, removed or moved)`);
    }
  });
  if (doc.line_count !== doc.lines.length) fail(`line_count is ${doc.line_count} but the statement has ${doc.lines.length} lines`);
  if (doc.closing_balance !== balance) fail(`closing_balance ${doc.closing_balance} is not the opening plus the lines (${balance})`);
  if (doc.closing_hash !== hash) fail('closing_hash is not the end of the chain over the lines');
  if (doc.previous?.closing_balance !== doc.opening_balance) fail(`opening_balance ${doc.opening_balance} is not the previous month's closing (${doc.previous?.closing_balance})`);

  if (typeof doc.generated_at !== 'string' || Number.isNaN(Date.parse(doc.generated_at))) fail('generated_at is not a time');
  else if (from && Date.parse(doc.generated_at) < Date.parse(from)) fail(`signed at ${doc.generated_at}, before its month ${doc.month} began`);

  const key = keys.get(doc.key_id);
  if (!key) fail(`signed by key ${JSON.stringify(doc.key_id)}, which is not in the keys file`);
  else if (!validSignature(doc, key)) fail(`the signature does not verify with key ${doc.key_id}: the statement was changed after signing, or not signed by that key`);
  return failures;
}

function validSignature(doc, key) {
  const { lines: _lines, signature, ...signed } = doc;
  if (typeof signature !== 'string') return false;
  try {
    return verify(null, Buffer.from(canonicalJson(signed), 'utf8'), key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

const monthAfter = (month) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 1)).toISOString().slice(0, 7);

/** Statements of consecutive months, oldest first: each opens where the one before closed. */
function checkSeries(docs) {
  const failures = [];
  const sorted = [...docs].sort((a, b) => String(a.month).localeCompare(String(b.month)));
  for (let i = 1; i < sorted.length; i++) {
    const [before, after] = [sorted[i - 1], sorted[i]];
    const pair = `${before.month} -> ${after.month}`;
    if (before.seller_id !== after.seller_id) failures.push(`${pair}: statements of different sellers`);
    if (monthAfter(String(before.month)) !== after.month) failures.push(`${pair}: not consecutive months`);
    if (after.opening_balance !== before.closing_balance) failures.push(`${pair}: opening balance ${after.opening_balance} is not the closing balance ${before.closing_balance}`);
    if (after.previous?.month !== before.month || after.previous?.closing_hash !== before.closing_hash || after.previous?.closing_balance !== before.closing_balance) {
      failures.push(`${pair}: ${after.month} does not name ${before.month}'s closing (previous month, hash and balance)`);
    }
  }
  return failures;
}

/**
 * The first member name given twice in one object of valid JSON text, as a path, or null. JSON.parse keeps the last
 * of two members of one name, so a forged member placed before the real one (or after it) would otherwise go unseen.
 */
function duplicateMember(text) {
  let i = 0;
  const space = () => {
    while (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r') i++;
  };
  const string = () => {
    const start = i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i));
  };
  const value = (path) => {
    space();
    if (text[i] === '"') return string(), null;
    if (text[i] !== '{' && text[i] !== '[') {
      while (i < text.length && !',]} \t\n\r'.includes(text[i])) i++;
      return null;
    }
    const object = text[i++] === '{';
    const seen = new Set();
    for (let index = 0; ; index++) {
      space();
      if (text[i] === '}' || text[i] === ']') return i++, null;
      if (text[i] === ',') i++, space();
      let name = index;
      if (object) {
        name = string();
        if (seen.has(name)) return `${path}${path ? '.' : ''}${name}`;
        seen.add(name);
        space();
        i++; // the colon
      }
      const found = value(`${path}${path ? '.' : ''}${name}`);
      if (found) return found;
    }
  };
  return value('');
}

function readJson(file) {
  let text;
  let doc;
  try {
    text = fs.readFileSync(file, 'utf8');
    doc = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file}: ${error.message}`);
  }
  return { doc, duplicate: duplicateMember(text) };
}

/** Final once signed after its month ended; before that a provisional statement, as of when it was signed. */
const isFinal = (doc) => typeof doc?.generated_at === 'string' && typeof doc?.to === 'string' && Date.parse(doc.generated_at) >= Date.parse(doc.to);

function main(argv) {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { keys: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean' } } });
  if (values.help || !values.keys || positionals.length === 0) throw new UsageError('usage: verify-statement --keys statement-keys.json statement.json [previous-month.json ...] [--json]');
  let keys;
  try {
    keys = loadKeys(fs.readFileSync(values.keys, 'utf8'));
  } catch (error) {
    throw error instanceof UsageError ? error : new UsageError(`${values.keys}: ${error.message}`);
  }
  const statements = positionals.map((file) => {
    const { doc, duplicate } = readJson(file);
    const failures = [...(duplicate ? [`member ${duplicate} is given twice (a statement names each member once)`] : []), ...checkStatement(doc, keys)];
    return {
      file, ok: failures.length === 0, seller_id: doc?.seller_id, month: doc?.month, opening_balance: doc?.opening_balance, closing_balance: doc?.closing_balance,
      final: isFinal(doc), as_of: doc?.generated_at, line_count: doc?.lines?.length, key_id: doc?.key_id, failures, doc,
    };
  });
  const series = statements.length > 1 ? checkSeries(statements.map((s) => s.doc)) : [];
  const ok = statements.every((s) => s.ok) && series.length === 0;
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ ok, statements: statements.map(({ doc: _doc, ...s }) => s), series_failures: series }, null, 2)}\n`);
  } else {
    for (const s of statements) {
      const standing = s.final ? 'final' : `PROVISIONAL, as of ${s.as_of} (the month had not ended)`;
      if (s.ok) process.stdout.write(`OK      ${s.file}: seller ${s.seller_id}, month ${s.month}, closing balance ${s.closing_balance} cents, ${standing}; opening ${s.opening_balance}, ${s.line_count} lines, key ${s.key_id}\n`);
      else process.stdout.write(`FAILED  ${s.file}\n${s.failures.map((f) => `  - ${f}\n`).join('')}`);
    }
    if (statements.length > 1) process.stdout.write(series.length ? `FAILED  months do not link:\n${series.map((f) => `  - ${f}\n`).join('')}` : 'OK      the months link: each opening is the closing before it\n');
    const provisional = statements.filter((s) => !s.final).map((s) => s.month);
    process.stdout.write(!ok ? 'NOT verified.\n' : provisional.length ? `Verified, but provisional: ${provisional.join(', ')} had not ended when signed.\n` : 'Verified.\n');
  }
  return ok ? 0 : 1;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError) && error?.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw error;
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 2;
}
