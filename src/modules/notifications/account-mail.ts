import type { EntityManager } from '@mikro-orm/postgresql';
import { ACCOUNT_MAIL_KINDS, type AccountMail, type AccountMailKind, type SecretBox } from '../identity';
import { newMailId } from './mail-outbox';
import { composeMessage, UnrenderableMail, type MailIdentity, type RenderedMail } from './mail-render';
import { mailableAddress } from './mail-text';
import { insertAccountMail, keepWrittenOutAccountMail, type ClaimedMail } from './mail-store';

/**
 * Account mails in the mail outbox (docs/decisions/0001-mail-outbox.md, "Account mails"): e-mail verification,
 * invitation, password reset and the notices of changes to an account, written by identity once its work is
 * committed and sent by the same workers, claims, retries and metrics as every mail. Their links are
 * capabilities (a reset link is the account), so their words never rest in the clear: they are kept only in
 * `sealed_body`, sealed with ACCOUNT_SECRETS_KEY (the secret box of webhook secrets and TOTP seeds), and deleted
 * once the SMTP server took the mail. Admins' mail listing shows the row (kind, recipient, subject line, status),
 * never the words.
 */
export const isAccountMail = (kind: string): kind is AccountMailKind => (ACCOUNT_MAIL_KINDS as readonly string[]).includes(kind);

/** An account mail's words as sealed: the parts as identity wrote them, and the whole message once written out. */
export interface AccountMailWords {
  text: string;
  html: string;
  /** The message as sent, headers included: set at the first claim, sent byte for byte by every later attempt. */
  raw?: string;
}

const seal = (box: SecretBox, words: AccountMailWords) => box.seal(JSON.stringify(words));

/** The words of a sealed body. Throws when it opens with no configured key (ACCOUNT_SECRETS_KEY changed). */
export function openAccountMailWords(box: SecretBox, sealedBody: string): AccountMailWords {
  const words = JSON.parse(box.open(sealedBody)) as AccountMailWords;
  return { text: String(words.text), html: String(words.html), ...(typeof words.raw === 'string' ? { raw: words.raw } : {}) };
}

/** Writes an account mail into the outbox, its words sealed (identity's AccountMailQueue, handed to it by the service). */
export async function queueAccountMail(em: EntityManager, box: SecretBox, sellerId: string, mail: AccountMail): Promise<void> {
  await insertAccountMail(em, { id: newMailId(), kind: mail.kind, recipient: mail.to, sellerId, subject: mail.subject, sealedBody: seal(box, { text: mail.text, html: mail.html }) });
}

/**
 * The message of a claimed account mail: the one written out at its first claim, or written out now (from the
 * service's own name, no Reply-To) and kept sealed under this claim. A body that is gone or cannot be opened is
 * given up, never sent empty.
 */
export async function accountMailMessage(em: EntityManager, box: SecretBox, identity: MailIdentity, row: ClaimedMail, token: string): Promise<RenderedMail> {
  if (!mailableAddress(row.recipient)) throw new UnrenderableMail('the recipient address cannot be used in a mail');
  if (!row.sealedBody) throw new UnrenderableMail('the words of this account mail are gone');
  let words: AccountMailWords;
  try {
    words = openAccountMailWords(box, row.sealedBody);
  } catch (error) {
    throw new UnrenderableMail(`its sealed words do not open: ${(error as Error).message}`);
  }
  const subject = row.subject ?? '';
  if (words.raw && row.messageId) return { subject, text: words.text, html: words.html, messageId: row.messageId, raw: words.raw };
  const rendered = await composeMessage(identity, row, { subject, text: words.text, html: words.html, fromName: identity.serviceName, replyTo: null, language: null });
  await keepWrittenOutAccountMail(em, row.id, token, { messageId: rendered.messageId, sealedBody: seal(box, { text: words.text, html: words.html, raw: rendered.raw }) });
  return rendered;
}
