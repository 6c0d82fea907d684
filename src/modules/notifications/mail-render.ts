import type { EntityManager } from '@mikro-orm/postgresql';
import addressparser from 'nodemailer/lib/addressparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import { StartupError } from '../../shared/startup-error';
import { isMailKind, isSellerNotice, type MailKind } from './mail-kinds';
import { receiptMail, refundNoticeMail, refundRequestedMail, sellerNoticeMail, type MailContent, type ReceiptFacts } from './mail-templates';
import { isTrackingTokenShape, trackingPath } from '../refunds/refund-tracking-token';
import { headerText, mailableAddress } from './mail-text';
import { refundReviewDueMail } from './admin-notices';

/** Who our mails come from: MAIL_FROM's address, its display name as the service's name. */
export interface MailIdentity {
  serviceName: string;
  address: string;
  /** BASE_URL: the links of seller notifications and of refund tracking pages. */
  baseUrl: string;
}

/** MAIL_FROM (`Payments <no-reply@pay.example>`, or a bare address) as our identity. */
export function mailIdentity(mailFrom: string, baseUrl: string): MailIdentity {
  const [parsed] = addressparser(mailFrom) as { name?: string; address?: string }[];
  const address = parsed?.address ?? '';
  // `no-reply@localhost` (the default without BASE_URL) is fine for a sender; nothing that could break a header is.
  if (!/^[^\s@<>()[\]\\,;:"\u0000-\u001f\u007f]+@[^\s@<>()[\]\\,;:"\u0000-\u001f\u007f]+$/.test(address)) throw new StartupError(`Invalid configuration: MAIL_FROM must be an address such as "Payments <no-reply@pay.example.com>" (got "${mailFrom}")`);
  return { serviceName: headerText(parsed?.name, 60) || 'Payments', address, baseUrl };
}

/** The outbox row, as the worker claimed it. */
export interface OutboxRow {
  id: string;
  kind: string;
  subject_id: string;
  recipient: string;
  seller_id: string | null;
  shop_id: string | null;
  payment_id: string | null;
  params: Record<string, unknown> | string | null;
  created_at: Date | string;
}

/** A mail as sent: its words and the whole message, headers included (kept on the row, resent byte for byte). */
export interface RenderedMail extends MailContent {
  messageId: string;
  raw: string;
}

/** A row that cannot become a mail (what it is about is gone, or its address cannot be used): given up. */
export class UnrenderableMail extends Error {}

interface PaymentFacts {
  id: string;
  amount: string | number;
  completed_at: Date | string | null;
  card_brand: string | null;
  card_last4: string | null;
  customer_name: string | null;
  shop_name: string;
  seller_email: string;
  support_email: string | null;
}

async function paymentFacts(em: EntityManager, paymentId: string | null): Promise<PaymentFacts> {
  const [row] = paymentId
    ? await em.execute<PaymentFacts[]>(
        `select p."id", p."amount", p."completed_at", p."card_brand", p."card_last4", p."customer_name",
                sh."name" as shop_name, se."email" as seller_email, m."support_email"
           from "payments" p join "shops" sh on sh."id" = p."shop_id" join "sellers" se on se."id" = sh."seller_id"
           left join "seller_mail_settings" m on m."seller_id" = se."id"
          where p."id" = ?`,
        [paymentId],
      )
    : [];
  if (!row || !row.completed_at) throw new UnrenderableMail(`payment ${paymentId} is not a completed payment`);
  return row;
}

function receiptFacts(identity: MailIdentity, payment: PaymentFacts): ReceiptFacts {
  const support = [payment.support_email, payment.seller_email].find((address) => mailableAddress(address)) ?? null;
  return {
    shopName: payment.shop_name,
    serviceName: identity.serviceName,
    paymentId: payment.id,
    amount: Number(payment.amount),
    completedAt: new Date(payment.completed_at!),
    cardBrand: payment.card_brand,
    cardLast4: payment.card_last4,
    customerName: payment.customer_name,
    supportEmail: support,
  };
}

/** The words of a row's mail, from what it names, read now (a payment, its refund) and the facts it was written with. */
async function contentOf(em: EntityManager, identity: MailIdentity, row: OutboxRow, kind: MailKind, params: Record<string, unknown>): Promise<{ content: MailContent; fromName: string; replyTo: string | null }> {
  if (kind === 'receipt' || kind === 'refund-notice' || kind === 'refund-requested') {
    const facts = receiptFacts(identity, await paymentFacts(em, row.payment_id));
    // Sent in the shop's name: "Corner Bakery via Payments"; answers go to the seller's support address.
    const fromName = `${headerText(facts.shopName, 80)} via ${identity.serviceName}`;
    if (kind === 'receipt') return { content: receiptMail(facts), fromName, replyTo: facts.supportEmail };
    const [refund] = await em.execute<{ id: string; amount: string | number; created_at: Date | string; refunded_at: Date | string | null }[]>(
      `select "id", "amount", "created_at", "refunded_at" from "refunds" where "id" = ? and "payment_id" = ?`,
      [row.subject_id, row.payment_id],
    );
    if (!refund) throw new UnrenderableMail(`no refund ${row.subject_id}`);
    const trackingUrl = trackingUrlOf(identity, params);
    const refundFacts = { ...facts, refundId: refund.id, refundAmount: Number(refund.amount) };
    if (kind === 'refund-requested') {
      if (!trackingUrl) throw new UnrenderableMail(`refund ${row.subject_id}: its request mail has no tracking link`);
      return { content: refundRequestedMail({ ...refundFacts, requestedAt: new Date(refund.created_at), trackingUrl }), fromName, replyTo: facts.supportEmail };
    }
    if (!refund.refunded_at) throw new UnrenderableMail(`refund ${row.subject_id} was not carried out`);
    return {
      content: refundNoticeMail({ ...refundFacts, refundedAt: new Date(refund.refunded_at), trackingUrl }),
      fromName,
      replyTo: facts.supportEmail,
    };
  }
  // Our own staff's mails (admin-notices.ts): from the service, about our work, no shop in the sender.
  if (kind === 'refund-review-due') {
    return { content: refundReviewDueMail(params, { serviceName: identity.serviceName, baseUrl: identity.baseUrl, at: new Date(row.created_at) }), fromName: identity.serviceName, replyTo: null };
  }
  if (!isSellerNotice(kind)) throw new UnrenderableMail(`no mail of kind ${kind}`);
  const [shop] = row.shop_id ? await em.execute<{ name: string }[]>(`select "name" from "shops" where "id" = ?`, [row.shop_id]) : [];
  const content = sellerNoticeMail(kind, { shopName: shop?.name ?? null, serviceName: identity.serviceName, baseUrl: identity.baseUrl, params, at: new Date(row.created_at) });
  return { content, fromName: identity.serviceName, replyTo: null };
}

/** The refund's tracking page, from the token the row was written with (a notice written before links had none). */
function trackingUrlOf(identity: MailIdentity, params: Record<string, unknown>): string | null {
  const token = params.trackingToken;
  return typeof token === 'string' && isTrackingTokenShape(token) ? `${identity.baseUrl}${trackingPath(token)}` : null;
}

/**
 * Renders a claimed row once: its words (templates), its headers (From in the shop's name for customers' mails,
 * Reply-To the seller's support address, a Message-ID made of the row's id, Date now) and the whole message as
 * bytes. Every header value is either an address that passed `mailableAddress` or text through `headerText`, and
 * nodemailer encodes it besides: nothing a shop or customer typed can start a header line.
 */
export async function renderMail(em: EntityManager, identity: MailIdentity, row: OutboxRow): Promise<RenderedMail> {
  if (!isMailKind(row.kind)) throw new UnrenderableMail(`no mail of kind ${row.kind}`);
  if (!mailableAddress(row.recipient)) throw new UnrenderableMail('the recipient address cannot be used in a mail');
  const params = typeof row.params === 'string' ? (JSON.parse(row.params) as Record<string, unknown>) : (row.params ?? {});
  const { content, fromName, replyTo } = await contentOf(em, identity, row, row.kind, params);
  const messageId = `<${row.id}@${identity.address.split('@')[1]}>`;
  const composer = new MailComposer({
    from: { name: headerText(fromName, 160), address: identity.address },
    to: row.recipient,
    ...(replyTo ? { replyTo } : {}),
    subject: content.subject,
    text: content.text,
    html: content.html,
    messageId,
    date: new Date(),
    headers: { 'Auto-Submitted': 'auto-generated' },
    // Only our own text: nothing is fetched, embedded or turned into an attachment.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const raw = (await composer.compile().build()).toString('utf8');
  return { ...content, messageId, raw };
}
