import { directionOf, type PageLanguage } from '../../shared/customer-language/languages';
import { translator, type Translator } from '../../shared/customer-language/messages';
import type { SellerNoticeKind } from './mail-kinds';
import { bodyText, brandName, dollars, escapeHtml, headerText, receiptNumber, utcDateTime } from './mail-text';

/** A mail's words: its subject, its plain text and its HTML twin (inline styles only, no image, no script), and their language. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
  language: PageLanguage;
}

/** How long a refund takes to reach the card, as the card schemes and issuers tell cardholders (docs/integrate.md). */
export const REFUND_ARRIVES_WITHIN_BUSINESS_DAYS = { min: 5, max: 10 };
/** How soon our payments team reviews a refund request (refund.service.ts promises it). */
export const REFUND_REVIEWED_WITHIN_HOURS = 24;

type Row = [label: string, value: string];
interface Link {
  url: string;
  label: string;
}

export interface Page {
  /** The document's title (what a screen reader announces first). */
  title: string;
  /** A small line above the heading ("Receipt from"). */
  eyebrow?: string;
  heading: string;
  /** The one figure that matters, large ("Amount paid", "$12.34"). */
  figure?: Row;
  paragraphs?: string[];
  rows: Row[];
  /** Said after the rows. */
  after?: string[];
  /** An address to write to, shown as a mailto link in HTML. */
  contact?: { before: string; address: string; after: string };
  link?: Link;
  footer: string[];
}

const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const INK = '#1f2328';
const MUTED = '#57606a';
const LINK = '#0550ae';
/** Long ids and addresses wrap anywhere rather than push the page wider than a 320 px screen. */
const WRAP = 'overflow-wrap:anywhere;word-break:break-word;';

function html(page: Page, language: PageLanguage): string {
  const e = escapeHtml;
  const p = (text: string, style = '') => `<p style="margin:0 0 16px;${style}">${e(text)}</p>`;
  const rows = page.rows
    .map(
      ([label, value]) =>
        `<div style="padding:10px 0;border-top:1px solid #d8dee4;"><dt style="margin:0;font-size:14px;color:${MUTED};">${e(label)}</dt>` +
        `<dd style="margin:2px 0 0;font-size:16px;color:${INK};${WRAP}">${e(value)}</dd></div>`,
    )
    .join('');
  const contact = page.contact
    ? `<p style="margin:0 0 16px;">${e(page.contact.before)}<a href="mailto:${e(page.contact.address)}" style="color:${LINK};${WRAP}">${e(page.contact.address)}</a>${e(page.contact.after)}</p>`
    : '';
  const link = page.link ? `<p style="margin:0 0 16px;"><a href="${e(page.link.url)}" style="color:${LINK};${WRAP}">${e(page.link.label)}</a></p>` : '';
  return [
    '<!doctype html>',
    `<html lang="${language}" dir="${directionOf(language)}">`,
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${e(page.title)}</title></head>`,
    `<body style="margin:0;padding:0;background-color:#f6f8fa;">`,
    `<div role="main" dir="${directionOf(language)}" style="max-width:560px;margin:0 auto;padding:16px 12px;font-family:${FONT};font-size:16px;line-height:1.5;color:${INK};">`,
    `<div style="background-color:#ffffff;border:1px solid #d0d7de;border-radius:8px;padding:20px 16px;">`,
    page.eyebrow ? `<p style="margin:0 0 4px;font-size:14px;color:${MUTED};">${e(page.eyebrow)}</p>` : '',
    `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;${WRAP}">${e(page.heading)}</h1>`,
    page.figure
      ? `<p style="margin:0;font-size:14px;color:${MUTED};">${e(page.figure[0])}</p><p style="margin:0 0 16px;font-size:30px;font-weight:700;line-height:1.2;">${e(page.figure[1])}</p>`
      : '',
    ...(page.paragraphs ?? []).map((text) => p(text)),
    `<dl style="margin:0 0 16px;padding:0;">${rows}</dl>`,
    ...(page.after ?? []).map((text) => p(text)),
    contact,
    link,
    '</div>',
    ...page.footer.map((text) => `<p style="margin:12px 4px 0;font-size:14px;color:${MUTED};">${e(text)}</p>`),
    '</div>',
    '</body>',
    '</html>',
  ]
    .filter(Boolean)
    .join('\n');
}

/** The plain text part: paragraphs apart, the rows as one block of "Label: value" lines. */
function text(page: Page): string {
  const paragraphs = [
    page.eyebrow ? `${page.eyebrow} ${page.heading}` : page.heading,
    ...(page.figure ? [`${page.figure[0]}: ${page.figure[1]}`] : []),
    ...(page.paragraphs ?? []),
    page.rows.map(([label, value]) => `${label}: ${value}`).join('\n'),
    ...(page.after ?? []),
    ...(page.contact ? [`${page.contact.before}${page.contact.address}${page.contact.after}`] : []),
    ...(page.link ? [`${page.link.label}: ${page.link.url}`] : []),
    ...page.footer,
  ];
  return `${paragraphs.filter((p) => p !== '').join('\n\n')}\n`;
}

/** Our seller and staff mails are in English; a customer's in the payment's language. */
export function mail(subject: string, page: Page, language: PageLanguage = 'en'): MailContent {
  return { subject: headerText(subject, 200), text: text(page), html: html(page, language), language };
}

/** What a receipt tells the customer, all of it read from the payment, its shop and the seller's settings. */
export interface ReceiptFacts {
  shopName: string;
  serviceName: string;
  paymentId: string;
  amount: number;
  completedAt: Date;
  cardBrand: string | null;
  cardLast4: string | null;
  customerName: string | null;
  supportEmail: string | null;
  /** The payment's language: customers' mails are in it, whenever and by whomever they are sent. */
  language: PageLanguage;
}

/** "Visa ending in 4242" in the mail's language; never more of a card than its last four digits. */
function cardOf(tr: Translator, brand: string | null, last4: string | null): string {
  const name = brandName(brand) ?? tr.t('common.card');
  return last4 && /^\d{4}$/.test(last4) ? tr.t('common.cardEnding', { brand: name, last4 }) : name;
}

/** The sentence giving the shop's address, cut around the address so the HTML part can link it. */
function contactOf(tr: Translator, shop: string, supportEmail: string | null): Page['contact'] {
  if (!supportEmail) return undefined;
  const [before, after = ''] = tr.t('mail.contact', { shop, address: ADDRESS_MARK }).split(ADDRESS_MARK);
  return { before, address: supportEmail, after };
}
const ADDRESS_MARK = '\u0000address\u0000';

const inUsd = (tr: Translator, cents: number) => tr.t('mail.inUsd', { amount: tr.money(cents) });

export function receiptMail(facts: ReceiptFacts): MailContent {
  const tr = translator(facts.language);
  const { t } = tr;
  const shop = bodyText(facts.shopName);
  const rows: Row[] = [
    [t('mail.date'), tr.dateTime(facts.completedAt)],
    [t('mail.paidWith'), cardOf(tr, facts.cardBrand, facts.cardLast4)],
    ...(facts.customerName ? [[t('mail.billedTo'), bodyText(facts.customerName)] as Row] : []),
    [t('mail.receiptNumber'), receiptNumber(facts.paymentId, facts.completedAt)],
    [t('mail.paymentId'), facts.paymentId],
  ];
  return mail(t('mail.receiptSubject', { shop }), {
    title: t('mail.receiptTitle', { shop }),
    eyebrow: t('mail.receiptFrom'),
    heading: shop,
    figure: [t('mail.amountPaid'), inUsd(tr, facts.amount)],
    rows,
    contact: contactOf(tr, shop, facts.supportEmail),
    footer: [t('mail.receiptFooter', { shop, service: facts.serviceName })],
  }, facts.language);
}

export interface RefundNoticeFacts extends ReceiptFacts {
  refundId: string;
  refundAmount: number;
  refundedAt: Date;
  /** The refund's tracking page (absolute), when it has one. */
  trackingUrl?: string | null;
}

/** The link to a refund's tracking page, as both refund mails show it. */
const trackingLink = (tr: Translator, url: string | null | undefined): Link | undefined => (url ? { url, label: tr.t('mail.followRefund') } : undefined);

export interface RefundRequestedFacts extends ReceiptFacts {
  refundId: string;
  refundAmount: number;
  requestedAt: Date;
  trackingUrl: string;
}

/** The shop asked for a refund: what it is for, what happens next, and the link to follow it. */
export function refundRequestedMail(facts: RefundRequestedFacts): MailContent {
  const tr = translator(facts.language);
  const { t } = tr;
  const shop = bodyText(facts.shopName);
  const whole = facts.refundAmount >= facts.amount ? 'yes' : 'no';
  return mail(t('mail.requestedSubject', { shop }), {
    title: t('mail.refundTitle', { shop }),
    eyebrow: t('mail.refundFrom'),
    heading: shop,
    figure: [t('mail.amountToRefund'), inUsd(tr, facts.refundAmount)],
    paragraphs: [
      t('mail.requestedWhat', { shop, whole, amount: tr.money(facts.amount), date: tr.date(facts.completedAt) }),
      t('mail.requestedNext', { hours: REFUND_REVIEWED_WITHIN_HOURS, card: cardOf(tr, facts.cardBrand, facts.cardLast4) }),
    ],
    rows: [
      [t('mail.requested'), tr.dateTime(facts.requestedAt)],
      [t('mail.originalPayment'), t('mail.amountOn', { amount: tr.money(facts.amount), dateTime: tr.dateTime(facts.completedAt) })],
      [t('mail.receiptNumber'), receiptNumber(facts.paymentId, facts.completedAt)],
      [t('mail.refundId'), facts.refundId],
    ],
    contact: contactOf(tr, shop, facts.supportEmail),
    link: trackingLink(tr, facts.trackingUrl),
    footer: [t('mail.refundFooter', { shop, service: facts.serviceName })],
  }, facts.language);
}

export function refundNoticeMail(facts: RefundNoticeFacts): MailContent {
  const tr = translator(facts.language);
  const { t } = tr;
  const shop = bodyText(facts.shopName);
  const card = cardOf(tr, facts.cardBrand, facts.cardLast4);
  const whole = facts.refundAmount >= facts.amount ? 'yes' : 'no';
  return mail(t('mail.noticeSubject', { shop }), {
    title: t('mail.refundTitle', { shop }),
    eyebrow: t('mail.refundFrom'),
    heading: shop,
    figure: [t('mail.amountRefunded'), inUsd(tr, facts.refundAmount)],
    paragraphs: [
      t('mail.noticeWhat', { shop, whole, amount: tr.money(facts.amount), date: tr.date(facts.completedAt) }),
      t('mail.noticeNext', { card, ...REFUND_ARRIVES_WITHIN_BUSINESS_DAYS }),
    ],
    rows: [
      [t('mail.refundedTo'), card],
      [t('mail.refundDate'), tr.dateTime(facts.refundedAt)],
      [t('mail.originalPayment'), t('mail.amountOn', { amount: tr.money(facts.amount), dateTime: tr.dateTime(facts.completedAt) })],
      [t('mail.receiptNumber'), receiptNumber(facts.paymentId, facts.completedAt)],
      [t('mail.paymentId'), facts.paymentId],
      [t('mail.refundId'), facts.refundId],
    ],
    contact: contactOf(tr, shop, facts.supportEmail),
    link: trackingLink(tr, facts.trackingUrl),
    footer: [t('mail.refundFooter', { shop, service: facts.serviceName })],
  }, facts.language);
}

/** What a seller notification was written with (`params` of its outbox row), and where it links. */
export interface NoticeContext {
  shopName: string | null;
  serviceName: string;
  baseUrl: string;
  params: Record<string, unknown>;
  at: Date;
}

const str = (value: unknown) => (typeof value === 'string' ? bodyText(value) : '');
const cents = (value: unknown) => (typeof value === 'number' && Number.isSafeInteger(value) ? dollars(value) : '');

const DISPUTE_OUTCOMES: Record<string, { subject: string; says: string }> = {
  won: { subject: 'A dispute was decided in your favour', says: 'The dispute was decided in your favour: the disputed amount is back in your balance.' },
  lost: { subject: 'A dispute was lost', says: 'The dispute was decided for the cardholder: the disputed amount stays taken from your balance.' },
  closed: { subject: 'A dispute was closed', says: 'The card issuer closed the dispute without a chargeback: nothing was taken from your balance.' },
};

/** The seller notifications: sent by the service itself (MAIL_FROM), about the seller's own shop. */
export function sellerNoticeMail(kind: SellerNoticeKind, context: NoticeContext): MailContent {
  const { params, baseUrl } = context;
  const shop = context.shopName ? bodyText(context.shopName) : 'your shop';
  const paymentId = str(params.paymentId);
  const paymentLink: Link | undefined = paymentId ? { url: `${baseUrl}/dashboard/payments/${encodeURIComponent(paymentId)}`, label: 'See the payment in your dashboard' } : undefined;
  const footer = [`You get this mail because you sell with ${context.serviceName}. Switch these notifications off on the Account screen of your dashboard.`];
  const notice = (subject: string, heading: string, paragraphs: string[], rows: Row[], link?: Link) =>
    mail(subject, { title: heading, heading, paragraphs, rows: [...rows, ['When', utcDateTime(context.at)]], link, footer });
  const paymentRows: Row[] = paymentId ? [['Payment ID', paymentId]] : [];
  switch (kind) {
    case 'dispute-opened':
      return notice(`A customer disputed a payment to ${shop}`, 'A payment was disputed', [
        'The cardholder asked their bank to reverse a payment (a dispute, or chargeback). While a chargeback stands, the payment cannot be refunded; its amount may be taken from your balance.',
      ], [['Amount disputed', cents(params.amount)], ...(str(params.reason) ? [['Reason given', str(params.reason)] as Row] : []), ...paymentRows], paymentLink);
    case 'dispute-decided': {
      const outcome = DISPUTE_OUTCOMES[str(params.status)] ?? { subject: 'A dispute was decided', says: 'The dispute was decided.' };
      return notice(outcome.subject, outcome.subject, [outcome.says], [['Amount disputed', cents(params.amount)], ...paymentRows], paymentLink);
    }
    case 'refund-approved':
      return notice('A refund was approved', 'A refund was approved', ['Our team approved the refund you asked for. It is sent to the card now; you will hear from us if the card refuses it.'], [['Amount', cents(params.amount)], ...paymentRows], paymentLink);
    case 'refund-rejected':
      return notice('A refund request was rejected', 'A refund request was rejected', ['Our team did not approve the refund you asked for; nothing was taken from your balance.'], [['Amount', cents(params.amount)], ['Reason', str(params.reason)], ...paymentRows], paymentLink);
    case 'refund-failed':
      return notice('A refund failed', 'A refund failed', ['The card refused the refund, so the money did not go back to the customer and your balance was not charged. The payment stays paid; ask support if you want to try again.'], [['Amount', cents(params.amount)], ['Reason', str(params.reason)], ...paymentRows], paymentLink);
    case 'withdrawal-paid':
      return notice('Your withdrawal was paid', 'Your withdrawal was paid', ['The bank transfer went out. It usually arrives within one to three business days.'], [['Amount', cents(params.amount)], ['Transfer reference', str(params.reference)]], { url: `${baseUrl}/dashboard/withdrawals`, label: 'See your withdrawals' });
    case 'withdrawal-rejected':
      return notice('Your withdrawal was rejected', 'Your withdrawal was rejected', ['The amount is back in your available balance.'], [['Amount', cents(params.amount)], ['Reason', str(params.reason)]], { url: `${baseUrl}/dashboard/withdrawals`, label: 'See your withdrawals' });
    case 'new-sign-in':
      return notice('New sign-in to your payments dashboard', 'A new browser signed in', [
        'Someone signed in to your account from a browser that had not signed in before. If it was you, there is nothing to do.',
        'If it was not you, reset your password now (every session then ends) and turn on two-factor authentication.',
      ], [['Browser', str(params.browser) || 'Unknown browser']], { url: `${baseUrl}/dashboard/reset-password`, label: 'Reset your password' });
    case 'payout-account-changed':
      return notice('Your payout account was changed', 'Your payout account was changed', ['Withdrawals are now paid to the account below. If you did not make this change, reset your password and contact us at once.'], [['Account number', str(params.last4) ? `•••• ${str(params.last4)}` : 'removed']]);
    case 'webhook-url-changed':
      return notice(`The webhook URL of ${shop} was changed`, 'Your webhook URL was changed', ['Payment events now go to the address below. If you did not make this change, reset your password and check your shop settings.'], [['Webhook host', str(params.host) || 'none (webhooks are off)']], { url: `${baseUrl}/dashboard/developers`, label: 'See your webhook settings' });
    case 'webhook-secret-rotated':
      return notice(`The webhook secret of ${shop} was replaced`, 'Your webhook secret was replaced', ['Webhooks are now signed with a new secret; the old one no longer verifies. If you did not make this change, reset your password and check your shop settings.'], [], { url: `${baseUrl}/dashboard/developers`, label: 'See your webhook settings' });
    case 'support-email-changed':
      return notice('Your support address was changed', 'Your support address was changed', ['Receipts and refund notices now tell your customers to write to the address below.'], [['Support address', str(params.address)]]);
    case 'webhook-failing':
      return notice(`Webhooks to ${shop} have been failing for more than a day`, 'Your webhooks keep failing', [
        'Deliveries to your webhook URL have been failing for more than a day. They are retried for about three days, then given up; payments keep working meanwhile.',
        'Check that your receiver answers 200 quickly, then re-send any failed delivery from the dashboard.',
      ], [['Webhook host', str(params.host)], ['Failing since', typeof params.since === 'string' ? utcDateTime(new Date(params.since)) : ''], ['Deliveries not yet delivered', String(params.failing ?? '')]], { url: `${baseUrl}/dashboard/developers`, label: 'See your webhook deliveries' });
  }
}
