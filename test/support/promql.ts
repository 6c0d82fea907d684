/**
 * The metric names a PromQL expression reads, for tests that hold dashboards and alert rules to the series the
 * service exposes. Enough of PromQL for ours: strings, label matchers, ranges, grouping clauses and Grafana's
 * variables are dropped, then every identifier not followed by `(` and not a keyword is a metric name.
 */
const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'inf', 'nan']);

export function metricNamesOf(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\{?\w+\}?/g, ' ')
    .replace(/\boffset\s+\d+[smhdwy]/g, ' ');
  const names = new Set<string>();
  for (const match of bare.matchAll(/(?<![\w.])[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const rest = bare.slice(match.index! + match[0].length);
    if (KEYWORDS.has(match[0].toLowerCase()) || /^\s*\(/.test(rest)) continue;
    names.add(match[0]);
  }
  return [...names];
}

/** The label matchers `label="value"` (equality only) an expression applies to `metric`. */
export function equalityMatchersOf(expr: string, metric: string): [string, string][] {
  const found: [string, string][] = [];
  for (const selector of expr.matchAll(new RegExp(`(?<![\\w:])${metric}\\{([^}]*)\\}`, 'g'))) {
    for (const [, label, value] of selector[1].matchAll(/(\w+)\s*=\s*"([^"]*)"/g)) found.push([label, value]);
  }
  return found;
}

/** Every series name a Prometheus text exposition offers: each `# TYPE`, with a histogram's and a summary's parts. */
export function exposedNames(exposition: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const [, name, type] of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.set(name, type);
    if (type === 'histogram') for (const part of ['_bucket', '_sum', '_count']) names.set(`${name}${part}`, type);
    if (type === 'summary') for (const part of ['_sum', '_count']) names.set(`${name}${part}`, type);
  }
  return names;
}

/** The `expr:` of every rule of a Prometheus rules file (one line, or a `|` block). */
export function ruleExpressions(rules: string): { alert: string; expr: string }[] {
  const found: { alert: string; expr: string }[] = [];
  let alert = '';
  const lines = rules.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const named = /^\s*- alert: (\S+)/.exec(lines[i]);
    if (named) alert = named[1];
    const expr = /^(\s*)expr: (.*)$/.exec(lines[i]);
    if (!expr) continue;
    if (expr[2].trim() !== '|') {
      found.push({ alert, expr: expr[2] });
      continue;
    }
    const block: string[] = [];
    while (i + 1 < lines.length && (lines[i + 1].trim() === '' || lines[i + 1].search(/\S/) > expr[1].length)) block.push(lines[++i].trim());
    found.push({ alert, expr: block.filter((line) => !line.startsWith('#')).join(' ') });
  }
  return found;
}
