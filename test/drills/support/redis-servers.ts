import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import IORedis from 'ioredis';
import { freePort } from '../../support/processes';
import { startDaemon, until, type Daemon } from './daemons';

const run = promisify(execFile);

/** Nothing persisted: a Redis that restarts comes back empty, the case the drill is about. */
const EPHEMERAL = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];

export function startRedis(logDir: string, port: number, name = 'redis'): Promise<Daemon> {
  return startDaemon(name, 'redis-server', ['--port', String(port), ...EPHEMERAL], { logDir, ready: /Ready to accept connections/ });
}

export interface RedisClusterNodes {
  /** REDIS_URL: `redis-cluster://` and the three masters' addresses (ioredis learns the rest). */
  url: string;
  daemons: Map<number, Daemon>;
  /** The master serving the slot of `key`, and its replica's port. */
  masterOf(key: string): Promise<{ port: number; replicaPort: number }>;
  /** Waits until a live node serves the slot of `key` as master again and every slot is covered. */
  waitServed(key: string, timeoutMs?: number): Promise<number>;
  close(): void;
}

interface ClusterNode {
  port: number;
  id: string;
  master: boolean;
  masterId: string;
  failed: boolean;
  slots: [number, number][];
}

function parseNodes(text: string): ClusterNode[] {
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const [id, address, flags, masterId, , , , , ...slots] = line.split(' ');
      return {
        id,
        port: Number(address.split('@')[0].split(':')[1]),
        master: flags.includes('master'),
        masterId,
        failed: flags.includes('fail'),
        slots: slots.filter((s) => !s.startsWith('[')).map((s) => s.split('-').map(Number) as [number, number]).map(([a, b]) => [a, b ?? a] as [number, number]),
      };
    });
}

/**
 * Three masters and three replicas on free loopback ports, joined by `redis-cli --cluster create
 * --cluster-replicas 1`. A short node time-out (2 s) so a dead master's replica takes over within seconds.
 */
export async function startRedisClusterWithReplicas(logDir: string): Promise<RedisClusterNodes> {
  const ports: number[] = [];
  for (let i = 0; i < 6; i++) ports.push(await freePort());
  const daemons = new Map<number, Daemon>();
  for (const port of ports) {
    const args = ['--port', String(port), ...EPHEMERAL, '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '2000', '--dir', logDir];
    daemons.set(port, await startDaemon(`redis-cluster-${port}`, 'redis-server', args, { logDir, ready: /Ready to accept connections/ }));
  }
  await run('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '1', '--cluster-yes']);
  const clients = new Map(ports.map((port) => [port, new IORedis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null })]));
  // The drill kills a node on purpose: its client's connection errors are expected, not worth a console line.
  for (const client of clients.values()) client.on('error', () => undefined);
  const alive = () => ports.filter((p) => !daemons.get(p)!.exited());
  const nodesSeenBy = async (port: number) => parseNodes(String(await clients.get(port)!.cluster('NODES')));
  const slotOf = async (key: string) => Number(await clients.get(alive()[0])!.cluster('KEYSLOT', key));

  await until('every node to see the cluster whole, each master with its replica', async () => {
    for (const port of ports) if (!/cluster_state:ok/.test(String(await clients.get(port)!.cluster('INFO')))) return false;
    const nodes = await nodesSeenBy(ports[0]);
    return nodes.filter((n) => !n.master && !n.failed).length === 3;
  }, 30_000, 200);

  const masterServing = async (slot: number, viewer: number) => (await nodesSeenBy(viewer)).find((n) => n.master && !n.failed && n.slots.some(([a, b]) => slot >= a && slot <= b));
  return {
    url: `redis-cluster://${ports.slice(0, 3).map((p) => `127.0.0.1:${p}`).join(',')}`,
    daemons,
    async masterOf(key) {
      const slot = await slotOf(key);
      const nodes = await nodesSeenBy(alive()[0]);
      const master = (await masterServing(slot, alive()[0]))!;
      const replica = nodes.find((n) => !n.master && n.masterId === master.id)!;
      return { port: master.port, replicaPort: replica.port };
    },
    async waitServed(key, timeoutMs = 30_000) {
      const slot = await slotOf(key);
      return until('a live master for the slot, and cluster_state:ok', async () => {
        const viewer = alive()[0];
        const master = await masterServing(slot, viewer);
        const ok = /cluster_state:ok/.test(String(await clients.get(viewer)!.cluster('INFO')));
        return ok && master && alive().includes(master.port) ? master.port : undefined;
      }, timeoutMs, 100);
    },
    close() {
      for (const client of clients.values()) client.disconnect();
    },
  };
}
