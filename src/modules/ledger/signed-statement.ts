import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Cents } from '../../shared/cents';
import { isoTime } from '../../shared/csv';
import { SUPPORTED_CURRENCY } from '../../shared/limits';
import { eachStatementLinePage, monthlyStatement, statementOfMonth, type BalanceLine, type MonthlyStatement } from './balance-lines';
import type { StatementSigner } from './statement-keys';

/**
 * A month's statement as a signed JSON document a seller can verify offline (docs/dashboard.md, "Signed
 * statements"; scripts/verify-statement.mjs is the verifier and must agree with this file byte for byte):
 *
 * - canonical JSON: object keys sorted by UTF-16 code unit, no whitespace, strings as JSON.stringify writes
 *   them, integers in decimal (RFC 8785 for the values a statement holds: strings, safe integers, null);
 * - `opening_hash` = SHA-256(canonical header), the header being format, seller, month, from, to, currency
 *   and opening balance; each line's `hash` = SHA-256(previous hash's 32 bytes ‖ canonical line without `hash`);
 *   `closing_hash` is the last line's hash (the opening hash when the month has none);
 * - `signature` = Ed25519 over the canonical document without `lines` and `signature`: the lines are bound
 *   through `closing_hash`, which is what lets the file be streamed in constant memory.
 */
export const STATEMENT_FORMAT = 'hcp-statement/1';

/** A line as the CSV has it, amounts in cents. */
interface LineFields {
  entry_id: string;
  created_at: string;
  type: string;
  amount: number;
  paid_out: number | null;
  balance_after: number;
  payment_id: string | null;
  withdrawal_id: string | null;
  refund_id: string | null;
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = value as Record<string, unknown>;
    return `{${Object.keys(members).sort().map((key) => `${JSON.stringify(key)}:${canonicalJson(members[key])}`).join(',')}}`;
  }
  if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new Error(`canonical JSON holds integers only (got ${value})`);
  if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) throw new Error(`canonical JSON cannot hold ${typeof value}`);
  return JSON.stringify(value);
}

const sha256 = (...parts: (Buffer | string)[]) => parts.reduce((hash, part) => hash.update(part), createHash('sha256')).digest('hex');

/** Balances are bigint sums; a JSON number is exact to 2^53 - 1 cents, far beyond any balance. */
function jsonCents(cents: Cents): number {
  if (cents > BigInt(Number.MAX_SAFE_INTEGER) || cents < -BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('balance beyond the exact range of a JSON number');
  return Number(cents);
}

function fieldsOf(line: BalanceLine): LineFields {
  return {
    entry_id: line.id,
    created_at: isoTime(line.createdAt),
    type: line.kind,
    amount: line.amount,
    paid_out: line.paidOut,
    balance_after: jsonCents(line.runningBalance),
    payment_id: line.paymentId,
    withdrawal_id: line.withdrawalId,
    refund_id: line.refundId,
  };
}

function headerOf(sellerId: string, statement: MonthlyStatement) {
  return {
    format: STATEMENT_FORMAT,
    seller_id: sellerId,
    month: statement.month,
    from: isoTime(statement.from),
    to: isoTime(statement.to),
    currency: SUPPORTED_CURRENCY,
    opening_balance: jsonCents(statement.opening),
  };
}

/** The chain's first link: it binds the header, opening balance included. */
const openingHash = (sellerId: string, statement: MonthlyStatement) => sha256(canonicalJson(headerOf(sellerId, statement)));

interface ChainEnd {
  hash: string;
  balance: Cents;
  count: number;
}

/** Hashes the month's lines into the chain from its header, oldest first, handing each page of lines (with their hash) to `onPage`. */
async function chainLines(em: EntityManager, sellerId: string, statement: MonthlyStatement, onPage: (lines: (LineFields & { hash: string })[]) => Promise<void>): Promise<ChainEnd> {
  const end: ChainEnd = { hash: openingHash(sellerId, statement), balance: statement.opening, count: 0 };
  await eachStatementLinePage(em, sellerId, statement, (lines) => {
    const chained = lines.map((line) => {
      const fields = fieldsOf(line);
      end.hash = sha256(Buffer.from(end.hash, 'hex'), canonicalJson(fields));
      end.balance = line.runningBalance;
      end.count += 1;
      return { ...fields, hash: end.hash };
    });
    return onPage(chained);
  });
  return end;
}

/**
 * The month before `from`'s month, as its own statement would close it: balance and closing hash. The account's
 * first month chains to the month before the account, which has no statement of its own: it closes at zero.
 */
async function previousClosing(em: EntityManager, sellerId: string, from: Date) {
  const month = new Date(from.getTime() - 1).toISOString().slice(0, 7);
  const end = await chainLines(em, sellerId, await statementOfMonth(em, sellerId, month), async () => undefined);
  return { month, closing_balance: jsonCents(end.balance), closing_hash: end.hash };
}

/** `  "name": value,` lines of a JSON object's members. */
const members = (fields: object) => Object.entries(fields).map(([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)},\n`).join('');

/**
 * Writes the signed statement of `month` (YYYY-MM, UTC) to `write`, a piece at a time: the header, the lines a
 * keyset page at a time, then the closing balance, the chain's end and the signature. Readable as written: one
 * member a line, one ledger line a line.
 */
export async function writeSignedStatement(em: EntityManager, sellerId: string, month: string, signer: StatementSigner, write: (text: string) => Promise<void>, now = new Date()): Promise<void> {
  const statement = await monthlyStatement(em, sellerId, month, now);
  const head = {
    ...headerOf(sellerId, statement),
    generated_at: isoTime(now),
    previous: await previousClosing(em, sellerId, statement.from),
    opening_hash: openingHash(sellerId, statement),
  };
  await write(`{\n${members(head)}  "lines": [`);
  let written = 0;
  const end = await chainLines(em, sellerId, statement, (lines) => write(lines.map((line) => `${written++ ? ',' : ''}\n    ${JSON.stringify(line)}`).join('')));
  const tail = { line_count: end.count, closing_balance: jsonCents(end.balance), closing_hash: end.hash, key_id: signer.keyId };
  const signature = signer.sign(Buffer.from(canonicalJson({ ...head, ...tail }), 'utf8'));
  await write(`${end.count ? '\n  ' : ''}],\n${members(tail)}  "signature": ${JSON.stringify(signature)}\n}\n`);
}
