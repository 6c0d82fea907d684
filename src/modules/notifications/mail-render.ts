import type { EntityManager } from '@mikro-orm/postgresql';
import addressparser from 'nodemailer/lib/addressparser';
import type MailComposer from 'nodemailer/lib/mail-composer';
import { DEFAULT_LANGUAGE, isLanguage } from '../../shared/customer-language/languages';
import { translator } from '../../shared/customer-language/messages';
import { StartupError } from '../../shared/startup-error';
import { isMailKind, isSellerNotice, type MailKind } from './mail-kinds';
import { receiptMail, refundNoticeMail, refundRequestedMail, sellerNoticeMail, type MailContent, type ReceiptFacts } from './mail-templates';
import { isTrackingTokenShape, trackingPath } from './refund-link';
import { headerText, mailableAddress, shopDisplayName } from './mail-text';
import { refundReviewDueMail } from './admin-notices';
import { mailPaymentFacts, mailRefundFacts, shopNameOf, type MailPaymentFacts } from './mail-facts-store';
import { outboxMailOf, type OutboxMail, type OutboxRow } from './mail-store';

export type { OutboxRow } from './mail-store';

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

/** A mail as sent: its words and the whole message, headers included (kept on the row, resent byte for byte). */
export interface RenderedMail extends Omit<MailContent, 'language'> {
  messageId: string;
  raw: string;
}

/** A row that cannot become a mail (what it is about is gone, or its address cannot be used): given up. */
export class UnrenderableMail extends Error {}

/** The payment a customer's mail tells of; a mail about a payment that is gone or not completed cannot be written. */
async function paymentFacts(em: EntityManager, paymentId: string | null): Promise<MailPaymentFacts> {
  const payment = paymentId ? await mailPaymentFacts(em, paymentId) : null;
  if (!payment || !payment.completedAt) throw new UnrenderableMail(`payment ${paymentId} is not a completed payment`);
  return payment;
}

function receiptFacts(identity: MailIdentity, payment: MailPaymentFacts): ReceiptFacts {
  const support = [payment.supportEmail, payment.sellerEmail].find((address) => mailableAddress(address)) ?? null;
  return {
    shopName: payment.shopName,
    serviceName: identity.serviceName,
    paymentId: payment.id,
    amount: payment.amount,
    completedAt: payment.completedAt!,
    cardBrand: payment.cardBrand,
    cardLast4: payment.cardLast4,
    customerName: payment.customerName,
    supportEmail: support,
    language: isLanguage(payment.language) ? payment.language : DEFAULT_LANGUAGE,
  };
}

/** The words of a row's mail, from what it names, read now (a payment, its refund) and the facts it was written with. */
async function contentOf(em: EntityManager, identity: MailIdentity, row: OutboxMail, kind: MailKind, params: Record<string, unknown>): Promise<{ content: MailContent; fromName: string; replyTo: string | null }> {
  if (kind === 'receipt' || kind === 'refund-notice' || kind === 'refund-requested') {
    const facts = receiptFacts(identity, await paymentFacts(em, row.paymentId));
    // Sent in the shop's name, in the customer's language: "Corner Bakery via Payments"; answers go to the seller's support address.
    const fromName = translator(facts.language).t('mail.fromName', { shop: shopDisplayName(facts.shopName), service: identity.serviceName });
    if (kind === 'receipt') return { content: receiptMail(facts), fromName, replyTo: facts.supportEmail };
    const refund = await mailRefundFacts(em, row.subjectId, row.paymentId);
    if (!refund) throw new UnrenderableMail(`no refund ${row.subjectId}`);
    const trackingUrl = trackingUrlOf(identity, params);
    const refundFacts = { ...facts, refundId: refund.id, refundAmount: refund.amount };
    if (kind === 'refund-requested') {
      if (!trackingUrl) throw new UnrenderableMail(`refund ${row.subjectId}: its request mail has no tracking link`);
      return { content: refundRequestedMail({ ...refundFacts, requestedAt: refund.createdAt, trackingUrl }), fromName, replyTo: facts.supportEmail };
    }
    if (!refund.refundedAt) throw new UnrenderableMail(`refund ${row.subjectId} was not carried out`);
    return {
      content: refundNoticeMail({ ...refundFacts, refundedAt: refund.refundedAt, trackingUrl }),
      fromName,
      replyTo: facts.supportEmail,
    };
  }
  // Our own staff's mails (admin-notices.ts): from the service, about our work, no shop in the sender.
  if (kind === 'refund-review-due') {
    return { content: refundReviewDueMail(params, { serviceName: identity.serviceName, baseUrl: identity.baseUrl, at: row.createdAt }), fromName: identity.serviceName, replyTo: null };
  }
  if (!isSellerNotice(kind)) throw new UnrenderableMail(`no mail of kind ${kind}`);
  const shopName = row.shopId ? await shopNameOf(em, row.shopId) : null;
  const content = sellerNoticeMail(kind, { shopName, serviceName: identity.serviceName, baseUrl: identity.baseUrl, params, at: row.createdAt });
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
export async function renderOutboxMail(em: EntityManager, identity: MailIdentity, row: OutboxMail): Promise<RenderedMail> {
  if (!isMailKind(row.kind)) throw new UnrenderableMail(`no mail of kind ${row.kind}`);
  if (!mailableAddress(row.recipient)) throw new UnrenderableMail('the recipient address cannot be used in a mail');
  const { content, fromName, replyTo } = await contentOf(em, identity, row, row.kind, row.params);
  const customerMail = row.kind === 'receipt' || row.kind === 'refund-notice' || row.kind === 'refund-requested';
  // A customer's mail says its language (the payment's); ours to sellers and staff are English and say nothing.
  return composeMessage(identity, row, { ...content, fromName, replyTo, language: customerMail ? content.language : null });
}

/**
 * The whole message of a mail, as bytes: From (our address, `fromName` as its display name), To, Reply-To when
 * given, a Message-ID made of the mail's id, Date now. The recipient passed `mailableAddress`; the names go
 * through `headerText`.
 */
export async function composeMessage(
  identity: MailIdentity,
  mail: { id: string; recipient: string },
  words: { subject: string; text: string; html: string; fromName: string; replyTo: string | null; language: string | null },
): Promise<RenderedMail> {
  const messageId = `<${mail.id}@${identity.address.split('@')[1]}>`;
  // Loaded at the first mail composed, not with every start and CLI call.
  const Composer = require('nodemailer/lib/mail-composer') as typeof MailComposer;
  const composer = new Composer({
    from: { name: headerText(words.fromName, 160), address: identity.address },
    to: mail.recipient,
    ...(words.replyTo ? { replyTo: words.replyTo } : {}),
    subject: words.subject,
    text: words.text,
    html: words.html,
    messageId,
    date: new Date(),
    headers: { 'Auto-Submitted': 'auto-generated', ...(words.language ? { 'Content-Language': words.language } : {}) },
    // Only our own text: nothing is fetched, embedded or turned into an attachment.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const raw = (await composer.compile().build()).toString('utf8');
  return { subject: words.subject, text: words.text, html: words.html, messageId, raw };
}

/** The same from an outbox row as selected (`select *`), for a caller holding the row itself. */
export function renderMail(em: EntityManager, identity: MailIdentity, row: OutboxRow): Promise<RenderedMail> {
  return renderOutboxMail(em, identity, outboxMailOf(row));
}
