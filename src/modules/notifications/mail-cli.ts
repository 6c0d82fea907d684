import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../shared/errors';
import type { SecretBox } from '../identity';
import { listMails, mailText } from './mail-listing';

/** How `npm run cli -- mail …` is used. */
export const MAIL_CLI_USAGE =
  'mail list | mail show <id> | mail raw <id>   (every mail: account mails, receipts, notifications; sent to SMTP_URL, or kept in the database when it is unset, also shown at /dev/mail on a local service)';

/** A refusal the CLI prints as it is (exit status 2). */
export class MailCliUsage extends Error {}

const when = (date: Date | null) => (date ? date.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '-');

/**
 * `mail list`: the latest 50 mails, one line each (id, status, written, kind, to, subject).
 * `mail show <id>`: one mail as a person reads it: its headers and its plain text part.
 * `mail raw <id>`: the whole message as it was (or will be) sent, MIME parts and HTML included.
 * An account mail's words are opened with `box` (ACCOUNT_SECRETS_KEY), and are gone once it was sent.
 * The text is for a terminal: no JSON, and nothing of it is logged.
 */
export async function mailCli(em: EntityManager, args: string[], box: SecretBox): Promise<string> {
  const [verb, id, ...extra] = args;
  if (verb === 'list' && !id) {
    const page = await listMails(em, {}, 1, 50);
    if (page.items.length === 0) return 'No mails yet.\n';
    const lines = page.items.map((m) => [m.id, m.status.padEnd(7), when(m.createdAt), m.kind.padEnd(22), m.recipient, m.subject ?? '(written out at its first attempt)'].join('  '));
    return `${lines.join('\n')}\n${page.pagination.total > page.items.length ? `(the latest ${page.items.length} of ${page.pagination.total})\n` : ''}`;
  }
  if ((verb === 'show' || verb === 'raw') && id && extra.length === 0) {
    let mail;
    try {
      mail = await mailText(em, id, box);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'MAIL_NOT_FOUND') throw new MailCliUsage(`No mail ${id} (npm run -s cli -- mail list shows the latest)`);
      throw error;
    }
    if (verb === 'raw') return mail.raw ?? `Mail ${id}: ${mail.missing ?? 'not written out yet: the mail workers write it at its first attempt'}.\n`;
    const head = [
      `Mail ${mail.id} (${mail.kind}): ${mail.status}`,
      `To: ${mail.recipient}`,
      `Subject: ${mail.subject ?? '(not written out yet: the mail workers write it at its first attempt)'}`,
      `Written: ${when(mail.createdAt)}   Sent: ${when(mail.sentAt)}`,
      ...(mail.lastError ? [`Last error: ${mail.lastError}`] : []),
    ];
    if (!mail.text) return `${head.join('\n')}\n${mail.missing ? `\n(${mail.missing})\n` : ''}`;
    return `${head.join('\n')}\n\n${mail.text.trimEnd()}\n\n(An HTML part goes with it: npm run -s cli -- mail raw ${mail.id} prints the whole message.)\n`;
  }
  throw new MailCliUsage(`Usage: npm run cli -- ${MAIL_CLI_USAGE}`);
}
