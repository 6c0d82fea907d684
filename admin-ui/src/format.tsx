/** How the back office writes money, times and states: the same everywhere. */

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Integer cents (a number, or a BigInt field's digits) as dollars: 123456 -> $1,234.56. */
export function money(cents: number | string | null | undefined): string {
  if (cents === null || cents === undefined || cents === '') return '—';
  const value = typeof cents === 'string' ? BigInt(cents) : BigInt(Math.trunc(cents));
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const dollars = abs / 100n;
  const rest = abs % 100n;
  const text = usd.format(Number(dollars)).replace(/\.00$/, '') + '.' + String(rest).padStart(2, '0');
  return negative ? `−${text}` : text;
}

/** Dollars typed by a person ("12.50", "$1,000") as integer cents, or null when it is not an amount. */
export function centsOf(text: string): number | null {
  const clean = text.replace(/[$,\s]/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(clean)) return null;
  const [whole, fraction = ''] = clean.split('.');
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

const dateTime = new Intl.DateTimeFormat('en-GB', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });

/** 3 Dec 2026, 14:05 UTC */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  return `${dateTime.format(new Date(iso))} UTC`;
}

const dateOnly = new Intl.DateTimeFormat('en-GB', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });

/** 3 Dec 2026 (UTC): for a column where the day is what matters, such as when a shop was opened. */
export function day(iso: string | null | undefined): string {
  return iso ? dateOnly.format(new Date(iso)) : '—';
}

/** How long ago, in words a queue is read in: 45 min, 5 h 12 min, 2 d 3 h. */
export function age(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

export const secondsSince = (iso: string): number => Math.max(0, Math.floor((Date.now() - Date.parse(iso)) / 1000));

/** REQUESTED -> Requested, SECOND_CHARGEBACK -> Second chargeback */
export function label(value: string | null | undefined): string {
  if (!value) return '—';
  const text = value.toLowerCase().replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A day typed in a date field (yyyy-mm-dd) as the start of that day in UTC, for a `from` filter. */
export const startOfDay = (day: string): string | null => (day ? `${day}T00:00:00.000Z` : null);
/** …and as the start of the next day, for a `to` filter (exclusive), so the day itself is included. */
export function endOfDay(day: string): string | null {
  if (!day) return null;
  const next = new Date(`${day}T00:00:00.000Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString();
}
