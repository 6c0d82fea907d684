import { ArgsType, Field, Int, ObjectType, type ClassType } from 'type-graphql';
import { domainError } from './errors';

import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from './limits';

export interface PageRequest {
  page: number;
  limit: number;
}

/** One page of a list, with the spec's pagination block (page, limit, total, pages). */
export interface Page<T> {
  items: T[];
  pagination: { page: number; limit: number; total: number; pages: number };
}

export function validPageRequest(page: number | null | undefined, limit: number | null | undefined): PageRequest {
  const validPage = page ?? 1;
  const validLimit = limit ?? PAGE_LIMIT_DEFAULT;
  if (!Number.isSafeInteger(validPage) || validPage < 1) throw domainError('PAGE_INVALID');
  if (!Number.isSafeInteger(validLimit) || validLimit < 1 || validLimit > PAGE_LIMIT_MAX) {
    throw domainError('LIMIT_INVALID');
  }
  return { page: validPage, limit: validLimit };
}

export function pageOf<T>(request: PageRequest, items: T[], total: number): Page<T> {
  return { items, pagination: { ...request, total, pages: Math.ceil(total / request.limit) } };
}

/** The SQL window of a page request. */
export function windowOf(request: PageRequest): { limit: number; offset: number } {
  return { limit: request.limit, offset: (request.page - 1) * request.limit };
}

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
