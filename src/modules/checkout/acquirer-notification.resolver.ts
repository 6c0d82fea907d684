import { Arg, Authorized, Ctx, Field, ID, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { DateTimeISOResolver, SafeIntResolver } from 'graphql-scalars';
import { currentAdmin } from '../../platform/graphql/request-scope';
import type { CheckoutContext } from './checkout-context';
import type { FlaggedNotification } from '../../platform/processor/acquirer-inbound';
import { recordAuditNow } from '../audit';
import { domainError } from '../../shared/errors';
import { validReason } from '../../shared/reason';
import { settleWithAcquirerNow, type SettledByAcquirer } from './acquirer-settling';

@ObjectType({ description: "An acquirer notification that booked nothing: malformed (rejected), not matching the payment, refund or dispute it names, or needing a person for the shopper's money (flagged), or come before an event it follows and not applied yet (waiting)." })
export class FlaggedAcquirerNotification implements FlaggedNotification {
  @Field(() => ID) id!: string;
  @Field(() => String) pspReference!: string;
  @Field(() => String) eventCode!: string;
  @Field(() => Boolean) success!: boolean;
  @Field(() => String, { nullable: true, description: 'Our payment or refund id, as the acquirer sent it.' }) merchantReference!: string | null;
  @Field(() => SafeIntResolver, { nullable: true, description: 'Minor units, as the acquirer sent them.' }) amountValue!: number | null;
  @Field(() => String, { nullable: true }) currency!: string | null;
  @Field(() => String, {
    description: "flagged (did not fit what it names, or the shopper's money needs a person), rejected (malformed) or waiting (for an event it follows); after an admin's hand, received (to be applied again) or dismissed.",
  })
  status!: FlaggedNotification['status'];
  @Field(() => String, { description: 'What did not fit.' }) problem!: string;
  @Field(() => DateTimeISOResolver) receivedAt!: Date;
}

@ObjectType({ description: 'What the acquirer said of a payment or refund left processing, and what it settled.' })
export class AcquirerSettlement implements SettledByAcquirer {
  @Field(() => String, { description: 'approved, declined, refunded, not_found: what the acquirer answered.' }) found!: string;
  @Field(() => String, { description: 'What it did here (completed, failed, refunded, requeued, or nothing when already settled).' }) outcome!: string;
}

@Resolver()
export class AcquirerNotificationResolver {
  @Authorized('ADMIN')
  @Query(() => [FlaggedAcquirerNotification], { description: "The acquirer's notifications that booked nothing and need an admin's eye, and those waiting for an event they follow, newest first (empty without Adyen)." })
  async flaggedAcquirerNotifications(
    @Arg('limit', () => Int, { defaultValue: 50, description: 'At most 200.' }) limit: number,
    @Ctx() context: CheckoutContext,
  ): Promise<FlaggedAcquirerNotification[]> {
    return context.services.acquirerNotifications.store.flagged(Math.min(Math.max(limit, 1), 200));
  }

  @Authorized('FINANCE')
  @Mutation(() => FlaggedAcquirerNotification, {
    description: 'A flagged or waiting notification applied again now, through the same checks (once what stood in its way is settled). Audited with the reason.',
  })
  async retryAcquirerNotification(@Arg('id', () => ID) id: string, @Arg('reason', () => String) reason: string, @Ctx() context: CheckoutContext): Promise<FlaggedAcquirerNotification> {
    const text = validReason(reason);
    const { store, inbox } = context.services.acquirerNotifications;
    const item = await store.reopen(id);
    if (!item) throw domainError('ACQUIRER_NOTIFICATION_NOT_OPEN');
    await auditNotification(context, 'acquirer_notification.retried', item, text);
    inbox.wake();
    return item;
  }

  @Authorized('FINANCE')
  @Mutation(() => FlaggedAcquirerNotification, {
    description: 'A flagged, waiting or rejected notification set aside (settled at the acquirer, or a duplicate): no longer listed. Audited with the reason.',
  })
  async dismissAcquirerNotification(@Arg('id', () => ID) id: string, @Arg('reason', () => String) reason: string, @Ctx() context: CheckoutContext): Promise<FlaggedAcquirerNotification> {
    const text = validReason(reason);
    const item = await context.services.acquirerNotifications.store.dismiss(id);
    if (!item) throw domainError('ACQUIRER_NOTIFICATION_NOT_OPEN');
    await auditNotification(context, 'acquirer_notification.dismissed', item, text);
    return item;
  }

  @Authorized('FINANCE')
  @Mutation(() => AcquirerSettlement, {
    description: 'Asks the acquirer now about a payment or refund left processing and settles it by what the acquirer says, as reconciliation would. Audited with the reason.',
  })
  async settleWithAcquirer(
    @Arg('id', () => ID, { description: 'A payment id (pay_…) or a refund id (ref_…).' }) id: string,
    @Arg('reason', () => String) reason: string,
    @Ctx() context: CheckoutContext,
  ): Promise<AcquirerSettlement> {
    const text = validReason(reason);
    const settled = await settleWithAcquirerNow(context.services.checkout, context.em, id);
    const admin = currentAdmin(context);
    await recordAuditNow(context.em, admin, { action: 'acquirer.settled_by_lookup', targetType: id.startsWith('pay_') ? 'payment' : 'refund', targetId: id, reason: text, details: { ...settled } });
    return settled;
  }
}

async function auditNotification(context: CheckoutContext, action: string, item: FlaggedNotification, reason: string): Promise<void> {
  await recordAuditNow(context.em, currentAdmin(context), {
    action, targetType: 'acquirer_notification', targetId: item.id, reason,
    details: { eventCode: item.eventCode, pspReference: item.pspReference, merchantReference: item.merchantReference, problem: item.problem },
  });
}
