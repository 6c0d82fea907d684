import { randomBytes } from 'node:crypto';
import { attemptMail, type MailDeliveryDeps } from '../../src/modules/notifications/mail-delivery';
import { mailIdentity } from '../../src/modules/notifications/mail-render';
import { createSecretBox } from '../../src/modules/identity/secret-box';
import { queueCustomerMail, queueSellerNotice } from '../../src/modules/notifications/mail-store';
import { smtpSender } from '../../src/platform/mail/smtp-sender';
import { createMetrics } from '../../src/platform/observability/metrics';
import { createLogger } from '../../src/shared/logger';
import { useModuleDatabase } from '../support/module-database';
import { useSmtpSink } from '../support/smtp-sink';

/**
 * Customer mails to one mailbox are capped per day, across every shop (src/modules/notifications/mail-delivery.ts):
 * anyone can type a victim's address as `customer_email`, in as many spellings as the victim's provider delivers to
 * one mailbox. Mails past the cap are not sent: `suppressed`, with the reason, counted and logged without the address.
 * Here a real SMTP server counts what arrives, with every mail attempted at once.
 */
/** Six connections: every mail is attempted at once. */
const db = useModuleDatabase({ poolSize: 6 });
const smtp = useSmtpSink();

function deliveryDeps(customerMailsPerDay: number) {
  const logs: Record<string, unknown>[] = [];
  const metrics = createMetrics();
  const deps: MailDeliveryDeps = {
    orm: db.orm(),
    sender: smtpSender(smtp.url, 2000),
    identity: mailIdentity('Payments <no-reply@pay.example>', 'https://pay.example'),
    secrets: createSecretBox(undefined),
    leaseMs: 60_000,
    retryBaseDelayMs: 1000,
    giveUpAfterMs: 3_600_000,
    customerMailsPerDay,
    logger: createLogger('info', { write: (line: string) => void logs.push(JSON.parse(line)) } as never),
    metrics,
  };
  return { deps, logs, metrics };
}

/** A receipt of a new paid payment of one of `shops`, to `recipient`, queued; answers the mail's id. */
async function receipt(shop: Awaited<ReturnType<typeof db.newShop>>, recipient: string): Promise<string> {
  const paymentId = await db.completedPayment(shop, 2500);
  await db.em().transactional((tx) => queueCustomerMail(tx, { kind: 'receipt', subjectId: paymentId, recipient, shopId: shop.shop.id, sellerId: shop.seller.id, paymentId }));
  const [row] = await db.em().execute<{ id: string }[]>(`select "id" from "mail_outbox" where "kind" = 'receipt' and "subject_id" = ?`, [paymentId]);
  return row.id;
}

const statusOf = async (ids: string[]) =>
  db.em().execute<{ id: string; status: string; last_error: string | null }[]>(`select "id", "status", "last_error" from "mail_outbox" where "id" in (${ids.map(() => '?').join(', ')})`, ids);

test('nine receipts from two shops to one Gmail mailbox spelt nine ways, attempted at once: exactly the cap of three arrive', async () => {
  const name = `victim${randomBytes(4).toString('hex').replace(/\d/g, 'x')}`;
  const dotted = `${name.slice(0, 3)}.${name.slice(3, 6)}.${name.slice(6)}`;
  const spellings = [`${name}@gmail.com`, `${name.toUpperCase()}@GMAIL.COM`, `${name}+1@gmail.com`, `${dotted}@gmail.com`, `${dotted}+x@googlemail.com`, ` ${name}@gmail.com`.trim(), `${name}+shop@gmail.com`, `${dotted.toUpperCase()}@gmail.com`, `${name}+@gmail.com`];
  const shops = [await db.newShop('cap-a'), await db.newShop('cap-b')];
  const ids: string[] = [];
  for (const [i, spelling] of spellings.entries()) ids.push(await receipt(shops[i % 2], spelling));
  const bystander = await receipt(shops[0], `bystander-${name}@example.com`);
  const { deps, logs, metrics } = deliveryDeps(3);

  const results = await Promise.all([...ids, bystander].map((id) => attemptMail(deps, id, 0)));
  expect(results.filter((r) => r === 'sent')).toHaveLength(4);
  expect(results.filter((r) => r === 'suppressed')).toHaveLength(6);
  const arrived = smtp.received.filter((m) => m.envelopeTo.some((to) => spellings.map((s) => s.toLowerCase()).includes(to.toLowerCase())));
  expect(arrived).toHaveLength(3);
  expect(smtp.to(`bystander-${name}@example.com`)).toHaveLength(1);

  const rows = await statusOf(ids);
  expect(rows.filter((r) => r.status === 'sent')).toHaveLength(3);
  const suppressed = rows.filter((r) => r.status === 'suppressed');
  expect(suppressed).toHaveLength(6);
  for (const row of suppressed) expect(row.last_error).toBe('Not sent: this mailbox had 3 customer mails in the last 24 hours (MAIL_CUSTOMER_MAILS_PER_DAY)');
  // Counted and logged, never with the address.
  expect((await metrics.registry.getSingleMetricAsString('mails_total'))).toMatch(/mails_total\{kind="receipt",outcome="suppressed"\} 6/);
  const lines = logs.filter((l) => l.msg === 'customer mail not sent: its mailbox reached MAIL_CUSTOMER_MAILS_PER_DAY');
  expect(lines.map((l) => (l.mail as { id: string }).id).sort()).toEqual(suppressed.map((r) => r.id).sort());
  expect(JSON.stringify(logs).toLowerCase()).not.toContain(name.slice(0, 12));
  // A suppressed mail stays so: no worker sends it later.
  expect(await attemptMail(deps, suppressed[0].id, 1)).toBe('skipped');
  expect(arrived).toHaveLength(3);
});

test('a mail admitted once is not counted again when its delivery is retried, and the cap counts customer mails only', async () => {
  const shop = await db.newShop('cap-seller');
  const address = `cap-seller-${randomBytes(4).toString('hex')}@example.com`;
  const { deps } = deliveryDeps(1);
  // Admitted, then deferred by the server: it keeps its place under the cap.
  const first = await receipt(shop, address);
  smtp.behaviour = 'defer';
  try {
    expect(await attemptMail(deps, first, 0)).toBe('pending');
  } finally {
    smtp.behaviour = 'accept';
  }
  expect(await attemptMail(deps, await receipt(shop, address), 0)).toBe('suppressed');
  await db.em().execute(`update "mail_outbox" set "next_attempt_at" = now() where "id" = ?`, [first]);
  expect(await attemptMail(deps, first, 1)).toBe('sent');
  // A seller's notice to the same address is no customer mail: not capped.
  await db.em().execute(`update "sellers" set "email" = ? where "id" = ?`, [address, shop.seller.id]);
  await db.em().transactional((tx) => queueSellerNotice(tx, { kind: 'webhook-secret-rotated', subjectId: `chg_${randomBytes(6).toString('hex')}`, shopId: shop.shop.id }));
  const [notice] = await db.em().execute<{ id: string }[]>(`select "id" from "mail_outbox" where "kind" = 'webhook-secret-rotated' and "shop_id" = ?`, [shop.shop.id]);
  expect(await attemptMail(deps, notice.id, 0)).toBe('sent');
  expect(smtp.to(address)).toHaveLength(2);
});
