import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

export const PROJECT_ROOT = path.resolve(__dirname, '../..');

/** Runs `node dist/src/apps/<script>` (what `npm start` / `npm run cli` run after building) and collects its output. */
export function runNode(script: string, args: string[], env: Record<string, string | undefined>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawnNode(script, args, env);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs a built app as `npm start`, `npm run worker` or `npm run cli` does: the CLI from its bundle (scripts/bundle-cli.mjs). */
export function spawnNode(script: string, args: string[], env: Record<string, string | undefined>): ChildProcessWithoutNullStreams {
  const cleanEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...env };
  const entry = script === 'cli.js' ? 'dist/bundle/cli.js' : path.join('dist/src/apps', script);
  return spawn(process.execPath, [path.join(PROJECT_ROOT, entry), ...args], { cwd: PROJECT_ROOT, env: cleanEnv as NodeJS.ProcessEnv });
}

/** A child process whose whole stdout is kept, so a wait never misses what was printed before it began. */
export interface WatchedProcess {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Sends `signal` and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function watchNode(script: string, args: string[], env: Record<string, string | undefined>): WatchedProcess {
  const child = spawnNode(script, args, env);
  let seen = '';
  let exitCode: number | null | undefined;
  child.stdout.on('data', (d) => (seen += d));
  child.stderr.on('data', (d) => (seen += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve((exitCode = code))));
  return {
    child,
    stdout: () => seen,
    waitFor: (pattern, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        const deadline = Date.now() + timeoutMs;
        const check = () => {
          if (pattern.test(seen)) return resolve(seen);
          if (exitCode !== undefined) return reject(new Error(`exited with ${exitCode} before ${pattern}; got:\n${seen}`));
          if (Date.now() > deadline) return reject(new Error(`timed out waiting for ${pattern}; got:\n${seen}`));
          setTimeout(check, 50);
        };
        check();
      }),
    stop: (signal = 'SIGTERM') => {
      if (exitCode === undefined) child.kill(signal);
      return exited;
    },
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
