import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { GraphiQL } from 'graphiql';
import { StrictMode, useMemo, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { PRESETS, presetQuery, presetVariables, type Preset } from './presets';
import 'graphiql/graphiql.css';
import './console.css';

const TOKEN_KEY = 'admin-console:token';
const TOKEN_PATTERN = /^adm_[0-9a-f]{64}$/;

/** Asks /graphql whether the token is an admin's, with a query only admins may run. */
async function checkToken(token: string): Promise<string | null> {
  const res = await fetch('/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: 'query TokenCheck { auditLog(limit: 1) { pagination { total } } }', operationName: 'TokenCheck' }),
  });
  const body = (await res.json().catch(() => ({}))) as { errors?: { message: string }[] };
  if (res.ok && !body.errors) return null;
  return body.errors?.[0]?.message ?? `The server answered ${res.status}`;
}

function TokenForm({ onToken }: { onToken(token: string): void }) {
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const token = value.trim();
    if (!TOKEN_PATTERN.test(token)) return setProblem('An admin token is adm_ followed by 64 hexadecimal characters.');
    setBusy(true);
    const refused = await checkToken(token).catch(() => 'The server could not be reached.');
    setBusy(false);
    if (refused) return setProblem(`This token was refused: ${refused}`);
    sessionStorage.setItem(TOKEN_KEY, token);
    onToken(token);
  };
  return (
    <main className="token-page">
      <form className="token-form" onSubmit={submit} noValidate>
        <h1>Payments admin console</h1>
        <p>
          Enter your admin token (from <code>npm run cli -- create-admin</code>). It is kept in this tab only and sent as a bearer
          token with every request.
        </p>
        <label htmlFor="token">Admin token</label>
        <input
          id="token"
          name="token"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={value}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'token-problem' : undefined}
          onChange={(e) => setValue(e.target.value)}
        />
        {problem && (
          <p id="token-problem" className="problem" role="alert">
            {problem}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Open console'}
        </button>
      </form>
    </main>
  );
}

function Console({ token, onSignOut }: { token: string; onSignOut(): void }) {
  const fetcher = useMemo(() => createGraphiQLFetcher({ url: '/graphql', headers: { Authorization: `Bearer ${token}` } }), [token]);
  const [query, setQuery] = useState(() => presetQuery(PRESETS[0]));
  const [variables, setVariables] = useState(() => presetVariables(PRESETS[0]));
  const [current, setCurrent] = useState(PRESETS[0].operationName);
  const load = (preset: Preset) => {
    setQuery(presetQuery(preset));
    setVariables(presetVariables(preset));
    setCurrent(preset.operationName);
  };
  const groups = [...new Set(PRESETS.map((p) => p.group))];
  return (
    <div className="console">
      <nav className="presets" aria-label="Ready-made operations">
        <h1>Admin console</h1>
        {groups.map((group) => (
          <section key={group}>
            <h2>{group}</h2>
            <ul>
              {PRESETS.filter((p) => p.group === group).map((preset) => (
                <li key={preset.operationName}>
                  <button type="button" aria-current={preset.operationName === current ? 'true' : undefined} onClick={() => load(preset)}>
                    {preset.title}
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ))}
        <p className="hint">Pick an operation, fill in its variables below the editor, then press ▶ (Ctrl-Enter).</p>
        <button type="button" className="sign-out" onClick={onSignOut}>
          Sign out
        </button>
      </nav>
      <div className="graphiql-host">
        <GraphiQL
          fetcher={fetcher}
          query={query}
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

function App() {
  const [token, setToken] = useState(() => sessionStorage.getItem(TOKEN_KEY));
  if (!token) return <TokenForm onToken={setToken} />;
  return (
    <Console
      token={token}
      onSignOut={() => {
        sessionStorage.removeItem(TOKEN_KEY);
        setToken(null);
      }}
    />
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
