import { withinTime } from '../../src/shared/within-time';

const after = <T>(ms: number, settle: () => T | Promise<T>) => new Promise<T>((resolve, reject) => setTimeout(() => Promise.resolve().then(settle).then(resolve, reject), ms));

test('the work in time: its result', async () => {
  await expect(withinTime(after(5, () => 'done'), 200, 'late')).resolves.toBe('done');
});

test('the work failing in time: its error', async () => {
  await expect(withinTime(after(5, () => Promise.reject(new Error('refused'))), 200, 'late')).rejects.toThrow('refused');
});

test('time up first: the message; the work failing later is no unhandled rejection', async () => {
  const unhandled: unknown[] = [];
  const listener = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', listener);
  try {
    await expect(withinTime(after(40, () => Promise.reject(new Error('ECONNREFUSED'))), 5, 'redis did not answer in time')).rejects.toThrow('redis did not answer in time');
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(unhandled).toEqual([]);
  } finally {
    process.off('unhandledRejection', listener);
  }
});
