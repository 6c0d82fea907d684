import { AdminRole } from '../../../src/modules/admins/admin-role';
import { revokeAdmin } from '../../../src/modules/admins/admin.service';
import { mailIdentity, renderMail, type OutboxRow } from '../../../src/modules/notifications/mail-render';
import { remindStaleRefundReviews } from '../../../src/modules/refunds/refund-review-reminders';
import { adminClient, completedPayment, type AdminClient } from '../../support/admin-client';
import { useTestService } from '../../support/test-service';

/**
 * A refund request still waiting 20 hours after it was recorded is mailed to every finance admin, once, before the
 * 24-hour review promise (docs/admin.md, "Refund requests"): through the mail outbox, by the refund sweep.
 */
const service = useTestService();
let support: AdminClient;
let financeA: AdminClient;
let financeB: AdminClient;

beforeAll(async () => {
  support = await adminClient(service, AdminRole.SUPPORT);
  financeA = await adminClient(service, AdminRole.FINANCE);
  financeB = await adminClient(service, AdminRole.FINANCE);
});

const REFUND = `mutation ($p: ID!, $amount: SafeInt) { requestRefund(paymentId: $p, reason: "Parcel lost", amount: $amount) { id } }`;

async function requestAgedHours(hours: number, amount = 1200): Promise<string> {
  const { paymentId } = await completedPayment(service, 5000);
  const id = (await support.ok(REFUND, { p: paymentId, amount })).requestRefund.id as string;
  await service.em().execute(`update "refunds" set "created_at" = now() - ? * interval '1 minute' where "id" = ?`, [Math.round(hours * 60), id]);
  return id;
}

const remindersOf = (refundId: string) =>
  service.em().execute<OutboxRow[]>(`select * from "mail_outbox" where "kind" = 'refund-review-due' and "subject_id" like ? order by "recipient"`, [`${refundId}:%`]);

test('after 20 hours, every finance admin is mailed once; a younger or decided request is not', async () => {
  const stale = await requestAgedHours(20.1);
  const young = await requestAgedHours(19.5);
  const decided = await requestAgedHours(22);
  await financeA.ok(`mutation ($id: ID!) { rejectRefund(id: $id, reason: "Not eligible") { id } }`, { id: decided });

  // The service's own sweep (REFUND_SWEEP_INTERVAL_MS) does it; here it is run at once.
  await service.services.refunds.sweep();
  const mails = await remindersOf(stale);
  const recipients = mails.map((m) => m.recipient);
  expect(recipients).toEqual(expect.arrayContaining([financeA.admin.email, financeB.admin.email]));
  expect(recipients).not.toContain(support.admin.email);
  expect(mails.every((m) => m.seller_id === null && m.shop_id === null)).toBe(true);
  expect(await remindersOf(young)).toEqual([]);
  expect(await remindersOf(decided)).toEqual([]);

  // Once per request: more sweeps, from any instance, write nothing more.
  await Promise.all([service.services.refunds.sweep(), remindStaleRefundReviews(service.em()), remindStaleRefundReviews(service.em())]);
  expect((await remindersOf(stale)).length).toBe(mails.length);
  const [{ review_reminded_at: marked }] = await service.em().execute(`select "review_reminded_at" from "refunds" where "id" = ?`, [stale]);
  expect(marked).not.toBeNull();
});

test('a finance admin who was revoked is not mailed; the mail says what, for how much, until when, and links to the request', async () => {
  const revoked = await adminClient(service, AdminRole.FINANCE);
  await revokeAdmin(service.em(), revoked.admin.email);
  const refundId = await requestAgedHours(21, 1999);
  await remindStaleRefundReviews(service.em());
  const mails = await remindersOf(refundId);
  expect(mails.map((m) => m.recipient)).not.toContain(revoked.admin.email);
  const mine = mails.find((m) => m.recipient === financeB.admin.email)!;
  const rendered = await renderMail(service.em(), mailIdentity('Payments <no-reply@pay.example.test>', 'https://pay.example.test'), mine);
  expect(rendered.subject).toBe('Refund request waiting for review: $19.99 from Test Shop');
  expect(rendered.text).toContain('approve or reject it before');
  expect(rendered.text).toContain(`Recorded by: ${support.admin.email}`);
  expect(rendered.text).toContain(`https://pay.example.test/admin?view=refund&id=${refundId}`);
  expect(rendered.html).toContain('A refund request is waiting for review');
});
