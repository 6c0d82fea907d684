import { writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { freePort } from '../../support/processes';
import { killPostmasterOf, onCleanup, postgresDir, postmasterPid, startDaemon, until, type Daemon } from './daemons';

/**
 * PostgreSQL 15 under Patroni, as production runs it: etcd holds the leader key, two nodes replicate
 * synchronously (`synchronous_mode`), and HAProxy sends connections to whichever node Patroni's REST API
 * calls the primary. The service only ever knows HAProxy's address.
 */
export interface PatroniNode {
  name: string;
  pgPort: number;
  restPort: number;
  dataDir: string;
  daemon: Daemon;
}

export interface PostgresHa {
  /** postgresql://postgres@127.0.0.1:<haproxy port>/<database>: what DATABASE_URL points at. */
  urlThroughHaproxy(database: string): string;
  nodes: PatroniNode[];
  /** The node whose Patroni answers 200 on GET /primary, or undefined while there is none. */
  leader(): Promise<PatroniNode | undefined>;
  /** SIGKILLs the leader's postmaster (Patroni stays, as on a machine where PostgreSQL crashed). */
  killLeaderPostmaster(): Promise<PatroniNode>;
  /** A planned switchover to the other node through Patroni's REST API (what `patronictl switchover` calls). */
  switchover(): Promise<{ from: string; to: string }>;
  /** Waits until a node other than `former` is primary; answers it. */
  waitNewLeader(former: PatroniNode, timeoutMs?: number): Promise<PatroniNode>;
  /** Both nodes running, one leader and one synchronous standby streaming from it. */
  waitHealthy(timeoutMs?: number): Promise<{ leader: string; syncStandby: string }>;
}

const PG_BIN = '/usr/lib/postgresql/15/bin';
/** What PostgreSQL and Patroni need as the cluster's identity on loopback (trust: nothing here is secret). */
const PG_HBA = ['local all all trust', 'local replication all trust', 'host all all 127.0.0.1/32 trust', 'host replication all 127.0.0.1/32 trust'];

export async function startEtcd(dir: string): Promise<{ endpoint: string }> {
  const [client, peer] = [await freePort(), await freePort()];
  await startDaemon(
    'etcd',
    '/usr/bin/etcd',
    [
      '--name', 'drill', '--data-dir', path.join(dir, 'etcd'),
      '--listen-client-urls', `http://127.0.0.1:${client}`, '--advertise-client-urls', `http://127.0.0.1:${client}`,
      '--listen-peer-urls', `http://127.0.0.1:${peer}`, '--initial-advertise-peer-urls', `http://127.0.0.1:${peer}`,
      '--initial-cluster', `drill=http://127.0.0.1:${peer}`, '--initial-cluster-state', 'new',
    ],
    { logDir: dir, ready: /ready to serve client requests/ },
  );
  return { endpoint: `127.0.0.1:${client}` };
}

/**
 * Patroni's settings for one node. Timing is production's shape, only shorter: a 1 s loop so the drill sees
 * the switch quickly, and `primary_start_timeout: 0` so a crashed primary fails over to the synchronous standby
 * (which holds every acknowledged commit) instead of restarting in place. JSON is valid YAML.
 */
function patroniConfig(scope: string, etcd: string, node: { name: string; pgPort: number; restPort: number; dir: string; dataDir: string }) {
  return {
    scope,
    name: node.name,
    log: { level: 'INFO' },
    restapi: { listen: `127.0.0.1:${node.restPort}`, connect_address: `127.0.0.1:${node.restPort}` },
    etcd3: { hosts: [etcd] },
    bootstrap: {
      dcs: {
        ttl: 20,
        loop_wait: 1,
        retry_timeout: 5,
        maximum_lag_on_failover: 1048576,
        primary_start_timeout: 0,
        synchronous_mode: true,
        postgresql: {
          use_pg_rewind: true,
          use_slots: true,
          parameters: { max_connections: 200, wal_log_hints: 'on', hot_standby: 'on', wal_keep_size: '256MB' },
        },
      },
      initdb: [{ encoding: 'UTF8' }, { locale: 'C.UTF-8' }],
      pg_hba: PG_HBA,
    },
    postgresql: {
      listen: `127.0.0.1:${node.pgPort}`,
      connect_address: `127.0.0.1:${node.pgPort}`,
      data_dir: node.dataDir,
      bin_dir: PG_BIN,
      pgpass: path.join(node.dir, 'pgpass'),
      pg_hba: PG_HBA,
      authentication: {
        superuser: { username: 'postgres', password: 'drill' },
        replication: { username: 'replicator', password: 'drill' },
        rewind: { username: 'postgres', password: 'drill' },
      },
      parameters: { unix_socket_directories: node.dir },
    },
    tags: { nofailover: false, noloadbalance: false, clonefrom: false, nosync: false },
  };
}

async function startPatroniNode(dir: string, scope: string, etcd: string, name: string): Promise<PatroniNode> {
  const nodeDir = postgresDir(path.join(dir, name));
  const dataDir = path.join(nodeDir, 'data');
  const node = { name, pgPort: await freePort(), restPort: await freePort(), dir: nodeDir, dataDir };
  const configFile = path.join(nodeDir, 'patroni.yml');
  writeFileSync(configFile, JSON.stringify(patroniConfig(scope, etcd, node), null, 2), { mode: 0o644 });
  onCleanup(() => killPostmasterOf(dataDir));
  const daemon = await startDaemon(name, '/usr/bin/patroni', [configFile], { logDir: dir, asPostgres: true });
  return { name, pgPort: node.pgPort, restPort: node.restPort, dataDir, daemon };
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

async function rest(node: PatroniNode, pathname: string, init?: RequestInit, timeoutMs = 2000): Promise<Response> {
  return fetch(`http://127.0.0.1:${node.restPort}${pathname}`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
}

/**
 * HAProxy in TCP mode: every 500 ms it asks each node's Patroni `GET /primary`; only the leader answers 200.
 * `on-marked-down shutdown-sessions` cuts connections to a node that stops being primary, so no client keeps
 * writing to a demoted node (it would be refused as read-only anyway).
 */
async function startHaproxy(dir: string, nodes: PatroniNode[]): Promise<number> {
  const port = await freePort();
  const config = [
    'global',
    '  maxconn 1000',
    'defaults',
    '  mode tcp',
    '  timeout connect 2s',
    '  timeout client 30m',
    '  timeout server 30m',
    '  timeout check 1s',
    'listen postgres_primary',
    `  bind 127.0.0.1:${port}`,
    '  option httpchk GET /primary',
    '  http-check expect status 200',
    '  default-server inter 500ms fastinter 250ms fall 2 rise 1 on-marked-down shutdown-sessions',
    ...nodes.map((n) => `  server ${n.name} 127.0.0.1:${n.pgPort} maxconn 400 check port ${n.restPort}`),
    '',
  ].join('\n');
  const file = path.join(dir, 'haproxy.cfg');
  writeFileSync(file, config);
  const haproxy = await startDaemon('haproxy', '/usr/sbin/haproxy', ['-db', '-f', file], { logDir: dir });
  await until('HAProxy to listen', async () => !haproxy.exited() && (await portOpen(port)), 10_000);
  return port;
}

export async function startPostgresHa(dir: string): Promise<PostgresHa> {
  const { endpoint } = await startEtcd(dir);
  const scope = `drill-${process.pid}`;
  const first = await startPatroniNode(dir, scope, endpoint, 'pg1');
  await until('pg1 to bootstrap and lead', async () => (await rest(first, '/primary')).status === 200, 60_000, 250);
  const second = await startPatroniNode(dir, scope, endpoint, 'pg2');
  const nodes = [first, second];
  const haproxyPort = await startHaproxy(dir, nodes);

  const leader = async () => {
    for (const node of nodes) if ((await rest(node, '/primary').catch(() => undefined))?.status === 200) return node;
    return undefined;
  };
  const cluster = async () => (await (await rest(first, '/cluster').catch(() => rest(second, '/cluster'))).json()) as { members: { name: string; role: string; state: string }[] };
  const ha: PostgresHa = {
    urlThroughHaproxy: (database) => `postgresql://postgres@127.0.0.1:${haproxyPort}/${database}`,
    nodes,
    leader,
    async killLeaderPostmaster() {
      const node = await until('a leader', leader, 10_000);
      const pid = postmasterPid(node.dataDir);
      if (!pid) throw new Error(`no postmaster.pid in ${node.dataDir}`);
      process.kill(pid, 'SIGKILL');
      return node;
    },
    async switchover() {
      const from = await until('a leader', leader, 10_000);
      const to = nodes.find((n) => n !== from)!;
      const answer = await rest(from, '/switchover', { method: 'POST', body: JSON.stringify({ leader: from.name, candidate: to.name }), headers: { 'Content-Type': 'application/json' } }, 60_000);
      if (answer.status !== 200) throw new Error(`switchover refused: ${answer.status} ${await answer.text()}`);
      return { from: from.name, to: to.name };
    },
    waitNewLeader: (former, timeoutMs = 60_000) => until('a new primary', async () => {
      const node = await leader();
      return node !== former ? node : undefined;
    }, timeoutMs, 100),
    async waitHealthy(timeoutMs = 60_000) {
      return until('a leader and a streaming synchronous standby', async () => {
        const { members } = await cluster();
        const lead = members.find((m) => m.role === 'leader' && m.state === 'running');
        const sync = members.find((m) => m.role === 'sync_standby' && (m.state === 'streaming' || m.state === 'running'));
        return lead && sync ? { leader: lead.name, syncStandby: sync.name } : undefined;
      }, timeoutMs, 250);
    },
  };
  await ha.waitHealthy(90_000);
  return ha;
}
