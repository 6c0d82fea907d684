import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';

/** examples/seller-shop.mjs, the seller integration docs/integrate.md walks through. */
export const EXAMPLE_SHOP = path.resolve(__dirname, '../../examples/seller-shop.mjs');

export interface ExampleProcess {
  /** Where it listens (`http://127.0.0.1:<port>`). */
  url: string;
  output(): string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * One of examples/ run as a seller runs it (plain Node, only the settings given, PORT=0 unless given), once it prints
 * that it listens. Its output is kept whole, so a wait never misses a line printed before it began.
 */
export async function startExample(env: Record<string, string>, script = EXAMPLE_SHOP): Promise<ExampleProcess> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [script], {
    env: { PATH: process.env.PATH, PORT: '0', ...env },
  });
  let seen = '';
  child.stdout.on('data', (d) => (seen += d));
  child.stderr.on('data', (d) => (seen += d));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const waitFor = async (pattern: RegExp, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(seen)) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`example did not print ${pattern}; it printed:\n${seen}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  await waitFor(/"msg":"listening"/);
  const url = /"url":"([^"]+)"/.exec(seen)![1];
  return { url, output: () => seen, waitFor, stop: () => (child.kill(), exited) };
}
