import { Entity, Enum, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { MailStatus } from './mail-outbox';

/**
 * One mail of the outbox (table `mail_outbox`, written by raw statements in the transactions of what it tells of:
 * src/modules/notifications/mail-outbox.ts). The entity is for the moves (`applyMove`) and the admins' view; what admins
 * see is MailOutboxEntryObject (mail-outbox.object.ts): never the bodies, whose links may be capabilities (an account
 * mail's reset link).
 */
@Entity({ tableName: 'mail_outbox' })
export class MailOutboxEntry {
  @PrimaryKey({ type: 'string' })
  id!: string;

  @Property({ type: 'string' })
  kind!: string;

  @Property({ type: 'string' })
  subjectId!: string;

  @Property({ type: 'string' })
  recipient!: string;

  @Property({ type: 'string', nullable: true })
  sellerId: string | null = null;

  @Property({ type: 'string', nullable: true })
  shopId: string | null = null;

  @Property({ type: 'string', nullable: true })
  paymentId: string | null = null;

  @Enum({ items: () => MailStatus })
  status: Opt<MailStatus> = MailStatus.PENDING;

  @Property({ type: 'integer' })
  attemptCount: Opt<number> = 0;

  @Property({ type: 'datetime' })
  nextAttemptAt: Opt<Date> = new Date();

  /** Retries stop MAIL_GIVE_UP_AFTER_MS after this: the mail's writing, or an admin's resend. */
  @Property({ type: 'datetime' })
  retryFrom: Opt<Date> = new Date();

  @Property({ type: 'datetime', nullable: true, hidden: true })
  lockedUntil: Date | null = null;

  /** A customer mail's mailbox (mailboxKey), written when it is admitted under the daily cap or suppressed past it. */
  @Property({ type: 'string', nullable: true, hidden: true })
  recipientKey: string | null = null;

  /** The claim that holds a `sending` mail: only its worker records the outcome. */
  @Property({ type: 'string', nullable: true, hidden: true })
  claimToken: string | null = null;

  @Property({ type: 'string', nullable: true })
  messageId: string | null = null;

  @Property({ type: 'text', nullable: true })
  subject: string | null = null;

  /**
   * An account mail's words, sealed with ACCOUNT_SECRETS_KEY (its links are capabilities), deleted once it is sent
   * (src/modules/notifications/account-mail.ts). Never loaded with the row, never a field: no admin reads it.
   */
  @Property({ type: 'text', nullable: true, hidden: true, lazy: true })
  sealedBody?: string | null;

  @Property({ type: 'text', nullable: true })
  lastError: string | null = null;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime', nullable: true })
  lastAttemptAt: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  sentAt: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  failedAt: Date | null = null;
}
