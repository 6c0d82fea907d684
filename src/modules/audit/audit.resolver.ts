import { Arg, Args, Authorized, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import type { AuditContext } from './audit-context';
import { AuditEntry } from './audit-entry.entity';
import { AuditEntryObject } from './audit-entry.object';
import { listAudit } from './audit.service';
import { TimeOrder } from '../../shared/list-order';
import { type Page } from '../../shared/pagination';
import { PageArgs, PageType } from '../../platform/graphql/pages';

export const AuditEntryList = PageType(AuditEntryObject, 'AuditEntryList');

@Resolver(() => AuditEntryObject)
export class AuditResolver {
  @Authorized('ADMIN')
  @Query(() => AuditEntryList, { description: 'The audit log of admin actions, newest first unless `order` says otherwise.' })
  auditLog(
    @Arg('targetId', () => String, { nullable: true, description: 'A payment, refund, withdrawal, shop, seller or admin id.' }) targetId: string | null,
    @Arg('action', () => String, { nullable: true, description: 'For example refund.approved.' }) action: string | null,
    @Arg('adminId', () => ID, { nullable: true }) adminId: string | null,
    @Args(() => PageArgs) { page, limit }: PageArgs,
    @Ctx() context: AuditContext,
    @Arg('actor', () => String, { nullable: true, description: "The acting admin's e-mail address (any case), or `cli`." }) actor?: string | null,
    @Arg('createdFrom', () => DateTimeISOResolver, { nullable: true, description: 'Written at or after.' }) createdFrom?: Date | null,
    @Arg('createdTo', () => DateTimeISOResolver, { nullable: true, description: 'Written before.' }) createdTo?: Date | null,
    @Arg('order', () => TimeOrder, { nullable: true, description: 'Default NEWEST_FIRST.' }) order?: TimeOrder | null,
  ): Promise<Page<AuditEntry>> {
    return listAudit(context.em, { targetId, action, adminId, actor, createdFrom, createdTo }, page, limit, order);
  }

  @Authorized('ADMIN')
  @FieldResolver(() => ID, { nullable: true, description: 'The acting admin; null for the operations CLI.' })
  adminId(@Root() entry: AuditEntry): string | null {
    return entry.adminId;
  }
}
