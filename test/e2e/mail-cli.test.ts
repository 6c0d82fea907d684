import { eventually } from '../support/admin-client';
import { checkoutClient } from '../support/checkout-client';
import { runNode } from '../support/processes';
import { signUpSeller } from '../support/dashboard-client';
import { sellerClient, VALID_PAYMENT } from '../support/seller-client';
import { useTestService } from '../support/test-service';

/**
 * Local use without SMTP_URL (docs/operations.md, "Mail"): every mail (account mails, receipts, notifications) is kept
 * in the database, the log says in one readable line where to read each (never its body), and the built CLI prints
 * them: `mail list`, `mail show <id>`, `mail raw <id>`; an account mail's words are sealed with ACCOUNT_SECRETS_KEY.
 * Needs `npm run build`.
 */
// Each test starts the CLI several times, a process of its own each time: seconds apiece on a busy machine.
jest.setTimeout(120_000);

const KEY = '3d'.repeat(32);
const service = useTestService({ MAIL_POLL_INTERVAL_MS: '100', SMTP_URL: '', ACCOUNT_SECRETS_KEY: KEY });

const cli = (args: string[], env: Record<string, string> = { ACCOUNT_SECRETS_KEY: KEY }) =>
  runNode('cli.js', ['mail', ...args], { DATABASE_URL: service.database.orm.config.getClientUrl(), LOG_LEVEL: 'warn', ...env });

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
  expect(service.logs.filter((l) => String(l.msg).startsWith('Mails (account mails, receipts, notifications) are kept in the database'))).toHaveLength(1);
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

test('an account mail is kept too: listed, and shown with its link to whoever holds ACCOUNT_SECRETS_KEY', async () => {
  const seller = await signUpSeller(service.url);
  const [row] = (await eventually(async () => {
    const rows = await service.em().execute<{ id: string; sealed_body: string }[]>(`select "id", "sealed_body" from "mail_outbox" where "recipient" = ? and "status" = 'kept'`, [seller.email]);
    return rows.length ? rows : null;
  }, 10_000, 'the verification mail to be kept'))!;
  expect(row.sealed_body).toMatch(/^aes2:/);
  expect(service.logs.filter((l) => JSON.stringify(l).includes(row.id)).map((l) => l.msg)).toEqual([`mail kept, not sent (SMTP_URL unset): read it with npm run -s cli -- mail show ${row.id}`]);

  const line = (await cli(['list'])).stdout.split('\n').find((l) => l.startsWith(row.id))!;
  expect(line).toMatch(/kept +\S+ \S+ +email-verification +/);
  expect(line).toContain(`${seller.email}  Verify your email address`);

  const shown = await cli(['show', row.id]);
  expect(shown.code).toBe(0);
  expect(shown.stdout).toContain('Subject: Verify your email address');
  expect(shown.stdout).toMatch(/Verify your email address: https:\/\/pay\.example\.test\/dashboard\/verify-email\?token=[A-Za-z0-9_-]{43}\n/);
  const raw = await cli(['raw', row.id]);
  expect(raw.stdout).toMatch(/^From: "?Payments"? <no-reply@pay\.example\.test>/m);

  // Without the key the words stay sealed: the CLI says so, and prints no part of them.
  const sealed = await cli(['show', row.id], {});
  expect(sealed.code).toBe(0);
  expect(sealed.stdout).toContain('sealed words do not open here');
  expect(sealed.stdout).not.toMatch(/token=|Welcome/);
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
