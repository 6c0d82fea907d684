import { Field, ObjectType, type ClassType } from 'type-graphql';
import { Pagination } from '../payments/payment.types';
import type { PageRequest } from '../payments/payment-rules';

/** One page of a list, with the spec's pagination block (page, limit, total, pages). */
export interface Page<T> {
  items: T[];
  pagination: { page: number; limit: number; total: number; pages: number };
}

export function pageOf<T>(request: PageRequest, items: T[], total: number): Page<T> {
  return { items, pagination: { ...request, total, pages: Math.ceil(total / request.limit) } };
}

/** The SQL window of a page request. */
export function windowOf(request: PageRequest): { limit: number; offset: number } {
  return { limit: request.limit, offset: (request.page - 1) * request.limit };
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
