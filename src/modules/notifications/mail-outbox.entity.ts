import { Entity, Enum, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import { MailStatus } from './mail-outbox';

registerEnumType(MailStatus, { name: 'MailStatus', description: 'Where a mail of the outbox stands (src/modules/notifications/mail.lifecycle.ts).' });

/**
 * One mail of the outbox (table `mail_outbox`, written by raw statements in the transactions of what it tells of:
 * src/modules/notifications/mail-outbox.ts). The entity is for the moves (`applyMove`) and the admins' view; `@Field` is
 * what admins see: never the bodies, whose links may be capabilities (an account mail's reset link).
 */
@ObjectType({ description: 'A mail of the outbox: a receipt, a refund notice, a seller notification or an account mail, and how its delivery went. Never its words.' })
@Entity({ tableName: 'mail_outbox' })
export class MailOutboxEntry {
  @Field(() => ID)
  @PrimaryKey({ type: 'string' })
  id!: string;

  @Field(() => String, { description: 'receipt, refund-notice, a seller notification (dispute-opened, withdrawal-paid, new-sign-in …) or an account mail (email-verification, invitation, password-reset …).' })
  @Property({ type: 'string' })
  kind!: string;

  @Field(() => String, { description: 'What it is about: a payment, a refund, a dispute and its state, a change. One mail per kind and subject.' })
  @Property({ type: 'string' })
  subjectId!: string;

  @Field(() => String)
  @Property({ type: 'string' })
  recipient!: string;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'string', nullable: true })
  sellerId: string | null = null;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'string', nullable: true })
  shopId: string | null = null;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'string', nullable: true })
  paymentId: string | null = null;

  @Field(() => MailStatus)
  @Enum({ items: () => MailStatus })
  status: Opt<MailStatus> = MailStatus.PENDING;

  @Field(() => Int, { description: 'Attempts made (a claim counts as one).' })
  @Property({ type: 'integer' })
  attemptCount: Opt<number> = 0;

  @Field(() => DateTimeISOResolver, { description: 'When a pending mail is tried next.' })
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

  @Field(() => String, { nullable: true, description: 'The Message-ID it is sent with (the same on every attempt).' })
  @Property({ type: 'string', nullable: true })
  messageId: string | null = null;

  @Field(() => String, { nullable: true, description: 'Set at the first attempt, when the mail is written out (an account mail: when written).' })
  @Property({ type: 'text', nullable: true })
  subject: string | null = null;

  /**
   * An account mail's words, sealed with ACCOUNT_SECRETS_KEY (its links are capabilities), deleted once it is sent
   * (src/modules/notifications/account-mail.ts). Never loaded with the row, never a field: no admin reads it.
   */
  @Property({ type: 'text', nullable: true, hidden: true, lazy: true })
  sealedBody?: string | null;

  @Field(() => String, { nullable: true, description: "The last failure: the SMTP server's answer or what went wrong." })
  @Property({ type: 'text', nullable: true })
  lastError: string | null = null;

  @Field(() => DateTimeISOResolver)
  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  @Field(() => DateTimeISOResolver, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  lastAttemptAt: Date | null = null;

  @Field(() => DateTimeISOResolver, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  sentAt: Date | null = null;

  @Field(() => DateTimeISOResolver, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  failedAt: Date | null = null;
}
