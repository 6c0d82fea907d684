import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { GraphiQL } from 'graphiql';
import { StrictMode, useEffect, useMemo, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { presetQuery, presetsFor, presetVariables, type AdminRole, type Preset } from './presets';
import 'graphiql/graphiql.css';
import './console.css';

const TOKEN_KEY = 'admin-console:token';
const TOKEN_PATTERN = /^adm_[0-9a-f]{64}$/;

interface SignedIn {
  token: string;
  email: string;
  role: AdminRole;
}

/** Asks /graphql who the token belongs to (a query only admins may run): the admin, or why it was refused. */
async function checkToken(token: string): Promise<SignedIn | string> {
  const res = await fetch('/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: 'query TokenCheck { currentAdmin { email role } }', operationName: 'TokenCheck' }),
  });
  const body = (await res.json().catch(() => ({}))) as { data?: { currentAdmin?: { email: string; role: AdminRole } }; errors?: { message: string }[] };
  const admin = body.data?.currentAdmin;
  if (res.ok && admin) return { token, ...admin };
  return body.errors?.[0]?.message ?? `The server answered ${res.status}`;
}

function TokenForm({ onSignIn }: { onSignIn(admin: SignedIn): void }) {
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const token = value.trim();
    if (!TOKEN_PATTERN.test(token)) return setProblem('An admin token is adm_ followed by 64 hexadecimal characters.');
    setBusy(true);
    const answer = await checkToken(token).catch(() => 'The server could not be reached.');
    setBusy(false);
    if (typeof answer === 'string') return setProblem(`This token was refused: ${answer}`);
    sessionStorage.setItem(TOKEN_KEY, token);
    onSignIn(answer);
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

/** The console of one admin: the presets their role may run (docs/admin.md), GraphiQL for the rest. */
function Console({ admin, onSignOut }: { admin: SignedIn; onSignOut(): void }) {
  const { token } = admin;
  const presets = useMemo(() => presetsFor(admin.role), [admin.role]);
  const fetcher = useMemo(() => createGraphiQLFetcher({ url: '/graphql', headers: { Authorization: `Bearer ${token}` } }), [token]);
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
        <h1>Admin console</h1>
        <p className="signed-in">
          {admin.email} ({admin.role.toLowerCase()})
        </p>
        {groups.map((group) => (
          <section key={group}>
            <h2>{group}</h2>
            <ul>
              {presets.filter((p) => p.group === group).map((preset) => (
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

/** A token kept in this tab is checked again on reload: its role may have changed, or it expired. */
function App() {
  const [admin, setAdmin] = useState<SignedIn | null>(null);
  const [restoring, setRestoring] = useState(() => sessionStorage.getItem(TOKEN_KEY) !== null);
  useEffect(() => {
    const kept = sessionStorage.getItem(TOKEN_KEY);
    if (!kept) return;
    checkToken(kept)
      .then((answer) => (typeof answer === 'string' ? sessionStorage.removeItem(TOKEN_KEY) : setAdmin(answer)))
      .catch(() => sessionStorage.removeItem(TOKEN_KEY))
      .finally(() => setRestoring(false));
  }, []);
  if (restoring) return null;
  if (!admin) return <TokenForm onSignIn={setAdmin} />;
  return (
    <Console
      admin={admin}
      onSignOut={() => {
        sessionStorage.removeItem(TOKEN_KEY);
        setAdmin(null);
      }}
    />
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
