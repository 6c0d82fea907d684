/** Money arrives as integer cents (BigInt fields may be strings of digits). */
export function money(cents: number | string, currency = 'usd'): string {
  const value = Number(cents) / 100;
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(value);
}

const TIME: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' };
const formats = new Map<string, Intl.DateTimeFormat>();
function timeFormat(seconds: boolean, timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${seconds}|${timeZone ?? ''}`;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.DateTimeFormat('en-US', { ...TIME, ...(seconds ? { second: '2-digit' } : {}), timeZone })));
  return format;
}

/**
 * Every time the dashboard shows, in one form: in the browser's time zone, which is named after it ("Nov 28, 2026,
 * 2:05 PM EST"; "GMT+1" where the zone has no short name), so no time is read in the wrong zone (docs/dashboard.md,
 * "Dates and times"). `timeZone` is for tests.
 */
export function when(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return '—';
  return timeFormat(false, timeZone).format(new Date(iso));
}

/** The same to the second (the request log, read against the seller's own logs). */
export function whenExact(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return '—';
  return timeFormat(true, timeZone).format(new Date(iso));
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** The date part of an instant read in UTC: "2026-11-28". */
const isoDate = (instant: number): string => new Date(instant).toISOString().slice(0, 10);

/**
 * The From and To date fields as the instants a filter takes: from the start of the first day to the start of the
 * day after the last, in the browser's time zone (docs/dashboard.md, "Dates and times"). The day after is the next
 * date on the calendar, not 24 hours on: the days the clocks change last 23 or 25 hours. A field that is not a date
 * (a hand-edited address) filters nothing. `timeZone` is for tests.
 */
export function dayRange(from: string, to: string, timeZone?: string): { createdFrom?: string; createdTo?: string } {
  const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const start = (day: string, later: number) => {
    const parts = DAY.exec(day);
    if (!parts) return undefined;
    const [year, month, date] = parts.slice(1).map(Number);
    if (isoDate(Date.UTC(year, month - 1, date)) !== day) return undefined;
    return startOfDay(Date.UTC(year, month - 1, date + later), zone).toISOString();
  };
  const createdFrom = start(from, 0);
  const createdTo = start(to, 1);
  return { ...(createdFrom ? { createdFrom } : {}), ...(createdTo ? { createdTo } : {}) };
}

const zoneClocks = new Map<string, Intl.DateTimeFormat>();
/** What a clock in `timeZone` shows at `instant`, read as if it were UTC: the zone's offset is the difference. */
function wallClock(instant: number, timeZone: string): number {
  let clock = zoneClocks.get(timeZone);
  if (!clock) {
    const options: Intl.DateTimeFormatOptions = { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' };
    zoneClocks.set(timeZone, (clock = new Intl.DateTimeFormat('en-US', options)));
  }
  const part = Object.fromEntries(clock.formatToParts(instant).map((p) => [p.type, Number(p.value)]));
  return Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute, part.second);
}

/**
 * The first instant of a date (given as its UTC midnight) in a zone: its midnight there, or where the clocks skip
 * midnight, the first time after it. The offset is read at a guess and again at the answer, since the guess may sit
 * on the other side of a change.
 */
function startOfDay(midnight: number, timeZone: string): Date {
  const first = midnight - (wallClock(midnight, timeZone) - midnight);
  const second = midnight - (wallClock(first, timeZone) - first);
  const onTheDate = (instant: number) => isoDate(wallClock(instant, timeZone)) === isoDate(midnight);
  return new Date([second, first].filter(onTheDate).sort((a, b) => a - b)[0] ?? first);
}

/**
 * A refusal of the API as a seller reads it: the catalogue's words, with every amount in cents shown in dollars
 * ("at least 1000 cents (10 USD)" -> "at least $10.00"; "a balance of -600 cents" -> "a balance of -$6.00").
 */
export function inDollars(message: string): string {
  return message.replace(/(-?\d+) cents(?: \([^)]*USD\))?/g, (_, cents: string) => money(cents));
}

const WORDS: Record<string, string> = {
  PENDING: 'Pending', COMPLETED: 'Completed', FAILED: 'Failed', REFUNDED: 'Refunded', REQUESTED: 'Requested',
  APPROVED: 'Approved', REJECTED: 'Rejected', PAID: 'Paid', PROCESSING: 'Processing', DELIVERED: 'Delivered',
  RETRYING: 'Retrying', SCHEDULED: 'Scheduled', IN_FLIGHT: 'Sending',
};
export const statusWord = (status: string) => WORDS[status] ?? status.charAt(0) + status.slice(1).toLowerCase().replace(/_/g, ' ');

/**
 * Why a refund request ended as it did, for the seller, after its status: the reason finance gave for a
 * rejection, or the acquirer's for a refund it refused (status FAILED); empty otherwise.
 */
export function refundReasonNote(refund: { status: string; rejectionReason: string | null; failureReason: string | null }): string {
  if (refund.rejectionReason) return ` Reason given: ${refund.rejectionReason}`;
  if (refund.status === 'FAILED' && refund.failureReason) return ` The card acquirer refused it: ${refund.failureReason}`;
  return '';
}

/**
 * "12.50" -> 1250 cents, done on the digits (no floating point); null when it is not an amount in dollars
 * with at most two decimals. The minimum and balance rules are the server's, in the API's words.
 */
export function dollarsToCents(text: string): number | null {
  const match = /^\s*\$?\s*(\d{1,9})(?:\.(\d{1,2}))?\s*$/.exec(text.replace(/,/g, ''));
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** What a balance line is, for the seller (docs/dashboard.md, "Balance"). */
export const LINE_WORDS: Record<string, string> = {
  payment: 'Payment', fee: 'Fee', refund: 'Refund', refund_reversed: 'Refund reversed', refund_failed: 'Refund failed', chargeback: 'Chargeback',
  chargeback_reversed: 'Chargeback reversed', second_chargeback: 'Second chargeback', dispute_won: 'Dispute won', dispute_share: 'Dispute share adjusted',
  withdrawal_hold: 'Withdrawal requested (held)', withdrawal_release: 'Withdrawal released', payout: 'Paid out to your bank',
  test_payment: 'Live test (no fee)', test_refund: 'Live test refunded',
};
export const lineWord = (kind: string) => LINE_WORDS[kind] ?? kind;

/** Cents as the dollars a form shows for editing: 1250 -> "12.50". */
export function centsToDollars(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A UTC month, "2026-03", in words: "March 2026". */
export function monthWords(month: string): string {
  const [year, index] = month.split('-').map(Number);
  return new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(year, index - 1, 1)));
}

/** The months from `first` to `last` ("YYYY-MM", first not after last), newest first: "2026-03", "2026-02", … */
export function monthsBetween(first: string, last: string): string[] {
  const index = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
  const months: string[] = [];
  for (let i = index(last); i >= index(first); i -= 1) months.push(`${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`);
  return months;
}

/** A UTC day, "2026-03-05", short: "Mar 5". */
export function dayWords(day: string): string {
  return new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
}
