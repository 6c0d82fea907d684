/**
 * REDIS_URL names one Redis (`redis://host:port/db`, `rediss://` for TLS) or a Redis Cluster:
 * `redis-cluster://[user:password@]host1:port1,host2:port2,…` (`rediss-cluster://` for TLS), a few of its
 * nodes from which the client learns the rest (docs/scaling.md, "Redis Cluster").
 */
export type RedisTarget =
  | { kind: 'single'; url: string }
  | { kind: 'cluster'; nodes: { host: string; port: number }[]; username?: string; password?: string; tls: boolean };

const CLUSTER = /^(rediss?)-cluster:\/\/(?:([^:@/]*)(?::([^@/]*))?@)?([^/?#]+)\/?$/;
const NODE = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

/** The target named by `raw`, or undefined when it is neither form. */
export function parseRedisTarget(raw: string): RedisTarget | undefined {
  const cluster = CLUSTER.exec(raw);
  if (cluster) {
    const [, scheme, username, password, list] = cluster;
    const nodes = list.split(',').map((node) => NODE.exec(node.trim()));
    if (nodes.some((node) => !node || Number(node[2]) < 1 || Number(node[2]) > 65535)) return undefined;
    return {
      kind: 'cluster',
      nodes: nodes.map((node) => ({ host: node![1].replace(/^\[|\]$/g, ''), port: Number(node![2]) })),
      username: username ? decodeURIComponent(username) : undefined,
      password: password ? decodeURIComponent(password) : undefined,
      tls: scheme === 'rediss',
    };
  }
  if (!URL.canParse(raw) || !['redis:', 'rediss:'].includes(new URL(raw).protocol)) return undefined;
  return { kind: 'single', url: raw };
}
