import { ENTITIES } from '../../src/apps/entities';
import { randomBytes } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { createSecretBox } from '../../src/modules/identity/secret-box';
import { AdminRole } from '../../src/modules/admins/admin-role';
import type { Admin } from '../../src/modules/admins/admin.entity';
import { createAdmin } from '../../src/modules/admins/admin.service';
import { claimForCard } from '../../src/modules/checkout/card-claim';
import { completeInOneStatement } from '../../src/modules/checkout/completion-statement';
import { openDatabase, type Database } from '../../src/platform/db/database';
import { createPayment } from '../../src/modules/payments/payment.service';
import { loadConfig } from '../../src/shared/config';
import { createLogger } from '../../src/shared/logger';
import { createSellerWithShop, type NewShop } from '../../src/modules/identity/shop-provisioning';
import { setPayoutAccount } from '../../src/modules/withdrawals/payout-account';
import { testRun } from './test-env';

/**
 * The databases open for the files of a mutation run's worker, while they share the sources (the mutation
 * environment, test/support/shared-context-environment.cjs, provides and closes them): Stryker starts Jest for every mutant,
 * and opening one (MikroORM's discovery of the entities, a pool, the migration check) cost every file of every mutant.
 */
const SHARED_DATABASES = Symbol.for('payments.mutation.databases');
const sharedDatabases = () => (globalThis as { [SHARED_DATABASES]?: Map<string, Promise<Database>> })[SHARED_DATABASES];

/**
 * The run's database for a module test: the services are called directly, with no HTTP server and no Redis.
 * Opened before the file's tests (migrating it if this worker is first) and closed after them. Each call of
 * `em()` is a fresh unit of work, as each request of the service gets one. `databaseUrl`: another database
 * instead (a `useEmptyDatabase` of the file's own, migrated here), read in `beforeAll`. `statementTimeoutMs`:
 * DATABASE_STATEMENT_TIMEOUT_MS of its connections (the service's default unless given), for a test that makes
 * PostgreSQL fail a statement; `pooler`: DATABASE_POOLER, as the service runs behind PgBouncer in transaction mode;
 * `orm()` hands the pool to what takes one (the mail workers' deps).
 */
export function useModuleDatabase(options: { poolSize?: number; statementTimeoutMs?: number; pooler?: 'pgbouncer-transaction'; databaseUrl?: () => string } = {}) {
  let database: Database | undefined;
  let shared = false;
  beforeAll(async () => {
    const url = options.databaseUrl?.() ?? testRun().databaseUrl;
    const timeout = options.statementTimeoutMs === undefined ? {} : { DATABASE_STATEMENT_TIMEOUT_MS: String(options.statementTimeoutMs) };
    const pooler = options.pooler ? { DATABASE_POOLER: options.pooler } : {};
    const config = loadConfig({ DATABASE_URL: url, DATABASE_POOL_SIZE: String(options.poolSize ?? 2), ...timeout, ...pooler });
    const open = sharedDatabases();
    shared = open !== undefined;
    if (!open) database = await openDatabase(config, createLogger('silent'), ENTITIES);
    else {
      const key = `${config.databasePoolSize} ${config.databaseStatementTimeoutMs} ${config.databasePooler} ${url}`;
      if (!open.has(key)) open.set(key, openDatabase(config, createLogger('silent'), ENTITIES));
      database = await open.get(key);
    }
  });
  afterAll(() => (shared ? undefined : database?.close()));

  const orm = (): MikroORM => {
    if (!database) throw new Error('the module database is opened in beforeAll: call em() or orm() inside a test or hook');
    return database.orm;
  };
  const em = (): EntityManager => orm().em.fork();
  const unique = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.com`;
  return {
    em,
    orm,
    /**
     * A seller of its own with its shop: balances and daily limits are per seller or shop, so tests do not share them.
     * `webhookUrl` is stored as given (not checked against the URL rule, which needs DNS): the shop then gets deliveries.
     * `payoutAccount`: the seller saves one (setPayoutAccount, the seller's notice included), as every withdrawal needs.
     */
    async newShop(label: string, options: { webhookUrl?: string; payoutAccount?: boolean } = {}): Promise<NewShop> {
      const box = createSecretBox(undefined);
      const created = await createSellerWithShop(em(), { email: unique(label), shopName: `${label} shop`, webhookUrl: options.webhookUrl ?? null }, box);
      if (options.payoutAccount) await setPayoutAccount(em(), box, created.seller.id, `${label} Ltd`, 'DE89370400440532013000');
      return created;
    },
    /**
     * A payment of `amount` cents paid in full, through the checkout's own steps: created, claimed for a card, then
     * completed by the completion statement, which books its journal (the seller is credited `amount` less the fee).
     */
    async completedPayment(shop: NewShop, amount: number): Promise<string> {
      const { payment } = await createPayment(em(), shop.shop.id, { amount, currency: 'usd', returnUrl: 'https://shop.example/back' });
      const claimed = await claimForCard(em(), payment.id, new Date(Date.now() - 3600_000), { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2031 });
      if (!claimed) throw new Error(`payment ${payment.id} was not claimed for a card`);
      const done = await completeInOneStatement(em(), {
        payment: { ...payment, test: false },
        shop: { id: shop.shop.id, name: shop.shop.name },
        processorReference: `psp-${payment.id}`,
        threeDsOutcome: undefined,
        baseUrl: 'https://pay.example',
      });
      if (!done.completed) throw new Error(`payment ${payment.id} was not completed`);
      return payment.id;
    },
    newAdmin: async (role: AdminRole = AdminRole.FINANCE): Promise<Admin> => (await createAdmin(em(), { email: unique('admin'), role, tokenTtlDays: 90 })).admin,
  };
}
