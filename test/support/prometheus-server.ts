import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './processes';
import { suiteFixture } from './suite-fixture';

export interface PrometheusAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  state: 'pending' | 'firing';
  value: string;
}

export interface OwnPrometheus {
  url: string;
  /** GET /api/v1/alerts: the alerts pending or firing now. */
  alerts(): Promise<PrometheusAlert[]>;
  /** An instant query's result vector. */
  query(promql: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  stop(): Promise<void>;
}

/**
 * A real Prometheus (Debian's `prometheus` package, which .ci/run installs) on a free loopback port, with its
 * own data directory, scraping `target` (host:port) as job `payments` and evaluating `ruleFiles`, both every
 * `intervalSeconds`. Never the system's port 9090.
 */
export async function startPrometheus(target: string, ruleFiles: string[], intervalSeconds = 1): Promise<OwnPrometheus> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prometheus-'));
  const config = path.join(dir, 'prometheus.yml');
  fs.writeFileSync(
    config,
    [
      'global:',
      `  scrape_interval: ${intervalSeconds}s`,
      `  evaluation_interval: ${intervalSeconds}s`,
      'rule_files:',
      ...ruleFiles.map((file) => `  - ${JSON.stringify(file)}`),
      'scrape_configs:',
      '  - job_name: payments',
      '    static_configs:',
      `      - targets: [${JSON.stringify(target)}]`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn('prometheus', [`--config.file=${config}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const spawned = await new Promise<Error | null>((resolve) => {
    child.once('error', resolve);
    child.once('spawn', () => resolve(null));
  });
  if (spawned) throw new Error(`prometheus did not start (${spawned.message}): apt-get install prometheus, as .ci/run does`);

  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ready = await fetch(`${url}/-/ready`).then((r) => r.ok, () => false);
    if (ready) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`prometheus did not become ready:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const api = async <T>(pathAndQuery: string): Promise<T> => {
    const body = (await (await fetch(`${url}${pathAndQuery}`)).json()) as { status: string; data: T; error?: string };
    if (body.status !== 'success') throw new Error(`prometheus ${pathAndQuery}: ${body.error}`);
    return body.data;
  };
  return {
    url,
    alerts: async () => (await api<{ alerts: PrometheusAlert[] }>('/api/v1/alerts')).alerts,
    query: async (promql) => (await api<{ result: { metric: Record<string, string>; value: [number, string] }[] }>(`/api/v1/query?query=${encodeURIComponent(promql)}`)).result,
    stop,
  };
}

/**
 * A Prometheus for the file or the enclosing `describe` (suite-fixture.ts). `target` is read when it starts, so it
 * can be the address of a service declared before it (`() => new URL(service.url).host`), which stops after it.
 */
export function usePrometheus(target: () => string, ruleFiles: string[], intervalSeconds?: number): Readonly<OwnPrometheus> {
  return suiteFixture('usePrometheus', () => startPrometheus(target(), ruleFiles, intervalSeconds), (prometheus) => prometheus.stop());
}
