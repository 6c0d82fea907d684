/**
 * How an admin list is sorted (the back office's tables sort through it, and keep it in the page's address).
 * Each list says which orders it takes and which is its default: review queues oldest first (nearest their
 * deadline), searches newest first.
 */
export enum ListOrder {
  OLDEST_FIRST = 'oldest_first',
  NEWEST_FIRST = 'newest_first',
  LARGEST_FIRST = 'largest_first',
  SMALLEST_FIRST = 'smallest_first',
}

/** The order of a list that has no amount to sort by (the audit log). */
export enum TimeOrder {
  OLDEST_FIRST = 'oldest_first',
  NEWEST_FIRST = 'newest_first',
}

/** The order of the shops list: by when the shop was opened, or by its name. */
export enum ShopOrder {
  NEWEST_FIRST = 'newest_first',
  OLDEST_FIRST = 'oldest_first',
  NAME_A_TO_Z = 'name_a_to_z',
  NAME_Z_TO_A = 'name_z_to_a',
}

/** The ORDER BY of a list with a time column and an amount column, ties broken by id so pages never overlap. */
export function orderByOf(order: ListOrder | null | undefined, fallback: ListOrder, columns: { time: string; amount: string }): Record<string, 'asc' | 'desc'> {
  switch (order ?? fallback) {
    case ListOrder.NEWEST_FIRST:
      return { [columns.time]: 'desc', id: 'desc' };
    case ListOrder.LARGEST_FIRST:
      return { [columns.amount]: 'desc', [columns.time]: 'asc', id: 'asc' };
    case ListOrder.SMALLEST_FIRST:
      return { [columns.amount]: 'asc', [columns.time]: 'asc', id: 'asc' };
    default:
      return { [columns.time]: 'asc', id: 'asc' };
  }
}
