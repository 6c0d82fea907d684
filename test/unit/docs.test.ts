import fs from 'node:fs';
import path from 'node:path';
import { ERROR_CATALOGUE, type ErrorCode } from '../../src/shared/errors';
import { COMMON_ERRORS, type ErrorCase } from '../../src/api/rest/openapi/error-responses';
import { REST_ROUTES } from '../../src/api/rest/routes';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const DOCS = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** GitHub's heading anchors: lowercase, punctuation dropped, spaces to hyphens. */
function anchors(markdown: string): Set<string> {
  const body = markdown.replace(/```[\s\S]*?```/g, '');
  return new Set(
    [...body.matchAll(/^#{1,6} (.+)$/gm)].map(([, title]) =>
      title.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-'),
    ),
  );
}

/** Relative links of a Markdown file (outside code blocks and code spans): [text](target). */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map(([, target]) => target).filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

describe('the docs', () => {
  test.each(DOCS)('%s: every relative link names a file (and heading) that exists', (file) => {
    const broken: string[] = [];
    for (const link of relativeLinks(read(file))) {
      const [target, anchor] = link.split('#');
      const resolved = target === '' ? path.join(ROOT, file) : path.resolve(path.dirname(path.join(ROOT, file)), target);
      // The repository stands on its own: a link that leaves it is broken on a fresh clone.
      if (!resolved.startsWith(ROOT + path.sep) || !fs.existsSync(resolved)) broken.push(link);
      else if (anchor && resolved.endsWith('.md') && !anchors(fs.readFileSync(resolved, 'utf8')).has(anchor)) broken.push(link);
    }
    expect(broken).toEqual([]);
  });

  test('the link checker finds a broken link and a broken anchor (it can fail)', () => {
    expect(relativeLinks('see [a](docs/nope.md) and `[b](not-a-link.md)` and [c](https://example.com)')).toEqual(['docs/nope.md']);
    expect(anchors(read('docs/integrate.md')).has('5-verify-the-webhook')).toBe(true);
    expect(anchors(read('docs/integrate.md')).has('no-such-heading')).toBe(false);
  });

  test('the README starts with the two commands, and is short', () => {
    const readme = read('README.md');
    expect(readme.split('\n').slice(2, 6)).toEqual([
      '```sh',
      'npm install && npm start   # serves the API on http://localhost:3000 with an embedded database',
      'npm test                   # the whole test suite (needs PostgreSQL and Redis on 127.0.0.1; see "Tests")',
      '```',
    ]);
    expect(Buffer.byteLength(readme)).toBeLessThan(8 * 1024);
    for (const page of ['docs/integrate.md', 'docs/reference.md', 'docs/admin.md', 'docs/operations.md', 'docs/architecture.md', 'docs/checkout.md']) {
      expect(readme).toContain(`](${page})`);
    }
  });
});

describe('docs/integrate.md', () => {
  const integrate = read('docs/integrate.md');
  const rows = integrate.split('\n').filter((line) => line.startsWith('| '));

  /** Every catalogue error the REST API can answer: the routes' own, those of every route, and those outside the table. */
  const restCases: ErrorCase[] = [...COMMON_ERRORS, ...REST_ROUTES.flatMap((route) => route.document.errors ?? [])].flatMap((group) => group.cases);
  const restCodes = [...new Set([...restCases.map((c) => c.code), 'ROUTE_NOT_FOUND', 'METHOD_NOT_ALLOWED'] as ErrorCode[])];

  test('covers the REST errors the OpenAPI document lists (more than thirty codes)', () => {
    expect(restCodes.length).toBeGreaterThan(30);
  });

  test.each(restCodes)('%s is in the error table, under its status, with its exact message', (code) => {
    const { status, message } = ERROR_CATALOGUE[code];
    const row = rows.find((line) => line.includes(`| \`${code}\` |`));
    expect(row).toBeDefined();
    expect(row!.startsWith(`| ${status} |`)).toBe(true);
    const samples = restCases.filter((c) => c.code === code).map((c) => c.message);
    const expected = typeof message === 'string' ? [message] : samples;
    for (const text of expected) expect(rows.some((line) => line.startsWith(`| ${status} | \`${text}\``))).toBe(true);
  });

  /** The GraphQL errors a seller's key can meet (balances, withdrawals, webhook settings, document limits). */
  const sellerGraphqlCodes: ErrorCode[] = ['FORBIDDEN', 'SHOP_NOT_FOUND', 'WEBHOOK_URL_INVALID', 'WEBHOOK_URL_FORBIDDEN', 'WEBHOOK_URL_NOT_SET', 'WEBHOOK_DELIVERY_NOT_FOUND', 'WEBHOOK_DELIVERY_PENDING', 'WEBHOOK_TEST_RATE_LIMITED', 'WITHDRAWAL_BELOW_MINIMUM', 'WITHDRAWAL_EXCEEDS_BALANCE', 'WITHDRAWAL_BALANCE_NEGATIVE', 'EMAIL_NOT_VERIFIED', 'PAYOUT_ACCOUNT_REQUIRED', 'QUERY_TOO_DEEP', 'QUERY_TOO_COSTLY', 'QUERY_TOO_MANY_ALIASES', 'QUERY_COST_BUDGET_EXCEEDED', 'INTROSPECTION_NOT_ALLOWED', 'TEXT_INPUT_INVALID'];

  test.each(sellerGraphqlCodes)('%s (GraphQL) is in the error table under its status, its message as the catalogue makes it', (code) => {
    const { status, message } = ERROR_CATALOGUE[code];
    const row = rows.find((line) => line.includes(`| \`${code}\` |`));
    expect(row).toBeDefined();
    const [, documentedStatus, documented] = /^\| (\d+) \| `([^`]+)`/.exec(row!)!;
    expect(Number(documentedStatus)).toBe(status);
    // Templated messages are written with <placeholders>: rendering the template with the same ones must give the row.
    const placeholders = documented.match(/<[a-z]+>/g) ?? [];
    const rendered = typeof message === 'string' ? message : (message as (...details: string[]) => string)(...placeholders);
    expect(documented).toBe(rendered);
  });

  test.each(['examples/verify-webhook.mjs', 'examples/webhook-receiver.mjs'])('quotes %s exactly as the file the tests run', (file) => {
    expect(integrate).toContain(`\`\`\`js\n${read(file).trimEnd()}\n\`\`\``);
  });

  test('follows the seller\'s order', () => {
    const order = ['Authenticate', 'Create a payment', 'Redirect the customer', 'What comes back on `return_url`', 'Verify the webhook', 'Idempotency and retries', 'Every error, with its status', 'Test cards', 'A decline is final: create a new payment', 'Balances and withdrawals', 'Going live'];
    const positions = order.map((title) => integrate.search(new RegExp(`^## \\d+\\. ${title.replace(/[.*+?^${}()|[\]\\`]/g, '\\$&')}$`, 'm')));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });
});
