import path from 'node:path';
import { Client } from 'pg';
import { useEmptyDatabase } from '../support/databases';
import { usePrometheus, type PrometheusAlert } from '../support/prometheus-server';
import { sellerClient, VALID_PAYMENT } from '../support/seller-client';
import { useTestService } from '../support/test-service';

/**
 * The alert rules as Prometheus runs them: a real Prometheus scrapes the service every second and evaluates
 * deploy/prometheus/alerts.yml as it is. The fault is a money invariant broken on purpose in this test's own
 * database (a payment marked completed with no ledger entries): check-ledger's invariants, run for /metrics every
 * second here (LEDGER_CHECK_INTERVAL_MS), report it and LedgerInvariantViolated fires through /api/v1/alerts.
 */
jest.setTimeout(90_000);

const RULES = path.join(__dirname, '../../deploy/prometheus/alerts.yml');

const database = useEmptyDatabase('payments_alerts');
const service = useTestService(() => ({ DATABASE_URL: database.url, LEDGER_CHECK_INTERVAL_MS: '1000' }));
const prometheus = usePrometheus(() => new URL(service.url).host, [RULES]);

async function until<T>(what: string, found: () => Promise<T | undefined>, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await found();
    if (answer !== undefined) return answer;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

test('Prometheus scrapes the service, nothing fires on a healthy service, and a broken ledger fires LedgerInvariantViolated', async () => {
  // Scraped, and check-ledger's first result is in: every invariant at 0.
  await until('the first scrapes and ledger check', async () => {
    const violations = await prometheus.query('ledger_invariant_violations{job="payments"}');
    const up = await prometheus.query('up{job="payments"}');
    return up[0]?.value[1] === '1' && violations.length > 0 && violations.every((v) => v.value[1] === '0') ? true : undefined;
  });
  expect((await prometheus.query('readiness_check_up{job="payments", check="postgresql"}'))[0].value[1]).toBe('1');
  expect(await prometheus.alerts()).toEqual([]);

  const shop = await service.createShop();
  const payment = (await sellerClient(service.url, shop.apiKey).create(VALID_PAYMENT)).body.data;
  const db = new Client({ connectionString: database.url });
  await db.connect();
  try {
    await db.query(`update "payments" set "status" = 'completed', "checkout_stage" = 'finished', "completed_at" = now() where "id" = $1`, [payment.id]);
  } finally {
    await db.end();
  }

  const fired = await until('LedgerInvariantViolated to fire', async () => {
    const alerts = await prometheus.alerts();
    return alerts.find((a: PrometheusAlert) => a.labels.alertname === 'LedgerInvariantViolated' && a.labels.invariant === 'completed_payment_booked_once' && a.state === 'firing');
  });
  expect(fired.labels).toMatchObject({ severity: 'page', invariant: 'completed_payment_booked_once' });
  expect(fired.annotations.summary).toBe('Ledger invariant completed_payment_booked_once is broken (1 rows)');
  expect(fired.annotations.runbook).toBe('docs/operations.md#ledgerinvariantviolated');
  // The service said so in its log too.
  expect(service.logs.some((line) => line.msg === 'ledger invariants broken (npm run cli -- check-ledger lists them all)' && line.level === 50)).toBe(true);
});
