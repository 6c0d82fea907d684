import { run } from './api';
import { field, h, messageArea } from './dom';
import { dayRange, whenExact } from './format';
import { go, heading, link, type Screen } from './shell';

interface ApiRequest {
  id: string;
  requestId: string;
  source: string;
  method: string;
  path: string;
  operationName: string | null;
  status: number;
  errorCode: string | null;
  errorMessage: string | null;
  idempotencyKey: string | null;
  durationMs: number;
  startedAt: string;
}

const OUTCOMES: [string, string][] = [
  ['', 'All'],
  ['SUCCEEDED', 'Succeeded'],
  ['FAILED', 'Failed (4xx and 5xx)'],
  ['CLIENT_ERROR', 'Client errors (4xx)'],
  ['SERVER_ERROR', 'Server errors (5xx)'],
];

/** The filter as the API takes it; dates are whole days of the browser's time zone. */
function filterOf(params: URLSearchParams): Record<string, string> {
  const filter: Record<string, string> = {};
  const outcome = params.get('outcome') ?? '';
  const text = (params.get('q') ?? '').trim();
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  if (OUTCOMES.some(([value]) => value && value === outcome)) filter.outcome = outcome;
  if (text) filter.text = text;
  Object.assign(filter, dayRange(from, to));
  return filter;
}

const statusBadge = (status: number) => h('span', { class: `badge ${status >= 400 ? 'failed' : 'completed'}` }, String(status));

/** One request: its answer first, then what was asked, what went wrong, how long it took; the ids to quote below. */
function entry(r: ApiRequest): HTMLElement {
  const asked = [h('span', { class: 'method' }, r.method), ' ', h('span', { class: 'mono' }, r.path), r.operationName ? [' ', h('span', { class: 'mono' }, r.operationName)] : null].flat();
  return h('tr', {},
    h('td', { 'data-label': 'Time' }, whenExact(r.startedAt)),
    h('td', { 'data-label': 'Status' }, statusBadge(r.status)),
    h('td', { 'data-label': 'Request' }, ...asked,
      h('span', { class: 'muted small-text block mono' }, `Request id ${r.requestId}`),
      r.idempotencyKey ? h('span', { class: 'muted small-text block mono' }, `Idempotency-Key ${r.idempotencyKey}`) : null),
    h('td', { 'data-label': 'Error' }, r.errorCode ? [h('span', { class: 'mono' }, r.errorCode), h('span', { class: 'block' }, r.errorMessage ?? '')] : '—'),
    h('td', { 'data-label': 'Duration' }, `${r.durationMs} ms`),
  );
}

/**
 * Logs (docs/dashboard.md, "Request log"): every request the shop's API key made in the last 30 days, newest first,
 * filtered by outcome, text and days. The filter and the page live in the address (?outcome=&q=&from=&to=&before=).
 */
export const logsScreen: Screen = {
  title: 'Logs',
  signedIn: true,
  async render(main, params) {
    heading(main, this.title);
    main.append(h('p', { class: 'muted' }, 'Every request your API key made (REST and GraphQL) in the last 30 days, with its answer. Bodies and keys are never kept.'));

    const outcome = field('Status', { tag: 'select', name: 'outcome' }, undefined, OUTCOMES);
    outcome.control.value = params.get('outcome') ?? '';
    const search = field('Search', { type: 'search', name: 'q', value: params.get('q') ?? '', spellcheck: 'false' }, 'A path or payment id, or a whole Idempotency-Key or request id');
    const from = field('From', { type: 'date', name: 'from', value: params.get('from') ?? '' });
    const to = field('To', { type: 'date', name: 'to', value: params.get('to') ?? '' });
    const form = h('form', { class: 'filters', role: 'search', 'aria-label': 'Filter requests', action: '/dashboard/logs', method: 'get' },
      outcome.wrap, search.wrap, from.wrap, to.wrap,
      h('div', { class: 'filter-actions' }, h('button', { type: 'submit', class: 'primary' }, 'Apply filters'), link('Clear', '/dashboard/logs')));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const next = new URLSearchParams();
      for (const [name, control] of [['outcome', outcome], ['q', search], ['from', from], ['to', to]] as const) if (control.control.value.trim()) next.set(name, control.control.value.trim());
      go(`/dashboard/logs${next.size ? `?${next}` : ''}`);
    });
    main.append(form);

    const message = messageArea();
    main.append(message.element);
    const filter = filterOf(params);
    const before = params.get('before');
    let page: { requestLog: { items: ApiRequest[]; nextBefore: string | null } };
    try {
      page = await run('RequestLog', { filter, limit: 50, before });
    } catch (error) {
      message.error((error as Error).message);
      return;
    }
    const { items, nextBefore } = page.requestLog;
    if (items.length === 0) {
      main.append(h('p', { class: 'empty' }, Object.keys(filter).length || before
        ? 'No request matches these filters.'
        : 'No API requests in the last 30 days. Requests your API key makes show here within seconds.'));
      return;
    }
    main.append(h('div', { class: 'table-wrap log-table', role: 'region', 'aria-label': 'API requests', tabindex: 0 },
      h('table', {},
        h('caption', { class: 'visually-hidden' }, 'API requests, newest first'),
        h('thead', {}, h('tr', {}, ...['Time', 'Status', 'Request', 'Error', 'Duration'].map((text) => h('th', { scope: 'col' }, text)))),
        h('tbody', {}, ...items.map(entry)))));
    const pageLink = (cursor: string | null, text: string) => {
      const next = new URLSearchParams(params);
      if (cursor) next.set('before', cursor);
      else next.delete('before');
      return link(text, `/dashboard/logs${next.size ? `?${next}` : ''}`);
    };
    main.append(h('nav', { class: 'pager', 'aria-label': 'Pages' },
      before ? pageLink(null, 'Newest requests') : null,
      nextBefore ? pageLink(nextBefore, 'Older requests') : h('span', { class: 'muted' }, 'No older requests')));
  },
};
