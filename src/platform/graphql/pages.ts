import { ArgsType, Field, Int, ObjectType, registerEnumType, type ClassType } from 'type-graphql';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from '../../shared/limits';
import { ListOrder, ShopOrder, TimeOrder } from '../../shared/list-order';
import type { Page } from '../../shared/pagination';

/**
 * The GraphQL shapes of a list: its arguments (page, limit, the orders) and its page type. Apart from the rules of
 * paging (shared/pagination.ts), so that code which pages without GraphQL (a store, a CLI command) never loads it.
 */

registerEnumType(ListOrder, { name: 'ListOrder', description: 'The order of an admin list: by time (oldest or newest first) or by amount.' });
registerEnumType(TimeOrder, { name: 'TimeOrder', description: 'The order of an admin list by time: oldest or newest first.' });
registerEnumType(ShopOrder, { name: 'ShopOrder', description: 'The order of the shops list: by opening time or by name.' });

/** `page` and `limit`, the arguments of every list field (`@Args() { page, limit }: PageArgs`); checked by validPageRequest. */
@ArgsType()
export class PageArgs {
  @Field(() => Int, { nullable: true })
  page!: number | null;

  @Field(() => Int, { nullable: true, description: `1 to ${PAGE_LIMIT_MAX}, default ${PAGE_LIMIT_DEFAULT}.` })
  limit!: number | null;
}

@ObjectType()
export class Pagination {
  @Field(() => Int) page!: number;
  @Field(() => Int) limit!: number;
  @Field(() => Int) total!: number;
  @Field(() => Int) pages!: number;
}

/** A GraphQL page type for `Item`, named `<name>` (type-graphql's generic-type pattern). */
export function PageType<T extends object>(item: ClassType<T>, name: string) {
  @ObjectType(name)
  class PageClass implements Page<T> {
    @Field(() => [item])
    items!: T[];

    @Field(() => Pagination)
    pagination!: Pagination;
  }
  return PageClass;
}
