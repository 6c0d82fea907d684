/**
 * The shape of every suite fixture (useServiceWithShop, useWebhookService, useBrowserService): what `start`
 * makes once for the file or the enclosing `describe` (beforeAll) and `stop` ends after it (afterAll), handed
 * out as an object whose fields are read when used. Call it at the top of the file, before your own hooks
 * (theirs run after its beforeAll); read the fields inside hooks and tests, never at the top level.
 */
export function suiteFixture<T extends object>(
  name: string,
  start: () => Promise<T>,
  stop: (started: T) => Promise<unknown>,
  /** For `start`; by default the file's (jest.setTimeout) or the configured one. */
  startTimeoutMs?: number,
): Readonly<T> {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  }, startTimeoutMs);
  afterAll(async () => {
    if (started) await stop(started);
  });
  return new Proxy({} as T, {
    get(_target, key) {
      if (typeof key === 'symbol') return undefined;
      if (!started) throw new Error(`${name}.${key} is read before the suite started: read it inside a hook or test`);
      return started[key as keyof T];
    },
  });
}
