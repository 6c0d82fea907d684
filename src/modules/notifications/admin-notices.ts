import type { EntityManager } from '@mikro-orm/postgresql';
import { AdminRole } from '../admins';
import { activeAdminsOfRole } from './mail-facts-store';
import { queueRefundReviewDueMail } from './mail-store';
import { mail, type MailContent } from './mail-templates';
import { bodyText, dollars, utcDateTime } from './mail-text';

/**
 * Mails to our own staff, through the same outbox as every other mail (retried, visible to admins in `mails`,
 * unique per kind and subject). Today one: a refund request nearing the 24-hour review promise, to every finance
 * admin (the role that decides it), once per request and admin.
 */

/** What a refund-review reminder was written with (its outbox row's `params`). */
export interface RefundReviewFacts {
  refundId: string;
  paymentId: string;
  amount: number;
  shopName: string;
  requestedAt: string;
  deadline: string;
  requestedBy: string | null;
}

/**
 * The reminder for one refund request to every finance admin who is not revoked, in the caller's transaction.
 * The subject is the refund and the admin, so a request is told once to each, however many sweeps run.
 * The admin who recorded the request is told too: they cannot approve it, but they know who can.
 */
export async function queueRefundReviewReminders(tx: EntityManager, facts: RefundReviewFacts): Promise<number> {
  const params = {
    refundId: facts.refundId,
    paymentId: facts.paymentId,
    amount: facts.amount,
    shopName: facts.shopName,
    requestedAt: facts.requestedAt,
    deadline: facts.deadline,
    requestedBy: facts.requestedBy,
  } satisfies RefundReviewFacts;
  const admins = await activeAdminsOfRole(tx, AdminRole.FINANCE);
  let written = 0;
  for (const admin of admins) {
    if (await queueRefundReviewDueMail(tx, { subjectId: `${facts.refundId}:${admin.id}`, recipient: admin.email, paymentId: facts.paymentId, params })) written++;
  }
  return written;
}

/** The reminder's words: which request, how long it has waited, and where to decide it. */
export function refundReviewDueMail(params: Record<string, unknown>, context: { serviceName: string; baseUrl: string; at: Date }): MailContent {
  const text = (value: unknown) => (typeof value === 'string' ? bodyText(value) : '');
  const when = (value: unknown) => (typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? utcDateTime(new Date(value)) : '');
  const refundId = text(params.refundId);
  const amount = typeof params.amount === 'number' && Number.isSafeInteger(params.amount) ? dollars(params.amount) : '';
  return mail(`Refund request waiting for review: ${amount} from ${text(params.shopName)}`, {
    title: 'A refund request is waiting for review',
    heading: 'A refund request is waiting for review',
    paragraphs: [
      `This request was recorded 20 hours ago. We promise sellers a decision within 24 hours: approve or reject it before ${when(params.deadline)}.`,
      'Another finance admin than the one who recorded it must decide it (four eyes).',
    ],
    rows: [
      ['Amount', amount],
      ['Shop', text(params.shopName)],
      ['Recorded', when(params.requestedAt)],
      ['Recorded by', text(params.requestedBy) || 'the seller, from the dashboard'],
      ['Payment ID', text(params.paymentId)],
      ['Refund ID', refundId],
    ],
    link: { url: `${context.baseUrl}/admin?view=refund&id=${encodeURIComponent(refundId)}`, label: 'Open the request in the back office' },
    footer: [`You get this mail because you are a finance admin of ${context.serviceName}.`],
  });
}
