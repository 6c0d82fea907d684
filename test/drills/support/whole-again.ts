import type { CallLog } from './calls';
import { sleep } from './daemons';

/**
 * When the service is whole again after a disruption: /readyz answers 200 (database, Redis and workers) and a
 * payment can be created and read back, three probes in a row. Answers the time of the first of those probes.
 */
export async function waitUntilWhole(
  log: CallLog,
  baseUrl: string,
  apiKey: string,
  /** Told of each payment the probe created: it is an acknowledged create like any other. */
  onCreated: (id: string, key: string) => void,
  timeoutMs = 60_000,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  const auth = { Authorization: `Bearer ${apiKey}` };
  let streakStartedAt: number | null = null;
  let streak = 0;
  for (let i = 0; Date.now() < deadline; i++) {
    const startedAt = Date.now();
    const key = `probe-${startedAt}-${i}`;
    const ready = await log.call('probe:readyz', `${baseUrl}/readyz`, {});
    const created =
      ready?.status === 200 &&
      (await log.call('rest:create', `${baseUrl}/api/v1/payments`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...auth },
        body: JSON.stringify({ amount: 1000, currency: 'usd', return_url: 'https://shop.example.com/thanks', metadata: { key } }),
      }));
    if (created && created.status === 200) onCreated(created.body.data.id, key);
    const read = created && created.status === 200 && (await log.call('rest:retrieve', `${baseUrl}/api/v1/payments/${created.body.data.id}`, { headers: auth }));
    if (read && read.status === 200) {
      streakStartedAt ??= startedAt;
      if (++streak === 3) return streakStartedAt;
    } else {
      streak = 0;
      streakStartedAt = null;
    }
    await sleep(100);
  }
  throw new Error(`the service was not whole again within ${timeoutMs} ms`);
}
