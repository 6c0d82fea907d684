/** Fixtures of this file started and not stopped yet, oldest first (each test file has its own module registry). */
const running: { stop(): Promise<unknown>; released: boolean }[] = [];

/**
 * Stops, newest first, the fixtures whose afterAll has come, down to the first one still in use. Jest runs the
 * afterAll hooks of a block in the order they were declared, not in reverse: so a fixture declared first (an SMTP
 * sink) waits here until the fixtures declared after it in the same block (the service sending to it) have stopped.
 */
async function stopReleased(): Promise<void> {
  const errors: unknown[] = [];
  while (running.at(-1)?.released) {
    await running.pop()!.stop().catch((error: unknown) => errors.push(error));
  }
  if (errors.length) throw errors[0];
}

/**
 * The shape of every suite fixture (useTestService, useSmtpSink, useBrowserService, …): what `start` makes once
 * for the file or the enclosing `describe` (beforeAll) and `stop` ends after it (afterAll), handed out as an object
 * whose fields are read (and set) when used. Call it at the top of the file or `describe`, before your own hooks
 * (theirs run after its beforeAll); read the fields inside hooks and tests, never at the top level.
 *
 * Fixtures start in the order they are declared and stop in the reverse order, so a later one may be started
 * with what an earlier one answers: `const smtp = useSmtpSink(); useTestService(() => ({ SMTP_URL: smtp.url }))`
 * stops the service before the sink.
 */
export function suiteFixture<T extends object>(
  name: string,
  start: () => Promise<T>,
  stop: (started: T) => Promise<unknown>,
  /** For `start`; by default the file's (jest.setTimeout) or the configured one. */
  startTimeoutMs?: number,
): Readonly<T> {
  let started: T | undefined;
  let entry: (typeof running)[number] | undefined;
  beforeAll(async () => {
    const value = await start();
    started = value;
    entry = { stop: () => stop(value), released: false };
    running.push(entry);
  }, startTimeoutMs);
  afterAll(async () => {
    if (entry) entry.released = true;
    await stopReleased();
  });
  const current = (key: string): T => {
    if (!started) throw new Error(`${name}.${key} is read before the suite started: read it inside a hook or test`);
    return started;
  };
  return new Proxy({} as T, {
    get(_target, key) {
      if (typeof key === 'symbol') return undefined;
      const target = current(key);
      const value = target[key as keyof T];
      // Methods run on the started object itself: a class instance (a Browser, the Adyen stand-in) needs its own `this`.
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set(_target, key, value) {
      if (typeof key === 'symbol') return false;
      (current(key) as Record<string, unknown>)[key] = value;
      return true;
    },
  });
}
