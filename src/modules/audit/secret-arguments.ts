/**
 * Which GraphQL arguments (and input-object fields) may carry a secret, so that a refused admin call's
 * arguments reach the append-only audit log without them (docs/admin.md, "Refusals"). One naming rule
 * decides, plus two short lists; a unit test walks the built schema and fails on any argument or input
 * field whose name matches the rule but is not redacted, and on any entry of the lists the schema lacks.
 */

/** Passwords, TOTP and recovery codes, link and session tokens, webhook secrets, API and idempotency keys, account numbers, IBANs. */
export const SECRET_NAME = /password|code|token|secret|account|iban|key/i;

/** Names the rule matches that carry no secret: kept as sent, for the investigation. */
export const NOT_SECRET: ReadonlySet<string> = new Set([
  // setSellerAccountStatus: NEW, VERIFIED or RESTRICTED.
  'accountStatus',
]);

/** Secrets whose names the rule misses. */
export const ALSO_SECRET: ReadonlySet<string> = new Set([
  // CardInput.number: a card number (the security code is caught by the rule).
  'number',
]);

export const REDACTED = '[redacted]';

/** Whether an argument or input field of this name is redacted before it is audited. */
export function isSecretName(name: string): boolean {
  return ALSO_SECRET.has(name) || (SECRET_NAME.test(name) && !NOT_SECRET.has(name));
}

/**
 * A copy of GraphQL arguments with every secret replaced by `[redacted]`, at any depth (input objects,
 * lists of them). A secret's value is dropped whole, whatever its type (a list of recovery codes too).
 */
export function redactSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item)) as T;
  if (!isInputObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, isSecretName(name) ? REDACTED : redactSecrets(item)])) as T;
}

/** Input objects (plain, null-prototype, or type-graphql's input class instances); dates and other scalars stay as they are. */
function isInputObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !(value instanceof Date) && !ArrayBuffer.isView(value);
}
