import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import { MailStatus } from './mail-outbox';

registerEnumType(MailStatus, { name: 'MailStatus', description: 'Where a mail of the outbox stands (src/modules/notifications/mail.lifecycle.ts).' });

/**
 * What admins see of a mail of the outbox. Resolvers return MailOutboxEntry rows, read property by property; the
 * bodies, the lease and the claim are no field.
 */
@ObjectType('MailOutboxEntry', {
  description: 'A mail of the outbox: a receipt, a refund notice, a seller notification or an account mail, and how its delivery went. Never its words.',
})
export class MailOutboxEntryObject {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: 'receipt, refund-notice, a seller notification (dispute-opened, withdrawal-paid, new-sign-in …) or an account mail (email-verification, invitation, password-reset …).' })
  kind!: string;

  @Field(() => String, { description: 'What it is about: a payment, a refund, a dispute and its state, a change. One mail per kind and subject.' })
  subjectId!: string;

  @Field(() => String)
  recipient!: string;

  @Field(() => ID, { nullable: true })
  sellerId!: string | null;

  @Field(() => ID, { nullable: true })
  shopId!: string | null;

  @Field(() => ID, { nullable: true })
  paymentId!: string | null;

  @Field(() => MailStatus)
  status!: MailStatus;

  @Field(() => Int, { description: 'Attempts made (a claim counts as one).' })
  attemptCount!: number;

  @Field(() => DateTimeISOResolver, { description: 'When a pending mail is tried next.' })
  nextAttemptAt!: Date;

  @Field(() => String, { nullable: true, description: 'The Message-ID it is sent with (the same on every attempt).' })
  messageId!: string | null;

  @Field(() => String, { nullable: true, description: 'Set at the first attempt, when the mail is written out (an account mail: when written).' })
  subject!: string | null;

  @Field(() => String, { nullable: true, description: "The last failure: the SMTP server's answer or what went wrong." })
  lastError!: string | null;

  @Field(() => DateTimeISOResolver)
  createdAt!: Date;

  @Field(() => DateTimeISOResolver, { nullable: true })
  lastAttemptAt!: Date | null;

  @Field(() => DateTimeISOResolver, { nullable: true })
  sentAt!: Date | null;

  @Field(() => DateTimeISOResolver, { nullable: true })
  failedAt!: Date | null;
}
