import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { equalityMatchersOf, exposedNames, metricNamesOf, ruleExpressions } from '../../support/promql';
import { useServiceWithShop } from '../../support/test-service';

/**
 * deploy/grafana/payments.json (the on-call dashboard) and deploy/prometheus/alerts.yml against what the service
 * really exposes: every PromQL expression names only series that a running service's GET /metrics offers
 * (histograms with their _bucket, _sum and _count), besides Prometheus's own `up`.
 */
const ROOT = path.join(__dirname, '../../..');
const DASHBOARD_FILE = path.join(ROOT, 'deploy/grafana/payments.json');
const PROMETHEUS_OWN = new Set(['up']);
/** Gauges every scrape sets, by label: a value a panel or rule matches must be one the service writes. */
const SAMPLED_AT_SCRAPE = ['queue_depth', 'readiness_check_up', 'mails_needing_attention', 'reconciliation_needs_attention'];

interface Panel {
  type: string;
  title: string;
  gridPos: { h: number; w: number; x: number; y: number };
  targets?: { expr: string; refId: string }[];
  panels?: Panel[];
}

const app = useServiceWithShop();
let exposition: string;
let exposed: Map<string, string>;

beforeAll(async () => {
  const res = await request(app.service.url).get('/metrics');
  expect(res.status).toBe(200);
  exposition = res.text;
  exposed = exposedNames(exposition);
});

function dashboard() {
  return JSON.parse(fs.readFileSync(DASHBOARD_FILE, 'utf8')) as { title: string; uid: string; panels: Panel[]; templating: { list: { name: string }[] } };
}

const allPanels = (panels: Panel[]): Panel[] => panels.flatMap((p) => [p, ...allPanels(p.panels ?? [])]);

test('the dashboard is valid JSON with a title, a uid, a Prometheus data source variable and panels on a 24-column grid', () => {
  const board = dashboard();
  expect(board.title).toBeTruthy();
  expect(board.uid).toMatch(/^[a-z0-9-]{1,40}$/);
  expect(board.templating.list.map((v) => v.name)).toEqual(expect.arrayContaining(['datasource', 'instance']));
  const panels = allPanels(board.panels);
  const ids = panels.map((p) => (p as unknown as { id: number }).id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const panel of panels) {
    expect(panel.gridPos.x + panel.gridPos.w).toBeLessThanOrEqual(24);
    if (panel.type === 'row') continue;
    expect({ title: panel.title, targets: (panel.targets?.length ?? 0) > 0 }).toEqual({ title: panel.title, targets: true });
  }
  // The sections the on-call engineer looks for.
  const rows = panels.filter((p) => p.type === 'row').map((p) => p.title);
  expect(rows).toEqual(expect.arrayContaining(['Traffic', 'Errors', 'Latency', 'Money flow', 'Queues', 'Reconciliation', 'Mail']));
});

test("every panel's every expression names only series the service's /metrics exposes", () => {
  const unknown: string[] = [];
  let expressions = 0;
  for (const panel of allPanels(dashboard().panels)) {
    for (const target of panel.targets ?? []) {
      expressions++;
      const names = metricNamesOf(target.expr);
      expect({ panel: panel.title, expr: target.expr, names: names.length > 0 }).toEqual({ panel: panel.title, expr: target.expr, names: true });
      for (const name of names) if (!exposed.has(name) && !PROMETHEUS_OWN.has(name)) unknown.push(`${panel.title}: ${name}`);
      for (const metric of SAMPLED_AT_SCRAPE) {
        for (const [label, value] of equalityMatchersOf(target.expr, metric)) {
          if (label === 'job' || label === 'instance') continue;
          expect(exposition).toContain(`${metric}{${label}="${value}"`);
        }
      }
    }
  }
  expect(expressions).toBeGreaterThan(25);
  expect(unknown).toEqual([]);
});

test('so does every alert rule, and the dashboard shows each series an alert reads', () => {
  const rules = ruleExpressions(fs.readFileSync(path.join(ROOT, 'deploy/prometheus/alerts.yml'), 'utf8'));
  expect(rules.length).toBeGreaterThanOrEqual(14);
  const shown = new Set(allPanels(dashboard().panels).flatMap((p) => (p.targets ?? []).flatMap((t) => metricNamesOf(t.expr))));
  for (const { alert, expr } of rules) {
    const names = metricNamesOf(expr);
    expect({ alert, names: names.length > 0 }).toEqual({ alert, names: true });
    expect({ alert, unknown: names.filter((n) => !exposed.has(n) && !PROMETHEUS_OWN.has(n)) }).toEqual({ alert, unknown: [] });
    expect({ alert, notShown: names.filter((n) => !shown.has(n)) }).toEqual({ alert, notShown: [] });
    for (const metric of SAMPLED_AT_SCRAPE) {
      for (const [label, value] of equalityMatchersOf(expr, metric)) {
        if (label !== 'job' && label !== 'instance') expect(exposition).toContain(`${metric}{${label}="${value}"`);
      }
    }
  }
});

test('the PromQL reader finds names, not functions, labels, keywords or variables', () => {
  expect(metricNamesOf('histogram_quantile(0.99, sum by (le, route) (rate(http_request_duration_seconds_bucket{job="payments", route=~"/a|b"}[$__rate_interval]))) > 0.5').sort()).toEqual([
    'http_request_duration_seconds_bucket',
  ]);
  expect(metricNamesOf('sum(increase(a_total[15m])) > 0 or sum by (x) (b_total unless b_total offset 15m) and on (y) c > 1e3').sort()).toEqual(['a_total', 'b_total', 'c']);
});
