import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * deploy/prometheus/alerts.yml is valid (`promtool check rules`), its unit tests pass (`promtool test rules
 * alerts.test.yml`), and every alert has a test there in which it fires and one in which it stays quiet.
 * promtool comes with Debian's `prometheus` package, which .ci/run installs.
 */
const DIR = path.join(__dirname, '../../deploy/prometheus');
const RULES = fs.readFileSync(path.join(DIR, 'alerts.yml'), 'utf8');
const TESTS = fs.readFileSync(path.join(DIR, 'alerts.test.yml'), 'utf8');

function promtool(...args: string[]) {
  const run = spawnSync('promtool', args, { cwd: DIR, encoding: 'utf8' });
  if (run.error) throw new Error(`promtool did not run (${run.error.message}): apt-get install prometheus, as .ci/run does`);
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const alerts = [...RULES.matchAll(/^\s*- alert: (\w+)$/gm)].map((m) => m[1]);

test('promtool check rules: the file is valid', () => {
  const check = promtool('check', 'rules', 'alerts.yml');
  expect(check.output).toContain(`SUCCESS: ${alerts.length} rules found`);
  expect(check.status).toBe(0);
});

test('promtool test rules: every expectation of alerts.test.yml holds', () => {
  const run = promtool('test', 'rules', 'alerts.test.yml');
  expect(run.output).toContain('SUCCESS');
  expect(run.status).toBe(0);
});

test('every alert has a case where it fires and one where it stays quiet', () => {
  expect(alerts.length).toBeGreaterThanOrEqual(14);
  const cases = TESTS.split(/^\s*- eval_time: /m).slice(1).map((block) => ({
    alert: /alertname: (\w+)/.exec(block)?.[1],
    fires: !/exp_alerts: \[\]/.test(block),
  }));
  for (const alert of alerts) {
    expect({ alert, fires: cases.some((c) => c.alert === alert && c.fires) }).toEqual({ alert, fires: true });
    expect({ alert, quiet: cases.some((c) => c.alert === alert && !c.fires) }).toEqual({ alert, quiet: true });
  }
  // No test names an alert the rules do not have.
  expect(cases.map((c) => c.alert).filter((name) => !alerts.includes(name!))).toEqual([]);
});

test('every alert links its section of the on-call page', () => {
  const page = fs.readFileSync(path.join(__dirname, '../../docs/operations.md'), 'utf8');
  for (const alert of alerts) {
    expect(RULES).toContain(`runbook: "docs/operations.md#${alert.toLowerCase()}"`);
    expect({ alert, documented: new RegExp(`^#### ${alert}$`, 'm').test(page) }).toEqual({ alert, documented: true });
  }
});
