import { Arg, Authorized, Ctx, Field, FieldResolver, ID, InputType, Int, Mutation, ObjectType, Query, Resolver, Root, registerEnumType } from 'type-graphql';
import { currentAdmin, currentSession } from '../../platform/graphql/request-scope';
import type { NotificationsContext } from './notifications-context';
import { Seller } from '../identity';
import { SellerObject } from '../identity/web';
import { type Page } from '../../shared/pagination';
import { PageType } from '../../platform/graphql/pages';
import { NOTIFICATION_TOPICS, TOPIC_LABELS, type NotificationTopic } from './mail-kinds';
import { listMails, resendMail } from './mail-listing';
import { MailStatus } from './mail-outbox';
import type { MailOutboxEntry } from './mail-outbox.entity';
import { MailOutboxEntryObject } from './mail-outbox.object';
import { mailSettingsOf, setMailSettings, type MailSettings } from './mail-settings';

/** The topics as a GraphQL enum (DISPUTES: 'disputes' …). */
const NotificationTopicEnum = Object.fromEntries(NOTIFICATION_TOPICS.map((topic) => [topic.toUpperCase(), topic])) as Record<Uppercase<NotificationTopic>, NotificationTopic>;
registerEnumType(NotificationTopicEnum, { name: 'NotificationTopic', description: 'What a seller may be told by mail; each can be switched off.' });

@ObjectType({ description: 'One notification topic and whether the seller gets its mails.' })
export class NotificationSwitch {
  @Field(() => NotificationTopicEnum) topic!: NotificationTopic;
  @Field(() => String, { description: 'What the Account screen says next to the switch.' }) label!: string;
  @Field(() => Boolean) enabled!: boolean;
}

@ObjectType({ description: "The seller's mail settings: the support address customers are given, and the notifications on." })
export class MailSettingsView {
  @Field(() => String, { description: "The address receipts and refund notices give customers (and their Reply-To): the one set, or the account's." })
  supportEmail!: string;

  @Field(() => Boolean, { description: "False while the account's own address is used." })
  supportEmailSet!: boolean;

  @Field(() => [NotificationSwitch])
  notifications!: NotificationSwitch[];
}

const view = (settings: MailSettings): MailSettingsView => ({
  supportEmail: settings.supportEmail,
  supportEmailSet: settings.supportEmailSet,
  notifications: NOTIFICATION_TOPICS.map((topic) => ({ topic, label: TOPIC_LABELS[topic], enabled: settings.enabledTopics.includes(topic) })),
});

@InputType({ description: 'Which mails of the outbox to list.' })
export class MailFilterInput {
  @Field(() => MailStatus, { nullable: true }) status?: MailStatus | null;
  @Field(() => String, { nullable: true, description: 'receipt, refund-notice, dispute-opened …' }) kind?: string | null;
  @Field(() => String, { nullable: true }) recipient?: string | null;
  @Field(() => ID, { nullable: true }) paymentId?: string | null;
  @Field(() => ID, { nullable: true }) sellerId?: string | null;
}

export const MailList = PageType(MailOutboxEntryObject, 'MailList');

/** The seller's mail settings (dashboard, Account screen) and the admins' view of the mail outbox (docs/admin.md, "Mail"). */
@Resolver(() => SellerObject)
export class NotificationsResolver {
  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => MailSettingsView, { description: 'The support address receipts give customers, and which notifications are on.' })
  async mailSettings(@Root() seller: Seller, @Ctx() context: NotificationsContext): Promise<MailSettingsView> {
    return view(await mailSettingsOf(context.em, seller.id));
  }

  @Authorized('SESSION')
  @Mutation(() => MailSettingsView, {
    description:
      "Sets the support address (null or empty: the account's own) and the notification topics that stay on (the others are switched off). A change of the support address is mailed to the account's address.",
  })
  async setMailSettings(
    @Arg('supportEmail', () => String, { nullable: true }) supportEmail: string | null,
    @Arg('enabledTopics', () => [NotificationTopicEnum]) enabledTopics: NotificationTopic[],
    @Ctx() context: NotificationsContext,
  ): Promise<MailSettingsView> {
    return view(await setMailSettings(context.em, currentSession(context).sellerId, supportEmail, enabledTopics));
  }

  @Authorized('ADMIN')
  @Query(() => MailList, { description: 'The mail outbox, newest first: filter by status FAILED or UNKNOWN to see what needs an eye.' })
  mails(
    @Arg('filter', () => MailFilterInput, { nullable: true }) filter: MailFilterInput | null,
    @Arg('page', () => Int, { nullable: true }) page: number | null,
    @Arg('limit', () => Int, { nullable: true, description: '1 to 100, default 10.' }) limit: number | null,
    @Ctx() context: NotificationsContext,
  ): Promise<Page<MailOutboxEntry>> {
    return listMails(context.em, filter ?? {}, page, limit);
  }

  @Authorized('SUPPORT', 'OWNER')
  @Mutation(() => MailOutboxEntryObject, {
    description: 'Sends again a mail that FAILED or whose delivery is UNKNOWN (same message, same Message-ID; an unknown one may reach its reader twice). Audited as mail.resent with the reason.',
  })
  async resendMail(@Arg('id', () => ID) id: string, @Arg('reason', () => String) reason: string, @Ctx() context: NotificationsContext): Promise<MailOutboxEntry> {
    const mail = await resendMail(context.em, currentAdmin(context), id, reason);
    context.services.logger.info({ requestId: context.requestId, mail: { id, kind: mail.kind } }, 'mail re-sent by an admin');
    context.services.mail.wake();
    return mail;
  }
}
