/**
 * `work`'s result, or a rejection with `message` once `ms` have passed first. The work goes on when time is up;
 * the race has handled it, so its later failure is no unhandled rejection (which would end the process).
 */
export async function withinTime<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([work, timeUp]);
  } finally {
    clearTimeout(timer);
  }
}
