import fs from 'node:fs';
import path from 'node:path';
import { withGeneratedSection, writeOrPrint, type GeneratedSection } from '../src/shared/generated-section';
import { LIFECYCLES } from '../src/modules/lifecycles';
import type { Lifecycle, MoveSpec } from '../src/platform/lifecycle/lifecycle';
import { PROJECT_ROOT } from '../src/shared/project-root';

/**
 * The state diagrams and move tables of docs/lifecycles.md (explained in docs/architecture.md, "Lifecycles"),
 * generated from the lifecycle tables (each module's *.lifecycle.ts, and Adyen's inbox's) so they cannot drift: `npm run docs:lifecycles` rewrites
 * them, and test/unit/lifecycle-docs.test.ts fails when they are stale.
 */
export const DOC_FILE = path.join(PROJECT_ROOT, 'docs/lifecycles.md');
export const DOC_START = '<!-- lifecycles: generated from the lifecycle tables by `npm run docs:lifecycles`; edit the tables there -->';
export const DOC_END = '<!-- /lifecycles -->';

/** A Mermaid state diagram of a column's states and the moves between them. */
function diagram(states: Record<string, { final?: true }>, initial: string, edges: [string, string, string][]): string {
  const lines = ['```mermaid', 'stateDiagram-v2', `  [*] --> ${initial}`];
  for (const [from, to, name] of edges) lines.push(`  ${from} --> ${to}: ${name}`);
  for (const [state, spec] of Object.entries(states)) if (spec.final) lines.push(`  ${state} --> [*]`);
  lines.push('```');
  return lines.join('\n');
}

const edgesOf = (moves: [string, MoveSpec<string>][], pick: (m: MoveSpec<string>) => { from: readonly string[]; to: string } | undefined) =>
  moves.flatMap(([name, move]) => {
    const side = pick(move);
    return side ? side.from.map((from): [string, string, string] => [from, side.to, name]) : [];
  });

function writes(move: MoveSpec<string>): string {
  const parts = [
    move.journal && `journal: ${move.journal}`,
    move.audit && `audit: \`${move.audit}\``,
    move.event && `event: \`${move.event}\``,
    move.notice && `notice: \`${move.notice}\``,
    move.receipt && `receipt: \`${move.receipt}\``,
    move.notByRequester && 'four eyes',
  ];
  return parts.filter(Boolean).join(', ') || '—';
}

/** The folders whose files hold tables: each module's, and each acquirer adapter's (its inbox's table beside its store). */
const TABLE_FOLDERS = ['src/modules', 'src/platform/processor'];

/** The file that holds a table: `payment` → `src/modules/payments/payment.lifecycle.ts`. */
function sourceOf(lifecycle: Lifecycle): string {
  const file = `${lifecycle.name.replace(/_/g, '-')}.lifecycle.ts`;
  const holders = TABLE_FOLDERS.flatMap((parent) => fs.readdirSync(path.join(PROJECT_ROOT, parent)).map((folder) => `${parent}/${folder}/${file}`));
  const source = holders.find((candidate) => fs.existsSync(path.join(PROJECT_ROOT, candidate)));
  if (!source) throw new Error(`no module or adapter holds ${file}`);
  return source;
}

export function lifecycleSection(lifecycle: Lifecycle): string {
  const moves = Object.entries(lifecycle.moves) as [string, MoveSpec<string>][];
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const out = [`### ${lifecycle.title}`, '', `\`${lifecycle.table}.${lifecycle.column}\`${lifecycle.side ? ` and \`${lifecycle.table}.${lifecycle.side.column}\`` : ''}, from \`${sourceOf(lifecycle)}\`.`, ''];
  // Moves that change only the side column (the checkout stage) are drawn on the side's own diagram.
  out.push(diagram(lifecycle.states, lifecycle.initial, edgesOf(moves, (m) => (m.stage && m.from.every((f) => f === m.to) ? undefined : m))));
  if (lifecycle.side) out.push('', `While \`${lifecycle.initial}\`, its ${lifecycle.side.column.replace(/_/g, ' ')}:`, '', diagram(lifecycle.side.states, lifecycle.side.initial, edgesOf(moves, (m) => m.stage)));
  out.push('', '| Move | From | To | On | Writes besides the row |', '|---|---|---|---|---|');
  for (const [name, move] of moves) {
    const stage = move.stage ? ` (${move.stage.from.join(', ')} → ${move.stage.to})` : '';
    out.push(`| \`${name}\` | ${move.from.join(', ')} | ${move.to}${stage} | ${cell(move.on)} | ${writes(move)} |`);
  }
  for (const [result, stay] of Object.entries(lifecycle.stays ?? {})) out.push(`| — | ${stay.in.join(', ')} | (stays) | ${cell(result)}: ${cell(stay.then)} | — |`);
  return out.join('\n');
}

export function lifecyclesDoc(lifecycles: readonly Lifecycle[] = LIFECYCLES): string {
  return lifecycles.map(lifecycleSection).join('\n\n');
}

const DOC_SECTION: GeneratedSection = { file: DOC_FILE, start: DOC_START, end: DOC_END };

/** The page with its generated section replaced. */
export function withLifecycles(page: string, section: string): string {
  return withGeneratedSection(page, DOC_SECTION, section);
}

if (require.main === module) writeOrPrint(DOC_SECTION, lifecyclesDoc(), process.argv);
