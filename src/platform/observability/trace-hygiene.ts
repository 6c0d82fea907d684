/**
 * What a span may carry (docs/operations.md, "Tracing"): what the logs may. Every span passes through `cleanSpan`
 * before it is exported, whichever instrumentation made it: no query string (set-up, reset, invitation and
 * verification links carry their token there), no token-bearing path however it is cased (`/refunds/<token>`), SQL
 * with its literals replaced by `?` (MikroORM writes values into the statement's text: e-mails, names, hashes,
 * rendered mails), no SQL parameters, and error messages with their quoted values masked (a driver error quotes
 * the statement it failed on). A span keeps its shape: names, routes, statements' structure, status codes.
 */

/** A path whose segment after `/refunds/` is itself a secret (a refund tracking link). Routing ignores case: so does this. */
const SECRET_PATH = /(\/refunds\/)[^/?#\s"'<>]+/gi;
/** `?…` and `#…` of a URL or a request target, up to the end of the URL. */
const QUERY_OR_FRAGMENT = /[?#][^\s"'<>]*/g;
/** A URL inside free text (an error message): its query string goes. */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'<>]+/gi;

/** Attributes naming a URL or a request target (old and new HTTP semantic conventions). */
const URL_ATTRIBUTE = /^(url\.(full|path|original)|http\.(url|target|route))$/;
/** Attributes holding a statement's text (old and new database semantic conventions). */
const STATEMENT_ATTRIBUTE = /^db\.(statement|query\.text)$/;
/** Attributes that are values and nothing else: never exported. */
const VALUE_ATTRIBUTE = /^(url\.query|db\.statement\.parameters|db\.query\.parameter\..*|graphql\.variables\..*|http\.request\.header\..*|http\.response\.header\..*)$/;
/** Event attributes that are free text: an exception's message and stack, an error's message. */
const MESSAGE_ATTRIBUTE = /^(exception\.(message|stacktrace)|error\.message|message)$/;

/**
 * SQL's literals, each replaced by `?`: '…' (with '' inside), E'…' (with \' inside), $tag$…$tag$ and numbers
 * that are no part of a name or a `$1` placeholder. "Quoted identifiers" stay: they are the statement's shape.
 */
const SQL_LITERAL = /"(?:[^"]|"")*"|[eE]'(?:[^'\\]|\\.|'')*'|'(?:[^']|'')*'|\$([A-Za-z_]\w*)?\$[\s\S]*?\$\1\$|(?<![\w$.])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b/g;

export function maskSqlLiterals(sql: string): string {
  return sql.replace(SQL_LITERAL, (literal) => (literal.startsWith('"') ? literal : '?'));
}

export function maskSecretPaths(text: string): string {
  return text.replace(SECRET_PATH, '$1:token');
}

/** A URL or request target without its query string or fragment, its secret path masked. */
export function cleanUrl(value: string): string {
  return maskSecretPaths(value.replace(QUERY_OR_FRAGMENT, ''));
}

/**
 * Free text (an error message, a stack): URLs without their query, secret paths masked, and every quoted value
 * masked, in single quotes (SQL) or double quotes (PostgreSQL's `invalid input syntax for type uuid: "…"`).
 */
export function cleanMessage(text: string): string {
  return maskSecretPaths(text.replace(URL_IN_TEXT, (url) => url.replace(QUERY_OR_FRAGMENT, '')))
    .replace(/[eE]?'(?:[^'\\]|\\.|'')*'/g, '?')
    .replace(/"(?:[^"\\]|\\.)*"/g, '"?"');
}

type AttributeValue = string | number | boolean | (string | number | boolean | null | undefined)[] | undefined;

/** The parts of a finished span this rewrites, as the SDK's span holds them (plain, writable objects). */
export interface CleanableSpan {
  name: string;
  attributes: Record<string, AttributeValue>;
  events: { name: string; attributes?: Record<string, AttributeValue> }[];
  status: { code: number; message?: string };
}

function cleanAttributes(attributes: Record<string, AttributeValue>, clean: (key: string, text: string) => string): void {
  for (const key of Object.keys(attributes)) {
    const value = attributes[key];
    if (VALUE_ATTRIBUTE.test(key)) delete attributes[key];
    else if (typeof value === 'string') attributes[key] = clean(key, value);
    else if (Array.isArray(value)) attributes[key] = value.map((item) => (typeof item === 'string' ? clean(key, item) : item));
  }
}

const cleanAttribute = (key: string, text: string): string => {
  if (URL_ATTRIBUTE.test(key)) return cleanUrl(text);
  if (STATEMENT_ATTRIBUTE.test(key)) return maskSqlLiterals(text);
  if (MESSAGE_ATTRIBUTE.test(key)) return cleanMessage(text);
  return maskSecretPaths(text);
};

/** Rewrites the span in place: see the module's comment. */
export function cleanSpan(span: CleanableSpan): void {
  span.name = maskSecretPaths(span.name.replace(QUERY_OR_FRAGMENT, ''));
  cleanAttributes(span.attributes, cleanAttribute);
  for (const event of span.events) if (event.attributes) cleanAttributes(event.attributes, (key, text) => (MESSAGE_ATTRIBUTE.test(key) ? cleanMessage(text) : cleanAttribute(key, text)));
  if (span.status.message) span.status = { ...span.status, message: cleanMessage(span.status.message) };
}
