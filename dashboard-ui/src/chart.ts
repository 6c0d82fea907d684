import { h, table, uid } from './dom';
import { dayWords, money } from './format';

export interface DayVolume {
  day: string;
  gross: number | string;
  count: number;
}

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 600;
const HEIGHT = 160;

function svg(tag: string, attrs: Record<string, string | number>, ...children: (Node | string)[]): SVGElement {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  for (const child of children) element.append(child);
  return element;
}

/**
 * Gross volume per day as bars, drawn here as inline SVG (no chart library, nothing from another host; colours
 * come from the style sheet by class, so the page's strict CSP needs no inline style), with the same numbers in a
 * data table for screen readers and for anyone who wants the figures.
 */
export function volumeChart(days: DayVolume[], title: string): HTMLElement {
  const titleId = uid('chart-title');
  const descId = uid('chart-desc');
  const values = days.map((d) => Number(d.gross));
  const highest = Math.max(0, ...values);
  const total = values.reduce((sum, v) => sum + v, 0);
  const count = days.reduce((sum, d) => sum + d.count, 0);
  const slot = WIDTH / Math.max(1, days.length);
  const bars = days.map((d, i) => {
    const height = highest > 0 ? Math.max(Number(d.gross) > 0 ? 2 : 0, Math.round((Number(d.gross) / highest) * (HEIGHT - 10))) : 0;
    return svg('rect', { class: 'bar', x: (i * slot + slot * 0.15).toFixed(1), y: HEIGHT - height, width: (slot * 0.7).toFixed(1), height },
      svg('title', {}, `${dayWords(d.day)}: ${money(d.gross)}, ${d.count} payment${d.count === 1 ? '' : 's'}`));
  });
  const first = days[0]?.day;
  const last = days[days.length - 1]?.day;
  const summary = `${money(total)} from ${count} payment${count === 1 ? '' : 's'}${first ? `, ${dayWords(first)} to ${dayWords(last!)} (days in UTC)` : ''}; the highest day ${money(highest)}.`;
  // Stretched to the frame's width (no text inside the drawing, so nothing is distorted but the bars' width).
  const drawing = svg('svg', { class: 'chart', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, preserveAspectRatio: 'none', role: 'img', 'aria-labelledby': `${titleId} ${descId}`, focusable: 'false' },
    svg('title', { id: titleId }, title),
    svg('desc', { id: descId }, summary),
    svg('line', { class: 'axis', x1: 0, y1: HEIGHT - 0.5, x2: WIDTH, y2: HEIGHT - 0.5 }),
    ...bars);
  return h('figure', { class: 'chart-figure' },
    h('figcaption', {}, h('strong', {}, title), ' ', h('span', { class: 'muted' }, summary)),
    h('div', { class: 'chart-frame' }, drawing as unknown as HTMLElement,
      h('div', { class: 'chart-axis muted', 'aria-hidden': 'true' }, h('span', {}, first ? dayWords(first) : ''), h('span', {}, last ? dayWords(last) : ''))),
    h('details', { class: 'chart-table' }, h('summary', {}, 'Show the numbers as a table'),
      table(`${title}, day by day`, ['Day (UTC)', 'Gross volume', 'Payments'], days.map((d) => [dayWords(d.day), money(d.gross), String(d.count)]))));
}
