/**
 * A drill's outcome: one JSON document with `--json` (for CI logs and scripts), otherwise readable lines. The
 * exit code is 1 when any check failed, so `.ci/run` fails with the drill.
 */
export interface DrillReport {
  drill: string;
  ok: boolean;
  problems: string[];
  [detail: string]: unknown;
}

/** `npm run drill:… -- --json`, or `npm run drill:… --json` (npm keeps that flag and says so in npm_config_json). */
export function wantsJson(argv = process.argv): boolean {
  return argv.includes('--json') || process.env.npm_config_json === 'true';
}

export function printReport(report: DrillReport): void {
  if (wantsJson()) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  process.stdout.write(`${report.drill}: ${report.ok ? 'PASSED' : 'FAILED'}\n`);
  for (const problem of report.problems) process.stdout.write(`  problem: ${problem}\n`);
  const { drill: _drill, ok: _ok, problems: _problems, ...details } = report;
  process.stdout.write(`${JSON.stringify(details, null, 2)}\n`);
}

/** Progress for the person watching, on standard error (standard output carries the report only). */
export function say(line: string): void {
  process.stderr.write(`[drill ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
}

export const seconds = (ms: number) => Math.round(ms / 100) / 10;
