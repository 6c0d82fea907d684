import path from 'node:path';
import { startReceiver, type Receiver } from '../support/webhook-receiver';
import { callersProblems } from './support/calls';
import { sleep, startDaemon } from './support/daemons';
import { startMixedLoad } from './support/mixed-load';
import { startPostgresHa, type PatroniNode, type PostgresHa } from './support/postgres-ha';
import { say, seconds, type DrillReport } from './support/report';
import { runDrill } from './support/run-drill';
import { drillEnv, freePort, provisionActors, startServiceProcesses, type DrillActors, type ServiceProcesses } from './support/service-processes';
import { findings, findingsProblems, waitForQuiet } from './support/verify';
import { waitUntilWhole } from './support/whole-again';

/**
 * `npm run drill:failover`: the service and the worker on a two-node Patroni cluster behind HAProxy, under a
 * mixed load, through an unplanned failover (the primary's postmaster SIGKILLed) and a planned switchover.
 * Each must lose nothing acknowledged, book nothing twice, deliver each webhook once, answer callers 503 with
 * Retry-After (never 500, never a wait past 10 s) and heal without restarting any of our processes.
 */
const LOAD_BEFORE_MS = 4000;
const LOAD_AFTER_MS = 4000;

interface Scenario {
  name: string;
  disrupt(ha: PostgresHa): Promise<PatroniNode | undefined>;
}

const SCENARIOS: Scenario[] = [
  { name: 'unplanned failover: SIGKILL of the primary postmaster', disrupt: (ha) => ha.killLeaderPostmaster() },
  {
    name: 'planned switchover: Patroni REST POST /switchover',
    async disrupt(ha) {
      const former = await ha.leader();
      await ha.switchover();
      return former;
    },
  },
];

interface Setup {
  ha: PostgresHa;
  processes: ServiceProcesses;
  actors: DrillActors;
  receiver: Receiver;
  databaseUrl: string;
}

async function setUp(dir: string): Promise<Setup> {
  say('starting etcd, two PostgreSQL 15 nodes under Patroni (synchronous_mode) and HAProxy');
  const ha = await startPostgresHa(dir);
  const redisPort = await freePort();
  await startDaemon('redis', 'redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { logDir: dir, ready: /Ready to accept connections/ });
  const receiver = await startReceiver();
  const databaseUrl = ha.urlThroughHaproxy('payments');
  say(`starting the service and the worker on ${databaseUrl}`);
  const processes = await startServiceProcesses(dir, drillEnv(path.join(dir, 'data'), databaseUrl, `redis://127.0.0.1:${redisPort}`));
  const actors = await provisionActors(processes.env, receiver.url);
  return { ha, processes, actors, receiver, databaseUrl };
}

async function runScenario(setup: Setup, scenario: Scenario) {
  const { ha, processes, actors, receiver } = setup;
  say(`${scenario.name}: load for ${LOAD_BEFORE_MS / 1000} s`);
  const load = startMixedLoad(processes.baseUrl, actors);
  await sleep(LOAD_BEFORE_MS);
  const startedAt = Date.now();
  const former = await scenario.disrupt(ha);
  say(`${scenario.name}: ${former?.name} disrupted; waiting for a new primary and for the service to be whole`);
  // Both clocks run from the disruption: the cluster's (a new primary) and the service's (whole again).
  const whole = waitUntilWhole(load.log, processes.baseUrl, actors.apiKey, (id, key) => load.acknowledged.creates.set(id, key));
  const promoted = former ? await ha.waitNewLeader(former) : await ha.leader();
  const newPrimaryAt = Date.now();
  const wholeAt = await whole;
  await sleep(LOAD_AFTER_MS);
  await load.stop();
  say(`${scenario.name}: load stopped; waiting for the old primary to rejoin as synchronous standby, refunds and webhooks to settle`);
  const cluster = await ha.waitHealthy(90_000);
  await waitForQuiet(setup.databaseUrl);
  const found = await findings(setup.databaseUrl, processes.env, load.acknowledged, receiver);
  const gap = load.log.summary(startedAt, wholeAt);
  const overall = load.log.summary();
  const restarted = processes.service.exited() || processes.worker.exited();
  const problems = [
    ...findingsProblems(found),
    ...callersProblems(overall).map((p) => `callers: ${p}`),
    ...(restarted ? ['the service or the worker exited'] : []),
  ];
  return {
    name: scenario.name,
    ok: problems.length === 0,
    problems,
    former_primary: former?.name,
    new_primary: promoted?.name,
    seconds_to_new_primary: seconds(newPrimaryAt - startedAt),
    seconds_until_service_whole: seconds(wholeAt - startedAt),
    seconds_callers_saw_failures: load.log.failingSeconds(startedAt),
    cluster_after: cluster,
    our_processes_restarted: restarted,
    callers_during_gap: gap,
    callers_overall: overall,
    findings: found,
  };
}

runDrill('failover', async (dir, drillStartedAt) => {
  const setup = await setUp(dir);
  const pids = setup.processes.pids;
  const scenarios = [];
  for (const scenario of SCENARIOS) scenarios.push(await runScenario(setup, scenario));
  const samePids = setup.processes.service.child.pid === pids.service && setup.processes.worker.child.pid === pids.worker;
  const report: DrillReport = {
    drill: 'failover',
    ok: scenarios.every((s) => s.ok) && samePids,
    problems: scenarios.flatMap((s) => s.problems.map((p) => `${s.name}: ${p}`)),
    database_url: setup.databaseUrl,
    drill_seconds: seconds(Date.now() - drillStartedAt),
    scenarios,
  };
  await setup.receiver.close();
  return report;
});
