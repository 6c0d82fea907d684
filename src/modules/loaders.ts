import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Admin } from './admins';
import { AuditEntry } from './audit';
import { LedgerEntry, balanceFigures, type BalanceSummary } from './ledger';
import { Payment } from './payments';
import { paymentsWithChargebackStanding } from './disputes';
import { Refund, refundsHeld } from './refunds';
import { Seller, Shop } from './identity';
import { attemptsOfDeliveries, WebhookDelivery, type WebhookAttempt } from './webhooks';
import { withdrawalTotals } from './withdrawals';

/**
 * One set per request (it lives in the GraphQL context): every relation the console walks is fetched in
 * one query per relation and per request, whatever the number of rows (payment -> shop -> seller,
 * refund -> payment, shop -> balance, payment -> refunds, ledger entries, audit entries, deliveries, attempts).
 * The request's unit of work already holds the rows it has read, so loaded entities are shared too.
 */
export interface Loaders {
  shop: DataLoader<string, Shop | null>;
  seller: DataLoader<string, Seller | null>;
  payment: DataLoader<string, Payment | null>;
  admin: DataLoader<string, Admin | null>;
  liveShopOfSeller: DataLoader<string, Shop | null>;
  refundsOfPayment: DataLoader<string, Refund[]>;
  chargebackStands: DataLoader<string, boolean>;
  ledgerOfPayment: DataLoader<string, LedgerEntry[]>;
  auditOfTarget: DataLoader<string, AuditEntry[]>;
  deliveriesOfPayment: DataLoader<string, WebhookDelivery[]>;
  attemptsOfDelivery: DataLoader<string, WebhookAttempt[]>;
  balanceOfSeller: DataLoader<string, BalanceSummary>;
}

type Entity = typeof Shop | typeof Seller | typeof Payment | typeof Admin;

function byId<E extends Entity>(em: EntityManager, entity: E): DataLoader<string, InstanceType<E> | null> {
  return new DataLoader(async (ids) => {
    const rows = (await em.find(entity as never, { id: { $in: [...ids] } } as never)) as InstanceType<E>[];
    const found = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => found.get(id) ?? null);
  });
}

/** Groups `rows` under the key each belongs to, in the order of `keys`. */
function grouped<T>(keys: readonly string[], rows: T[], keyOf: (row: T) => string): T[][] {
  const groups = new Map<string, T[]>(keys.map((k) => [k, []]));
  for (const row of rows) groups.get(keyOf(row))?.push(row);
  return keys.map((k) => groups.get(k)!);
}

export function createLoaders(em: EntityManager): Loaders {
  return {
    shop: byId(em, Shop),
    seller: byId(em, Seller),
    payment: byId(em, Payment),
    admin: byId(em, Admin),
    liveShopOfSeller: new DataLoader(async (sellerIds) => {
      const shops = await em.find(Shop, { seller: { $in: [...sellerIds] }, deletedAt: null });
      const bySeller = new Map(shops.map((shop) => [shop.seller.id, shop]));
      return sellerIds.map((id) => bySeller.get(id) ?? null);
    }),
    refundsOfPayment: new DataLoader(async (paymentIds) =>
      grouped(paymentIds, await em.find(Refund, { payment: { $in: [...paymentIds] } }, { orderBy: { createdAt: 'asc', id: 'asc' } }), (r) => r.payment.id),
    ),
    chargebackStands: new DataLoader(async (paymentIds) => {
      const standing = await paymentsWithChargebackStanding(em, paymentIds);
      return paymentIds.map((id) => standing.has(id));
    }),
    ledgerOfPayment: new DataLoader(async (paymentIds) =>
      grouped(paymentIds, await em.find(LedgerEntry, { paymentId: { $in: [...paymentIds] } }, { orderBy: { id: 'asc' } }), (e) => e.paymentId!),
    ),
    auditOfTarget: new DataLoader(async (targetIds) =>
      grouped(targetIds, await em.find(AuditEntry, { targetId: { $in: [...targetIds] } }, { orderBy: { id: 'asc' } }), (e) => e.targetId),
    ),
    deliveriesOfPayment: new DataLoader(async (paymentIds) =>
      grouped(
        paymentIds,
        await em.find(WebhookDelivery, { paymentId: { $in: [...paymentIds] } }, { populate: ['event'], orderBy: { createdAt: 'asc', id: 'asc' } }),
        (d) => d.paymentId!,
      ),
    ),
    attemptsOfDelivery: new DataLoader((deliveryIds) => attemptsOfDeliveries(em, deliveryIds)),
    balanceOfSeller: new DataLoader(async (sellerIds) => {
      const [figures, withdrawals, held] = await Promise.all([balanceFigures(em, sellerIds), withdrawalTotals(em, sellerIds), refundsHeld(em, sellerIds)]);
      return sellerIds.map((id) => ({
        sellerId: id, ...figures.get(id)!, pendingWithdrawals: withdrawals.get(id)!.pending, paidOut: withdrawals.get(id)!.paid, refundsHeld: held.get(id)!,
      }));
    }),
  };
}
