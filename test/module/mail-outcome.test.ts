import { Client } from 'pg';
import { attemptMail, type MailDeliveryDeps } from '../../src/modules/notifications/mail-delivery';
import { mailIdentity } from '../../src/modules/notifications/mail-render';
import { createSecretBox } from '../../src/modules/identity/secret-box';
import { queueCustomerMail } from '../../src/modules/notifications/mail-store';
import { smtpSender } from '../../src/platform/mail/smtp-sender';
import { createLogger } from '../../src/shared/logger';
import { useModuleDatabase } from '../support/module-database';
import { useSmtpSink } from '../support/smtp-sink';
import { testRun } from '../support/test-env';

/**
 * Once the SMTP server has taken a mail, its outcome must be recorded: left unrecorded, the claim's lease runs out
 * and another worker sends the mail again, a second receipt for one payment. Here PostgreSQL fails the first try
 * for real (the row is held locked past a 300 ms statement timeout, just as the server answers) and a real SMTP
 * server takes the mail.
 */
const db = useModuleDatabase();
/** The mail worker's connections: PostgreSQL cancels their statements after 300 ms. */
const worker = useModuleDatabase({ statementTimeoutMs: 300 });
const smtp = useSmtpSink();
afterEach(() => {
  smtp.beforeAnswer = null;
});

async function queuedReceipt(recipient: string): Promise<string> {
  const shop = await db.newShop('mail-outcome');
  const paymentId = await db.completedPayment(shop, 2500);
  await db.em().transactional((tx) => queueCustomerMail(tx, { kind: 'receipt', subjectId: paymentId, recipient, shopId: shop.shop.id, sellerId: shop.seller.id, paymentId }));
  const [row] = await db.em().execute<{ id: string }[]>('select "id" from "mail_outbox" where "recipient" = ?', [recipient]);
  return row.id;
}

/** Holds the mail's row locked from a connection of its own for `ms`; resolves once the lock is held. */
async function holdRow(mailId: string, ms: number): Promise<void> {
  const holder = new Client({ connectionString: testRun().databaseUrl });
  holder.on('error', () => undefined); // the run's teardown may end it first when a failing test stops early
  await holder.connect();
  await holder.query('begin');
  await holder.query('select 1 from "mail_outbox" where "id" = $1 for update', [mailId]);
  setTimeout(() => void holder.query('rollback').finally(() => holder.end()), ms);
}

test('the database failing as the server takes the mail: the outcome is recorded at a later try, and the mail is sent once', async () => {
  const recipient = `once-${Date.now()}@example.com`;
  const mailId = await queuedReceipt(recipient);
  const logs: Record<string, unknown>[] = [];
  const deps: MailDeliveryDeps = {
    orm: worker.orm(),
    sender: smtpSender(smtp.url, 2000),
    identity: mailIdentity('Payments <no-reply@pay.example>', 'https://pay.example'),
    secrets: createSecretBox(undefined),
    leaseMs: 60_000,
    retryBaseDelayMs: 1000,
    giveUpAfterMs: 3_600_000,
    customerMailsPerDay: 20,
    logger: createLogger('warn', { write: (line: string) => void logs.push(JSON.parse(line)) } as never),
  };
  smtp.beforeAnswer = () => holdRow(mailId, 700);

  expect(await attemptMail(deps, mailId, 0)).toBe('sent');
  expect(smtp.to(recipient)).toHaveLength(1);
  const [row] = await db.em().execute<{ status: string; attempt_count: number; claim_token: string | null }[]>(
    'select "status", "attempt_count", "claim_token" from "mail_outbox" where "id" = ?',
    [mailId],
  );
  expect(row).toEqual({ status: 'sent', attempt_count: 1, claim_token: null });
  expect(logs.map((line) => line.msg)).toContain('mail outcome not recorded yet: the database failed, trying again');
  // A second worker finds nothing to send.
  expect(await attemptMail(deps, mailId, 0)).toBe('skipped');
  expect(await attemptMail(deps, mailId, 1)).toBe('skipped');
  expect(smtp.to(recipient)).toHaveLength(1);
});
