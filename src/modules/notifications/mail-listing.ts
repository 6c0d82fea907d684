import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import type { Admin } from '../admins';
import { validReason } from '../../shared/reason';
import { moveAuditor } from '../audit';
import { applyMove } from '../../platform/lifecycle/apply-move';
import { MAIL_LIFECYCLE } from './mail.lifecycle';
import { domainError } from '../../shared/errors';
import { pageOf, validPageRequest, windowOf, type Page } from '../../shared/pagination';
import { MailOutboxEntry } from './mail-outbox.entity';
import type { MailStatus } from './mail-outbox';
import { selectMailText, type MailText } from './mail-store';
import { isAccountMail, openAccountMailWords } from './account-mail';
import type { SecretBox } from '../identity';

export type { MailText } from './mail-store';

/** A mail whole as people read it (the CLI, the local mail viewer), and why its words are missing when they are. */
export interface ReadableMail extends Omit<MailText, 'sealedBody'> {
  /** Null when the words are there; otherwise why not (not written out yet, an account mail's words deleted once sent …). */
  missing: string | null;
}

export interface MailFilter {
  status?: MailStatus | null;
  kind?: string | null;
  recipient?: string | null;
  paymentId?: string | null;
  sellerId?: string | null;
}

/** The outbox, newest first, for admins (the `mails` query) and the CLI (`mail list`). */
export async function listMails(em: EntityManager, filter: MailFilter, page?: number | null, limit?: number | null): Promise<Page<MailOutboxEntry>> {
  const request = validPageRequest(page, limit);
  const where: FilterQuery<MailOutboxEntry> = {};
  if (filter.status) where.status = filter.status;
  if (filter.kind) where.kind = filter.kind;
  if (filter.recipient) where.recipient = filter.recipient.trim().toLowerCase();
  if (filter.paymentId) where.paymentId = filter.paymentId;
  if (filter.sellerId) where.sellerId = filter.sellerId;
  const [items, total] = await em.findAndCount(MailOutboxEntry, where, { orderBy: { createdAt: 'desc', id: 'desc' }, ...windowOf(request) });
  return pageOf(request, items, total);
}

/**
 * One mail whole, as the CLI's `mail show` and the local mail viewer show it (MAIL_NOT_FOUND when there is none): an
 * account mail's words opened with `box`. Never for admins' screens: an account mail's link is the account.
 */
export async function mailText(em: EntityManager, id: string, box: SecretBox): Promise<ReadableMail> {
  const found = await selectMailText(em, id);
  if (!found) throw domainError('MAIL_NOT_FOUND');
  const { sealedBody, ...mail } = found;
  if (!isAccountMail(mail.kind)) return { ...mail, missing: mail.text === null ? 'not written out yet: the mail workers write it at its first attempt' : null };
  if (sealedBody === null) return { ...mail, missing: 'an account mail: its words were deleted once it was sent (its links are capabilities)' };
  try {
    const words = openAccountMailWords(box, sealedBody);
    return { ...mail, text: words.text, html: words.html, raw: words.raw ?? null, missing: null };
  } catch (error) {
    return { ...mail, missing: `an account mail whose sealed words do not open here (${(error as Error).message})` };
  }
}

/**
 * A support or owner admin sends a mail again that failed or whose delivery is unknown (the mail table's `resend`,
 * audited with the reason): the same bytes and Message-ID, a fresh retry window. For an `unknown` one, the admin
 * accepts that the customer may get it twice (the Message-ID lets mail programs recognise the copy).
 */
export async function resendMail(em: EntityManager, admin: Admin, id: string, reason: string): Promise<MailOutboxEntry> {
  const text = validReason(reason);
  const moved = await applyMove(em, MAIL_LIFECYCLE, MailOutboxEntry, 'resend', {
    id,
    changes: { nextAttemptAt: new Date(), retryFrom: new Date(), failedAt: null },
    effects: { audit: { by: moveAuditor(admin), reason: text, details: (mail) => ({ kind: mail.kind, subjectId: mail.subjectId, recipient: mail.recipient }) } },
  });
  if (moved) return moved;
  const current = await em.findOne(MailOutboxEntry, { id }, { refresh: true });
  if (!current) throw domainError('MAIL_NOT_FOUND');
  throw domainError('MAIL_NOT_RESENDABLE', current.status);
}
