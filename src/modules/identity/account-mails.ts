import type { EntityManager } from '@mikro-orm/postgresql';
import { ACCOUNT_TOKEN_TTL } from './account-tokens';

/** Every account mail, by kind: the mail outbox sends them as its own kinds (src/modules/notifications/account-mail.ts). */
export const ACCOUNT_MAIL_KINDS = [
  'email-verification',
  'invitation',
  'password-reset',
  'password-changed',
  'account-reclaimed',
  'two-factor-reset',
  'shop-deleted',
  'api-key-issued',
  'two-factor-changed',
] as const;
export type AccountMailKind = (typeof ACCOUNT_MAIL_KINDS)[number];

/** One account mail as written: plain text and simple HTML, to one address. */
export interface AccountMail {
  kind: AccountMailKind;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Puts an account mail in the mail outbox, its words sealed (notifications' queueAccountMail, handed to identity,
 * which does not import it). `sellerId` files it under its seller for the admins' mail listing.
 */
export type AccountMailQueue = (em: EntityManager, sellerId: string, mail: AccountMail) => Promise<void>;

/**
 * The account mails: plain text and a simple HTML twin, every link built from BASE_URL. A link with a token is a
 * capability: the mail is the only place it is written, sealed at rest in the outbox and deleted once sent (never
 * logged).
 */
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function mail(kind: AccountMailKind, to: string, subject: string, paragraphs: string[], link?: { url: string; label: string }): AccountMail {
  const text = [...paragraphs, ...(link ? [`${link.label}: ${link.url}`] : []), 'If you did not expect this mail, you can ignore it.'].join('\n\n');
  const html = [
    '<!doctype html><html lang="en"><body style="font-family: sans-serif">',
    ...paragraphs.map((p) => `<p>${escape(p)}</p>`),
    ...(link ? [`<p><a href="${escape(link.url)}">${escape(link.label)}</a></p>`] : []),
    '<p>If you did not expect this mail, you can ignore it.</p></body></html>',
  ].join('\n');
  return { kind, to, subject, text, html };
}

function keptWords(kept: { webhookUrl: string | null; events: boolean }): string {
  const host = kept.webhookUrl ? new URL(kept.webhookUrl).host : null;
  const what = host ? `the webhook URL (at ${host})${kept.events ? ' and the webhook events' : ''}` : 'the webhook events';
  return `It keeps ${what} of your previous shop; events are signed with the new webhook secret.`;
}

const hours = (ms: number) => `${Math.round(ms / 3_600_000)} hours`;
const minutes = (ms: number) => `${Math.round(ms / 60_000)} minutes`;

export const accountMails = {
  verification: (baseUrl: string, to: string, token: string) =>
    mail('email-verification', to, 'Verify your email address', ['Welcome! Verify your email address to be able to withdraw your balance. The link works once, for 24 hours.'], {
      url: `${baseUrl}/dashboard/verify-email?token=${token}`,
      label: 'Verify your email address',
    }),
  invitation: (baseUrl: string, to: string, token: string) =>
    mail('invitation', to, 'You are invited to the payments dashboard', [`An account was created for you. Choose your password to sign in; the link works once, for ${hours(ACCOUNT_TOKEN_TTL.invitation)}.`], {
      url: `${baseUrl}/dashboard/accept-invitation?token=${token}`,
      label: 'Choose your password',
    }),
  passwordReset: (baseUrl: string, to: string, token: string) =>
    mail('password-reset', to, 'Reset your password', [`Someone (hopefully you) asked to reset the password of this account. The link works once, for ${minutes(ACCOUNT_TOKEN_TTL.password_reset)}.`], {
      url: `${baseUrl}/dashboard/reset-password?token=${token}`,
      label: 'Choose a new password',
    }),
  passwordChanged: (baseUrl: string, to: string) =>
    mail('password-changed', to, 'Your password was changed', ['The password of your account was just changed, and every other session was signed out.', 'If this was not you, reset your password now and tell us.'], {
      url: `${baseUrl}/dashboard/login`,
      label: 'Sign in',
    }),
  accountReclaimed: (baseUrl: string, to: string) =>
    mail('account-reclaimed', to, 'Your account is yours again', [
      'You chose a new password from the link we mailed. This address had not been verified yet, so anyone could have signed up with it: to be safe, every session was signed out, two-factor authentication was turned off, the shop and its API key were deleted, and the webhook URL and payout account were cleared. Your address is now verified.',
      'Sign in, create a new shop to get a new API key (shown once), and set your webhook URL and payout account again.',
    ], { url: `${baseUrl}/dashboard/login`, label: 'Sign in' }),
  twoFactorResetByAdmin: (baseUrl: string, to: string) =>
    mail('two-factor-reset', to, 'Two-factor authentication was turned off by our team', [
      'Our team turned two-factor authentication off for your account, as asked, and signed out every session. Sign in with your password, then turn two-factor on again from your account page.',
      'If you did not ask for this, reset your password now and tell us.',
    ], { url: `${baseUrl}/dashboard/account`, label: 'Your account' }),
  shopDeleted: (baseUrl: string, to: string, shopName: string) =>
    mail('shop-deleted', to, 'Your shop was deleted', [
      `Your shop “${shopName}” was just deleted from the dashboard: its API key no longer works.`,
      'If this was not you, reset your password now and tell us.',
    ], { url: `${baseUrl}/dashboard/login`, label: 'Sign in' }),
  /** `kept`: what the new shop kept of the previous one's webhook settings (only the URL's host is told: its path may carry a token). */
  apiKeyIssued: (baseUrl: string, to: string, shopName: string, kept: { webhookUrl: string | null; events: boolean } | null = null) =>
    mail('api-key-issued', to, 'A new API key was issued', [
      `A new shop “${shopName}” was created from the dashboard, with a new API key and webhook secret.`,
      ...(kept ? [keptWords(kept)] : []),
      'If this was not you, reset your password now and tell us.',
    ], { url: `${baseUrl}/dashboard/login`, label: 'Sign in' }),
  twoFactorChanged: (baseUrl: string, to: string, enabled: boolean) =>
    mail('two-factor-changed', to, enabled ? 'Two-factor authentication is on' : 'Two-factor authentication was turned off', [
      enabled ? 'Two-factor authentication was turned on for your account.' : 'Two-factor authentication was turned off for your account.',
      'If this was not you, reset your password now and tell us.',
    ], { url: `${baseUrl}/dashboard/account`, label: 'Your account' }),
};
