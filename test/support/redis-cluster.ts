import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import IORedis from 'ioredis';
import { freePort } from './processes';
import { suiteFixture } from './suite-fixture';

const run = promisify(execFile);

export interface OwnRedisCluster {
  /** REDIS_URL of the cluster: `redis-cluster://127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3`. */
  url: string;
  ports: number[];
  /** A plain client of one node (for looking at which node holds which keys). */
  node(port: number): IORedis;
  stop(): Promise<void>;
}

function startNode(port: number, dir: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--save', '', '--appendonly', 'no', '--dir', dir];
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server ${port} did not start:\n${output}`)), 10_000);
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      if (/Ready to accept connections/.test(output)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.on('exit', (code) => reject(new Error(`redis-server ${port} exited with ${code}:\n${output}`)));
  });
}

/** Three masters (no replicas) on free loopback ports, nothing persisted, joined with `redis-cli --cluster create`. */
export async function startRedisCluster(): Promise<OwnRedisCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'redis-cluster-'));
  const ports = [await freePort(), await freePort(), await freePort()];
  const children = await Promise.all(ports.map((port) => startNode(port, dir)));
  const nodes = new Map(ports.map((port) => [port, new IORedis(port, '127.0.0.1', { lazyConnect: true })]));
  const stop = async () => {
    for (const client of nodes.values()) client.disconnect();
    await Promise.all(
      children.map((child) => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGKILL'))))),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await run('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes']);
    // Every node must agree that all slots are served before a client can rely on the slot map.
    for (const client of nodes.values()) {
      for (let tries = 0; !/cluster_state:ok/.test(String(await client.cluster('INFO'))); tries++) {
        if (tries > 100) throw new Error('the cluster did not reach cluster_state:ok');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `redis-cluster://${ports.map((p) => `127.0.0.1:${p}`).join(',')}`, ports, node: (port) => nodes.get(port)!, stop };
}

/** A cluster for the file or the enclosing `describe` (suite-fixture.ts), killed after it. */
export function useRedisCluster(): Readonly<OwnRedisCluster> {
  return suiteFixture('useRedisCluster', startRedisCluster, (cluster) => cluster.stop());
}
