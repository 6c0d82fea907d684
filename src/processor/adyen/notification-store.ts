import type { RunSql } from '../simulator-records';

/** One of Adyen's standard notification items, as kept (never card data: Adyen's items carry none). */
export interface KeptNotification {
  pspReference: string;
  eventCode: string;
  success: boolean;
  merchantReference: string;
  originalReference: string | null;
  amountValue: number;
  currency: string;
  reason: string | null;
}

/**
 * Every notification Adyen sent us, in `adyen_notifications`: once per (pspReference, eventCode), as Adyen
 * documents its retries. The look-ups of reconciliation read it (Checkout v71 has no read API).
 */
export interface NotificationStore {
  /** True the first time an item is kept; false for a replay, which must change nothing. */
  keep(item: KeptNotification): Promise<boolean>;
  seen(pspReference: string, eventCode: string): Promise<boolean>;
  latest(eventCode: string, merchantReference: string): Promise<(KeptNotification & { eventCode: string }) | null>;
}

export function sqlNotificationStore(run: RunSql): NotificationStore {
  return {
    async keep(n) {
      const rows = await run(
        `insert into "adyen_notifications" ("psp_reference", "event_code", "success", "merchant_reference", "original_reference", "amount_value", "currency", "reason")
          values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict ("psp_reference", "event_code") do nothing returning "id"`,
        [n.pspReference, n.eventCode, n.success, n.merchantReference, n.originalReference, n.amountValue, n.currency, n.reason],
      );
      return rows.length === 1;
    },
    async seen(pspReference, eventCode) {
      return (await run(`select 1 from "adyen_notifications" where "psp_reference" = $1 and "event_code" = $2`, [pspReference, eventCode])).length > 0;
    },
    async latest(eventCode, merchantReference) {
      const [row] = await run(
        `select * from "adyen_notifications" where "event_code" = $1 and "merchant_reference" = $2 order by "id" desc limit 1`,
        [eventCode, merchantReference],
      );
      if (!row) return null;
      return {
        pspReference: String(row.psp_reference),
        eventCode: String(row.event_code),
        success: Boolean(row.success),
        merchantReference: String(row.merchant_reference),
        originalReference: (row.original_reference as string | null) ?? null,
        amountValue: Number(row.amount_value),
        currency: String(row.currency),
        reason: (row.reason as string | null) ?? null,
      };
    },
  };
}
