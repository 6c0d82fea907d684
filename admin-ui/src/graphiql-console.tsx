import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { GraphiQL } from 'graphiql';
import { useMemo, useState } from 'react';
import { soleOperationName } from './sole-operation-name';
import { presetQuery, presetsFor, presetVariables, type Preset } from './presets';
import { authHeaders, type SignedIn } from './sign-in';

/**
 * The query console: GraphiQL 3 with the ready-made operations of the admin's role (presets.tsx), for what the
 * back office's screens do not show. Built as its own entry point and loaded only when opened, so the back
 * office's first load carries none of it; its style sheet (GraphiQL's) is linked at the same moment.
 */
function linkStyleSheet(): void {
  const href = document.querySelector<HTMLMetaElement>('meta[name="graphiql-style"]')?.content;
  if (!href || document.querySelector(`link[href="${href}"]`)) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  document.head.appendChild(link);
}
linkStyleSheet();

export default function GraphiQLConsole({ admin }: { admin: SignedIn }) {
  const { auth } = admin;
  const presets = useMemo(() => presetsFor(admin.role), [admin.role]);
  const fetcher = useMemo(() => createGraphiQLFetcher({ url: '/graphql', headers: authHeaders(auth) }), [auth]);
  const [query, setQuery] = useState(() => presetQuery(presets[0]));
  const [variables, setVariables] = useState(() => presetVariables(presets[0]));
  const [current, setCurrent] = useState(presets[0].operationName);
  const load = (preset: Preset) => {
    setQuery(presetQuery(preset));
    setVariables(presetVariables(preset));
    setCurrent(preset.operationName);
  };
  const groups = [...new Set(presets.map((p) => p.group))];
  return (
    <div className="console">
      <nav className="presets" aria-label="Ready-made operations">
        <h1>Query console</h1>
        {groups.map((group) => (
          <section key={group}>
            <h2>{group}</h2>
            <ul>
              {presets
                .filter((p) => p.group === group)
                .map((preset) => (
                  <li key={preset.operationName}>
                    <button type="button" aria-current={preset.operationName === current ? 'true' : undefined} onClick={() => load(preset)}>
                      {preset.title}
                    </button>
                  </li>
                ))}
            </ul>
          </section>
        ))}
        <p className="hint">Pick an operation, fill in its variables below the editor, then press ▶ (Ctrl-Enter). The server decides what your role may run.</p>
      </nav>
      <div className="graphiql-host">
        <GraphiQL
          fetcher={fetcher}
          query={query}
          operationName={soleOperationName(query)}
          variables={variables}
          onEditQuery={setQuery}
          onEditVariables={setVariables}
          isHeadersEditorEnabled={false}
          shouldPersistHeaders={false}
          defaultEditorToolsVisibility="variables"
          storage={window.sessionStorage}
        />
      </div>
    </div>
  );
}
