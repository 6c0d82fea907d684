import { AsyncLocalStorage } from 'node:async_hooks';

type Storage = AsyncLocalStorage<unknown>;

const APPLIED = Symbol.for('hosted-checkout.asyncContextWhileRunning');
const KEPT_ON = Symbol.for('hosted-checkout.asyncContextKeptOn');

/**
 * Node 20 carries an AsyncLocalStorage's value with a promise hook that runs on every promise the process
 * creates, and the hook stays on from the first `run()` until `disable()`, which nobody calls. MikroORM
 * runs one for every flush and transaction, so after the first write the hook taxed every request,
 * including the seller's retrieve and create that use no storage at all: 13-16% of their CPU
 * (docs/performance.md).
 *
 * With this, a storage is enabled only while one of its `run()` calls is unfinished: a `run` whose callback
 * returns a promise counts until that promise settles, and when the last one has, the storage is disabled
 * and, once no storage is enabled, Node turns the hook off. Inside a run nothing changes. Outside every run
 * `getStore()` is `undefined`, as it would be anyway, except for work a run started and did not wait for:
 * that work loses the value once the run has finished. MikroORM's runs wait for all their work (a flush, a
 * transaction, a find-and-count), and our code never reads a storage. A storage ever given a value with
 * `enterWith()` (which has no end) stays enabled for good.
 *
 * Applied once per process (openDatabase calls it); applying it again does nothing.
 */
export function enableAsyncContextOnlyWhileRunning(): void {
  const prototype = AsyncLocalStorage.prototype as Storage & { [APPLIED]?: true };
  if (prototype[APPLIED]) return;
  const originalRun = prototype.run;
  const originalEnterWith = prototype.enterWith;
  const unfinished = new WeakMap<Storage, number>();
  const entered = new WeakSet<Storage>();

  const finished = (storage: Storage) => {
    const left = (unfinished.get(storage) ?? 1) - 1;
    unfinished.set(storage, left);
    if (left === 0 && !entered.has(storage) && !(prototype as { [KEPT_ON]?: true })[KEPT_ON]) storage.disable();
  };

  prototype.run = function run<R>(this: Storage, store: unknown, callback: (...args: unknown[]) => R, ...args: unknown[]): R {
    unfinished.set(this, (unfinished.get(this) ?? 0) + 1);
    let result: R;
    try {
      result = originalRun.call(this, store, callback, ...args) as R;
    } catch (error) {
      finished(this);
      throw error;
    }
    if (isPromiseLike(result)) {
      // The caller gets the same promise, and its rejection, to await as before.
      result.then(() => finished(this), () => finished(this));
    } else {
      finished(this);
    }
    return result;
  } as Storage['run'];

  prototype.enterWith = function enterWith(this: Storage, store: unknown) {
    entered.add(this);
    originalEnterWith.call(this, store);
  };
  Object.defineProperty(prototype, APPLIED, { value: true });
}

/**
 * With tracing on, OpenTelemetry carries the active span in an AsyncLocalStorage through every request and job,
 * so the promise hook is on for good anyway, and disabling the storage between runs would lose the span of work
 * a run started (a request handler returns before its work is done). This turns the above off for the process:
 * called by src/platform/observability/tracing-sdk.ts before the SDK starts (and so before openDatabase applies it).
 */
export function keepAsyncContextOn(): void {
  const prototype = AsyncLocalStorage.prototype as Storage & { [APPLIED]?: true; [KEPT_ON]?: true };
  if (!prototype[KEPT_ON]) Object.defineProperty(prototype, KEPT_ON, { value: true });
  if (!prototype[APPLIED]) Object.defineProperty(prototype, APPLIED, { value: true });
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}
