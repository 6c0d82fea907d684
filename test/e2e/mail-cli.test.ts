import { eventually } from '../support/admin-client';
import { checkoutClient } from '../support/checkout-client';
import { runNode } from '../support/processes';
import { sellerClient, VALID_PAYMENT } from '../support/seller-client';
import { useTestService } from '../support/test-service';

/**
 * Local use without SMTP_URL (docs/operations.md, "Mail"): receipts and notifications are kept in the database,
 * the log says in one readable line where to read each (never its body), and the built CLI prints them:
 * `mail list`, `mail show <id>`, `mail raw <id>`. Needs `npm run build`.
 */
const service = useTestService({ MAIL_POLL_INTERVAL_MS: '100', SMTP_URL: '' });

const cli = (args: string[]) => runNode('cli.js', ['mail', ...args], { DATABASE_URL: service.database.orm.config.getClientUrl(), LOG_LEVEL: 'warn' });

test('a receipt is kept, logged as one line naming the command and not the mail, and read back with the CLI', async () => {
  const shop = await service.createShop({ shopName: 'Local Bakery' });
  const customer = `local-${Date.now()}@example.com`;
  const created = await sellerClient(service.url, shop.apiKey).create({ ...VALID_PAYMENT, amount: 4321, customer_email: customer, customer_name: 'Lou Local' });
  const paymentId = created.body.data.id as string;
  await checkoutClient(service.url).pay(paymentId, '4242424242424242');
  const [row] = (await eventually(async () => {
    const rows = await service.em().execute<{ id: string; status: string }[]>(`select "id", "status" from "mail_outbox" where "payment_id" = ? and "status" = 'kept'`, [paymentId]);
    return rows.length ? rows : null;
  }, 10_000, 'the receipt to be kept'))!;

  // The start says where mails go; each kept mail is one line with the command to read it, and no part of it.
  expect(service.logs.filter((l) => String(l.msg).startsWith('Receipts and notifications are kept in the database'))).toHaveLength(1);
  const lines = service.logs.filter((l) => JSON.stringify(l).includes(row.id));
  expect(lines.map((l) => l.msg)).toEqual([`mail kept, not sent (SMTP_URL unset): read it with npm run -s cli -- mail show ${row.id}`]);
  expect(JSON.stringify(service.logs)).not.toMatch(/\$43\.21|Lou Local|Your receipt from/);

  const list = await cli(['list']);
  expect(list.code).toBe(0);
  const line = list.stdout.split('\n').find((l) => l.startsWith(row.id))!;
  expect(line).toMatch(/kept/);
  expect(line).toContain(customer);
  expect(line).toContain('Your receipt from Local Bakery');

  const shown = await cli(['show', row.id]);
  expect(shown.code).toBe(0);
  expect(shown.stdout).toContain(`To: ${customer}`);
  expect(shown.stdout).toContain('Subject: Your receipt from Local Bakery');
  expect(shown.stdout).toContain('Amount paid: $43.21 (USD)');
  expect(shown.stdout).toContain('Billed to: Lou Local');
  expect(shown.stdout).toContain(paymentId);

  const raw = await cli(['raw', row.id]);
  expect(raw.code).toBe(0);
  expect(raw.stdout).toMatch(/^From: "?Local Bakery via Payments"? <no-reply@pay\.example\.test>/m);
  expect(raw.stdout).toMatch(/Content-Type: multipart\/alternative/);
});

test.each([
  [['show', 'mail_nope'], /No mail mail_nope/],
  [['send'], /Usage: npm run cli -- mail list \| mail show <id>/],
  [['show'], /Usage: npm run cli -- mail list/],
])('mail %j: a clear message and exit status 2', async (args, message) => {
  const result = await cli(args);
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(message);
  expect(result.stdout).toBe('');
});
