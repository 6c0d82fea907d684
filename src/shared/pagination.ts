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
