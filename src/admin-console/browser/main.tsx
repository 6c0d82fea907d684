import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { GraphiQL } from 'graphiql';
import { StrictMode, useEffect, useMemo, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { presetQuery, presetsFor, presetVariables, type AdminRole, type Preset } from './presets';
import { authHeaders, checkSession, keptCsrfToken, SetUpPage, signInOperation, SignInForm, type SignedIn } from './sign-in';
import 'graphiql/graphiql.css';
import './console.css';

const TOKEN_KEY = 'admin-console:token';
const TOKEN_PATTERN = /^adm_[0-9a-f]{64}$/;

/** Asks /graphql who the token belongs to (a query only admins may run): the admin, or why it was refused. */
async function checkToken(token: string): Promise<SignedIn | string> {
  const res = await fetch('/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: 'query TokenCheck { currentAdmin { email role } }', operationName: 'TokenCheck' }),
  });
  const body = (await res.json().catch(() => ({}))) as { data?: { currentAdmin?: { email: string; role: AdminRole } }; errors?: { message: string }[] };
  const admin = body.data?.currentAdmin;
  if (res.ok && admin) return { auth: { kind: 'token', token }, ...admin };
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
    <form className="token-form" onSubmit={submit} aria-labelledby="token-title" noValidate>
      <h2 id="token-title">Or sign in with a token</h2>
      <p>
        An admin token (from <code>npm run cli -- create-admin</code>) is kept in this tab only and sent as a bearer token with every
        request.
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
  );
}

/** The sign-in page: e-mail, password and code first; the token for those who use one. */
function SignInPage({ onSignIn }: { onSignIn(admin: SignedIn): void }) {
  return (
    <main className="token-page">
      <div className="sign-in-forms">
        <h1>Payments admin console</h1>
        <SignInForm onSignIn={onSignIn} />
        <TokenForm onSignIn={onSignIn} />
      </div>
    </main>
  );
}

/** The console of one admin: the presets their role may run (docs/admin.md), GraphiQL for the rest. */
function Console({ admin, onSignOut }: { admin: SignedIn; onSignOut(): void }) {
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
        {admin.auth.kind === 'session' && (
          <p className="hint">
            <a href="/admin/queues">Queue dashboard</a>: webhook delivery and refund jobs.
          </p>
        )}
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

/**
 * A token kept in this tab, or an admin session (its CSRF cookie), is checked again on reload: the role
 * may have changed, or it expired. `/admin?setup=…` is the set-up link the CLI prints.
 */
function App() {
  const [setupToken, setSetupToken] = useState(() => new URLSearchParams(window.location.search).get('setup'));
  const [admin, setAdmin] = useState<SignedIn | null>(null);
  const [restoring, setRestoring] = useState(() => sessionStorage.getItem(TOKEN_KEY) !== null || keptCsrfToken() !== null);
  useEffect(() => {
    const kept = sessionStorage.getItem(TOKEN_KEY);
    const csrfToken = keptCsrfToken();
    if (kept) {
      checkToken(kept)
        .then((answer) => (typeof answer === 'string' ? sessionStorage.removeItem(TOKEN_KEY) : setAdmin(answer)))
        .catch(() => sessionStorage.removeItem(TOKEN_KEY))
        .finally(() => setRestoring(false));
    } else if (csrfToken) {
      checkSession(csrfToken)
        .then(setAdmin)
        .catch(() => undefined)
        .finally(() => setRestoring(false));
    }
  }, []);
  if (restoring) return null;
  if (setupToken) {
    const done = () => {
      window.history.replaceState(null, '', '/admin');
      setSetupToken(null);
    };
    return <SetUpPage token={setupToken} onDone={done} />;
  }
  if (!admin) return <SignInPage onSignIn={setAdmin} />;
  return (
    <Console
      admin={admin}
      onSignOut={() => {
        sessionStorage.removeItem(TOKEN_KEY);
        if (admin.auth.kind === 'session') void signInOperation('AdminSignOut', {}, authHeaders(admin.auth)).catch(() => undefined);
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
