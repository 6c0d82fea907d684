import path from 'node:path';
import { startReceiver, type Receiver } from '../support/webhook-receiver';
import { callersProblems, type CallLog } from './support/calls';
import { sleep } from './support/daemons';
import { startMixedLoad, type MixedLoad } from './support/mixed-load';
import { startRedis, startRedisClusterWithReplicas } from './support/redis-servers';
import { say, seconds, type DrillReport } from './support/report';
import { runDrill } from './support/run-drill';
import { drillEnv, freePort, provisionActors, startServiceProcesses, type DrillActors, type ServiceProcesses } from './support/service-processes';
import { initCluster, startPostgres } from './support/single-postgres';
import { findings, findingsProblems, waitForQuiet } from './support/verify';
import { waitUntilWhole } from './support/whole-again';

/**
 * `npm run drill:redis`: Redis lost under load. First one Redis, SIGKILLed and started again empty on its port;
 * then a Redis Cluster (three masters, three replicas) losing the master that holds the queues' hash slot.
 * Nothing acknowledged may be lost, every webhook must arrive exactly once (the outbox in PostgreSQL re-enqueues
 * what the queue forgot), and the limits must do what docs/operations.md says: while Redis is away each process
 * counts alone (fail open, but bounded), and counts Redis held are forgotten when it comes back empty.
 */
const AUTH_FAILURES_PER_MINUTE = 10;
const LOAD_BEFORE_MS = 3000;
const OUTAGE_MS = 3000;
const LOAD_AFTER_MS = 3000;

interface Deployment {
  processes: ServiceProcesses;
  actors: DrillActors;
}

/** Failed authentications from one client address (X-Forwarded-For, the service trusting loopback): how many 401 before 429. */
async function authFailures(log: CallLog, baseUrl: string, address: string) {
  const counts: Record<string, number> = {};
  for (let i = 0; i < AUTH_FAILURES_PER_MINUTE + 3; i++) {
    const answer = await log.call('probe:auth-failure', `${baseUrl}/api/v1/payments/test`, {
      headers: { Authorization: 'Bearer svc_live_drill_not_a_key', 'X-Forwarded-For': address },
    });
    const status = String(answer?.status ?? 'none');
    counts[status] = (counts[status] ?? 0) + 1;
  }
  return counts;
}

const limited = (counts: Record<string, number>) => (counts['401'] ?? 0) <= AUTH_FAILURES_PER_MINUTE && (counts['429'] ?? 0) > 0;

async function finish(load: MixedLoad, deployment: Deployment, databaseUrl: string, receiver: Receiver, startedAt: number, wholeAt: number) {
  await sleep(LOAD_AFTER_MS);
  await load.stop();
  await waitForQuiet(databaseUrl);
  const found = await findings(databaseUrl, deployment.processes.env, load.acknowledged, receiver);
  const restarted = deployment.processes.service.exited() || deployment.processes.worker.exited();
  return {
    found,
    restarted,
    seconds_until_service_whole: seconds(wholeAt - startedAt),
    seconds_callers_saw_failures: load.log.failingSeconds(startedAt),
    callers_during_outage: load.log.summary(startedAt, wholeAt),
    callers_overall: load.log.summary(),
    problems: [...findingsProblems(found), ...callersProblems(load.log.summary()).map((p) => `callers: ${p}`), ...(restarted ? ['the service or the worker exited'] : [])],
  };
}

async function singleRedisLost(dir: string, databaseUrl: string, receiver: Receiver) {
  const port = await freePort();
  let redis = await startRedis(dir, port);
  const env = drillEnv(path.join(dir, 'data'), databaseUrl, `redis://127.0.0.1:${port}`, { TRUST_PROXY: 'loopback', AUTH_FAILURES_PER_MINUTE: String(AUTH_FAILURES_PER_MINUTE) });
  const processes = await startServiceProcesses(dir, env);
  const deployment = { processes, actors: await provisionActors(env, receiver.url) };
  say(`one Redis: load for ${LOAD_BEFORE_MS / 1000} s, then SIGKILL`);
  const load = startMixedLoad(processes.baseUrl, deployment.actors);
  await sleep(LOAD_BEFORE_MS);
  const limitsBefore = await authFailures(load.log, processes.baseUrl, '198.51.100.1');
  const startedAt = Date.now();
  await redis.stop('SIGKILL');
  await sleep(300);
  const limitsWhileAway = await authFailures(load.log, processes.baseUrl, '198.51.100.2');
  await sleep(Math.max(0, OUTAGE_MS - (Date.now() - startedAt)));
  say('Redis started again, empty, on the same port');
  redis = await startRedis(dir, port, 'redis-restarted');
  const wholeAt = await waitUntilWhole(load.log, processes.baseUrl, deployment.actors.apiKey, (id, key) => load.acknowledged.creates.set(id, key));
  const limitsAfter = await authFailures(load.log, processes.baseUrl, '198.51.100.1');
  const outcome = await finish(load, deployment, databaseUrl, receiver, startedAt, wholeAt);
  const rateLimitProblems = [
    ...(limited(limitsBefore) ? [] : ['rate limits: the failed-authentication limit did not apply with Redis up']),
    ...(limited(limitsWhileAway) ? [] : ['rate limits: the failed-authentication limit did not apply per process while Redis was away']),
    ...(limitsAfter['401'] === AUTH_FAILURES_PER_MINUTE ? [] : ['rate limits: counts held by the lost Redis were not forgotten']),
  ];
  await processes.worker.stop();
  await processes.service.stop();
  return {
    name: 'one Redis: SIGKILL, then started again empty on the same port',
    ok: outcome.problems.length + rateLimitProblems.length === 0,
    problems: [...outcome.problems, ...rateLimitProblems],
    outage_seconds: OUTAGE_MS / 1000,
    seconds_until_service_whole: outcome.seconds_until_service_whole,
    seconds_callers_saw_failures: outcome.seconds_callers_saw_failures,
    rate_limits: {
      behaviour: 'fail open but bounded: while Redis is away each process counts alone with the same budget; counts Redis held are lost with it',
      failed_authentications_with_redis: limitsBefore,
      failed_authentications_while_away: limitsWhileAway,
      failed_authentications_same_address_after_restart: limitsAfter,
    },
    our_processes_restarted: outcome.restarted,
    callers_during_outage: outcome.callers_during_outage,
    callers_overall: outcome.callers_overall,
    findings: outcome.found,
  };
}

async function clusterMasterLost(dir: string, databaseUrl: string, receiver: Receiver) {
  say('Redis Cluster: three masters, three replicas');
  const cluster = await startRedisClusterWithReplicas(dir);
  const prefix = 'drillc:';
  const env = drillEnv(path.join(dir, 'data'), databaseUrl, cluster.url, { REDIS_KEY_PREFIX: prefix, TRUST_PROXY: 'loopback', AUTH_FAILURES_PER_MINUTE: String(AUTH_FAILURES_PER_MINUTE) });
  const processes = await startServiceProcesses(dir, env, '-cluster');
  const deployment = { processes, actors: await provisionActors(env, receiver.url) };
  // The queues' keys share one hash slot (src/shared/redis.ts, bullPrefix): losing its master stops every queue at once.
  const queuesKey = `{${prefix}bull}`;
  const victim = await cluster.masterOf(queuesKey);
  say(`Redis Cluster: load for ${LOAD_BEFORE_MS / 1000} s, then SIGKILL of master ${victim.port} (the queues' slot; replica ${victim.replicaPort})`);
  const load = startMixedLoad(processes.baseUrl, deployment.actors);
  await sleep(LOAD_BEFORE_MS);
  const startedAt = Date.now();
  await cluster.daemons.get(victim.port)!.stop('SIGKILL');
  const limitsWhileFailingOver = await authFailures(load.log, processes.baseUrl, '198.51.100.3');
  const newMaster = await cluster.waitServed(queuesKey);
  const promotedAt = Date.now();
  const wholeAt = await waitUntilWhole(load.log, processes.baseUrl, deployment.actors.apiKey, (id, key) => load.acknowledged.creates.set(id, key));
  const outcome = await finish(load, deployment, databaseUrl, receiver, startedAt, wholeAt);
  cluster.close();
  const rateLimitProblems = limited(limitsWhileFailingOver) ? [] : ['rate limits: the failed-authentication limit did not apply during the cluster failover'];
  return {
    name: 'Redis Cluster: SIGKILL of the master holding the queues, its replica takes over',
    ok: outcome.problems.length + rateLimitProblems.length === 0 && newMaster === victim.replicaPort,
    problems: [...outcome.problems, ...rateLimitProblems, ...(newMaster === victim.replicaPort ? [] : [`slot served by ${newMaster}, not the replica ${victim.replicaPort}`])],
    killed_master: victim.port,
    promoted_replica: newMaster,
    seconds_to_replica_promoted: seconds(promotedAt - startedAt),
    seconds_until_service_whole: outcome.seconds_until_service_whole,
    seconds_callers_saw_failures: outcome.seconds_callers_saw_failures,
    rate_limits: { failed_authentications_during_failover: limitsWhileFailingOver },
    our_processes_restarted: outcome.restarted,
    callers_during_outage: outcome.callers_during_outage,
    callers_overall: outcome.callers_overall,
    findings: outcome.found,
  };
}

runDrill('redis', async (dir, drillStartedAt) => {
  const { home, dataDir } = await initCluster(dir, 'postgres');
  const pg = await startPostgres(dir, 'postgres', home, dataDir, { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '200' });
  const receiver = await startReceiver();
  const databaseUrl = pg.url('payments');
  const scenarios = [await singleRedisLost(dir, databaseUrl, receiver), await clusterMasterLost(dir, databaseUrl, receiver)];
  await receiver.close();
  const report: DrillReport = {
    drill: 'redis',
    ok: scenarios.every((s) => s.ok),
    problems: scenarios.flatMap((s) => s.problems.map((p) => `${s.name}: ${p}`)),
    drill_seconds: seconds(Date.now() - drillStartedAt),
    scenarios,
  };
  return report;
});
