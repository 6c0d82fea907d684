import path from 'node:path';
import { Client } from 'pg';
import { startReceiver } from '../support/webhook-receiver';
import { onCleanup, postgresDir, sleep, until } from './support/daemons';
import { startMixedLoad, type Acknowledged } from './support/mixed-load';
import { say, seconds, type DrillReport } from './support/report';
import { runDrill } from './support/run-drill';
import { checkLedger, drillEnv, provisionActors, startService } from './support/service-processes';
import { initCluster, runAsPostgres, startPostgres, writeReadable, type SinglePostgres } from './support/single-postgres';

/**
 * `npm run drill:restore`: point-in-time recovery with pgBackRest. A PostgreSQL archiving its WAL to a local
 * pgBackRest repository gets a full backup; the service takes payments; the drill notes a moment T; more
 * payments; then the cluster is restored to T (`--type=time`) into a new data directory and started. The
 * restored books must pass check-ledger and hold exactly the payments acknowledged before T. Prints the
 * recovery point (how far behind the archive runs) and the recovery time (restore plus replay).
 */
const STANZA = 'payments';
/** The longest a finished WAL segment waits before it is archived: the recovery point's bound. */
const ARCHIVE_TIMEOUT_SECONDS = 10;
const LOAD_MS = 3000;

interface Repository {
  config: string;
  run(command: string, extra?: string[]): Promise<string>;
}

/** A pgBackRest repository in a folder, and the stanza for the cluster in `dataDir`. */
function repository(dir: string, pg: { dataDir: string; port: number; socketDir: string }): Repository {
  const repo = postgresDir(path.join(dir, 'repository'));
  const spool = postgresDir(path.join(dir, 'pgbackrest'));
  const config = path.join(dir, 'pgbackrest.conf');
  writeReadable(
    config,
    [
      '[global]',
      `repo1-path=${repo}`,
      'repo1-retention-full=2',
      `log-path=${spool}`,
      `lock-path=${spool}`,
      `spool-path=${spool}`,
      'log-level-console=warn',
      'log-level-file=info',
      'start-fast=y',
      'compress-type=lz4',
      `[${STANZA}]`,
      `pg1-path=${pg.dataDir}`,
      `pg1-port=${pg.port}`,
      `pg1-socket-path=${pg.socketDir}`,
      '',
    ].join('\n'),
  );
  return { config, run: (command, extra = []) => runAsPostgres('/usr/bin/pgbackrest', [`--config=${config}`, `--stanza=${STANZA}`, ...extra, command]) };
}

async function sql<T = Record<string, unknown>>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Archiving on, every WAL segment pushed to the repository at once (`archive-push`) and at least every ARCHIVE_TIMEOUT_SECONDS. */
async function startArchivingPostgres(dir: string): Promise<{ pg: SinglePostgres; repo: Repository }> {
  const { home, dataDir } = await initCluster(dir, 'primary');
  const config = path.join(dir, 'pgbackrest.conf');
  const pg = await startPostgres(dir, 'primary', home, dataDir, {
    wal_level: 'replica',
    archive_mode: 'on',
    archive_command: `pgbackrest --config=${config} --stanza=${STANZA} archive-push %p`,
    archive_timeout: `${ARCHIVE_TIMEOUT_SECONDS}s`,
    max_wal_senders: '3',
  });
  const repo = repository(dir, pg);
  await repo.run('stanza-create');
  await repo.run('check');
  return { pg, repo };
}

/** A mixed load for LOAD_MS, stopped with every call answered: what it acknowledged is committed. */
async function takePayments(baseUrl: string, actors: Awaited<ReturnType<typeof provisionActors>>): Promise<Acknowledged> {
  const load = startMixedLoad(baseUrl, actors, { creators: 2, payers: 2 });
  await sleep(LOAD_MS);
  await load.stop();
  return load.acknowledged;
}

/** Seconds from a commit until the WAL segment holding it is in the repository, with no switch forced: the recovery point. */
async function measureArchiveLag(url: string): Promise<number> {
  const [{ wal }] = await sql<{ wal: string }>(url, `select pg_walfile_name(pg_current_wal_insert_lsn()) as wal from (select pg_logical_emit_message(false, 'drill', 'rpo')) m`);
  const committedAt = Date.now();
  await until(
    'the WAL segment to be archived',
    async () => {
      const [row] = await sql<{ last: string | null }>(url, 'select last_archived_wal as last from pg_stat_archiver');
      return row.last !== null && row.last.slice(8, 24) >= wal.slice(8, 24);
    },
    (ARCHIVE_TIMEOUT_SECONDS + 20) * 1000,
    100,
  );
  return seconds(Date.now() - committedAt);
}

async function restoreTo(dir: string, repo: Repository, target: string): Promise<{ pg: SinglePostgres; restoreSeconds: number; replaySeconds: number }> {
  const home = postgresDir(path.join(dir, 'restored'));
  const dataDir = path.join(home, 'data');
  const restoreStartedAt = Date.now();
  await repo.run('restore', [`--pg1-path=${dataDir}`, '--type=time', `--target=${target}`, '--target-action=promote']);
  const restoredAt = Date.now();
  // The restored cluster must not push its new timeline into the repository the original still archives to.
  const pg = await startPostgres(dir, 'restored', home, dataDir, { archive_mode: 'off' });
  return { pg, restoreSeconds: seconds(restoredAt - restoreStartedAt), replaySeconds: seconds(Date.now() - restoredAt) };
}

runDrill('restore', async (dir, drillStartedAt) => {
  say('starting PostgreSQL 15 with WAL archiving to a pgBackRest repository');
  const { pg, repo } = await startArchivingPostgres(dir);
  const receiver = await startReceiver();
  onCleanup(() => void receiver.close());
  const env = drillEnv(path.join(dir, 'data'), pg.url('payments'), undefined);
  const { baseUrl, service } = await startService(dir, env);
  const actors = await provisionActors(env, receiver.url);

  say('full backup');
  const backupStartedAt = Date.now();
  await repo.run('backup', ['--type=full']);
  const backupSeconds = seconds(Date.now() - backupStartedAt);

  say(`payments for ${LOAD_MS / 1000} s, then the moment T, then payments again`);
  const beforeT = await takePayments(baseUrl, actors);
  const [{ t }] = await sql<{ t: string }>(pg.url('payments'), 'select clock_timestamp()::text as t');
  await sleep(500);
  const afterT = await takePayments(baseUrl, actors);
  const archiveLagSeconds = await measureArchiveLag(pg.url('payments'));
  await service.stop();

  say(`restoring to T = ${t} into a new data directory`);
  const restored = await restoreTo(dir, repo, t);
  const restoredEnv = { ...env, DATABASE_URL: restored.pg.url('payments'), DATABASE_CREATE: '0' };
  const ledger = await checkLedger(restoredEnv);
  const rows = await sql<{ id: string; status: string }>(restored.pg.url('payments'), 'select id, status from payments');
  const restoredIds = new Set(rows.map((r) => r.id));
  const completedIds = new Set(rows.filter((r) => r.status === 'completed' || r.status === 'refunded').map((r) => r.id));

  const missingBeforeT = [...beforeT.creates.keys()].filter((id) => !restoredIds.has(id));
  const completionsMissing = [...beforeT.completions].filter((id) => !completedIds.has(id));
  const presentAfterT = [...afterT.creates.keys()].filter((id) => restoredIds.has(id));
  const unexpected = rows.filter((r) => !beforeT.creates.has(r.id)).length;
  const problems = [
    ...(ledger.clean ? [] : [`check-ledger on the restored database found ${ledger.violations.length} violations`]),
    ...(missingBeforeT.length ? [`${missingBeforeT.length} payments acknowledged before T are missing`] : []),
    ...(completionsMissing.length ? [`${completionsMissing.length} completions acknowledged before T are missing`] : []),
    ...(presentAfterT.length ? [`${presentAfterT.length} payments made after T were restored`] : []),
    ...(unexpected ? [`${unexpected} restored payments were never acknowledged before T`] : []),
    ...(beforeT.creates.size === 0 || afterT.creates.size === 0 ? ['the load made no payments: nothing was tested'] : []),
  ];
  const report: DrillReport = {
    drill: 'restore',
    ok: problems.length === 0,
    problems,
    target_time: t,
    payments_acknowledged_before_t: beforeT.creates.size,
    completions_acknowledged_before_t: beforeT.completions.size,
    payments_acknowledged_after_t: afterT.creates.size,
    payments_restored: rows.length,
    check_ledger_clean: ledger.clean,
    rpo: { archive_timeout_seconds: ARCHIVE_TIMEOUT_SECONDS, measured_archive_lag_seconds: archiveLagSeconds, payments_lost_before_t: missingBeforeT.length },
    rto: { restore_seconds: restored.restoreSeconds, replay_and_start_seconds: restored.replaySeconds, total_seconds: Math.round((restored.restoreSeconds + restored.replaySeconds) * 10) / 10 },
    full_backup_seconds: backupSeconds,
    drill_seconds: seconds(Date.now() - drillStartedAt),
  };
  return report;
});
