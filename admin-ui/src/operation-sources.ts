/**
 * Each named operation of schema/operations/admin-console.graphql, cut from the shared document: a definition
 * starts at a top-level `query`/`mutation` line and ends at the next `}` in column 0 (the file's layout, which a
 * unit test holds against graphql-js's own parse). The back office sends exactly these texts, by name, and never
 * writes a document of its own; GraphiQL's presets load the same texts.
 */
export function operationSources(document: string): Map<string, string> {
  const sources = new Map<string, string>();
  let name: string | null = null;
  let lines: string[] = [];
  for (const line of document.split('\n')) {
    const start = /^(query|mutation)\s+(\w+)/.exec(line);
    if (start) {
      name = start[2];
      lines = [];
    }
    if (name === null) continue;
    lines.push(line);
    if (line === '}') {
      sources.set(name, lines.join('\n') + '\n');
      name = null;
    }
  }
  return sources;
}
