import { lazy, StrictMode, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { runOperation, whenSignedOut } from './api';
import type { AdminRole } from './presets';
import { useParams, type Params } from './route';
import { authHeaders, checkSession, keptCsrfToken, SetUpPage, signInOperation, SignInForm, type SignedIn } from './sign-in';
import { Link, MeContext, messageOf, Problem, type Me } from './ui';
import { AuditScreen } from './screens/audit';
import { DisputeListScreen, DisputeScreen } from './screens/disputes';
import { HomeScreen } from './screens/home';
import { PaymentScreen, PaymentSearchScreen } from './screens/payments';
import { RefundQueueScreen, RefundScreen } from './screens/refunds';
import { ShopListScreen, ShopScreen } from './screens/shops';
import { WithdrawalQueueScreen } from './screens/withdrawals';
import './console.css';
import './back-office.css';

/** GraphiQL and its presets: their own entry point, fetched when the query console is first opened. */
const GraphiQLConsole = lazy(() => import('./graphiql-console'));

/** The sign-in page: e-mail, password and authenticator code (admin tokens are for scripts against /graphql). */
function SignInPage({ onSignIn, notice }: { onSignIn(admin: SignedIn): void; notice: string | null }) {
  return (
    <main className="token-page">
      <div className="sign-in-forms">
        <h1>Payments admin console</h1>
        {notice && <p role="status" className="notice">{notice}</p>}
        <SignInForm onSignIn={onSignIn} />
      </div>
    </main>
  );
}

/** The back office's sections, in the order of the day's work. `views` are the screens each one covers. */
const SECTIONS: { view: string; title: string; views: string[] }[] = [
  { view: 'home', title: 'Home', views: ['home'] },
  { view: 'refunds', title: 'Refunds', views: ['refunds', 'refund'] },
  { view: 'withdrawals', title: 'Withdrawals', views: ['withdrawals'] },
  { view: 'payments', title: 'Payments', views: ['payments', 'payment'] },
  { view: 'shops', title: 'Sellers and shops', views: ['shops', 'shop'] },
  { view: 'disputes', title: 'Disputes', views: ['disputes', 'dispute'] },
  { view: 'audit', title: 'Audit log', views: ['audit'] },
  { view: 'console', title: 'Query console', views: ['console'] },
];

function Screen({ params, admin }: { params: Params; admin: SignedIn }): ReactNode {
  const id = params.id ?? '';
  switch (params.view ?? 'home') {
    case 'home':
      return <HomeScreen />;
    case 'refunds':
      return <RefundQueueScreen params={params} />;
    case 'refund':
      return <RefundScreen key={id} id={id} />;
    case 'withdrawals':
      return <WithdrawalQueueScreen params={params} />;
    case 'payments':
      return <PaymentSearchScreen params={params} />;
    case 'payment':
      return <PaymentScreen key={id} id={id} />;
    case 'shops':
      return <ShopListScreen params={params} />;
    case 'shop':
      return <ShopScreen key={id} id={id} />;
    case 'disputes':
      return <DisputeListScreen params={params} />;
    case 'dispute':
      return <DisputeScreen key={id} id={id} />;
    case 'audit':
      return <AuditScreen params={params} />;
    case 'console':
      return (
        <Suspense fallback={<p role="status">Loading the query console…</p>}>
          <GraphiQLConsole admin={admin} />
        </Suspense>
      );
    default:
      return (
        <>
          <h1>Nothing here</h1>
          <p>
            There is no screen called “{params.view}”. <Link to={{ view: 'home' }}>Go to Home</Link>.
          </p>
        </>
      );
  }
}

/** The back office of one admin: the sections on the left (a bar on narrow windows), the screen of the address. */
function BackOffice({ me, onSignOut }: { me: Me; onSignOut(): void }) {
  const params = useParams();
  const view = params.view ?? 'home';
  const section = SECTIONS.find((s) => s.views.includes(view));
  const wide = view === 'console';
  return (
    <MeContext.Provider value={me}>
      <div className={`shell${wide ? ' shell-wide' : ''}`}>
        <a className="skip-link" href="#main">
          Skip to the screen
        </a>
        <header className="topbar">
          <span className="brand">Payments back office</span>
          <span className="signed-in">
            {me.email} ({me.role.toLowerCase()})
          </span>
          <button type="button" className="secondary sign-out" onClick={onSignOut}>
            Sign out
          </button>
        </header>
        <nav className="sections" aria-label="Back office">
          <ul>
            {SECTIONS.map((s) => (
              <li key={s.view}>
                <Link to={{ view: s.view }} aria-current={s === section ? 'page' : undefined}>
                  {s.title}
                </Link>
              </li>
            ))}
            <li>
              <a href="/admin/queues">Queue dashboard</a>
            </li>
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          <Screen key={view} params={params} admin={me} />
        </main>
      </div>
    </MeContext.Provider>
  );
}

/** Who the signed-in admin is (their id, for four eyes): asked once after sign-in. */
function SignedInBackOffice({ admin, onSignOut }: { admin: SignedIn; onSignOut(message?: string): void }) {
  const [me, setMe] = useState<Me | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    whenSignedOut((message) => onSignOut(message));
    runOperation<{ currentAdmin: { id: string; email: string; role: AdminRole } }>(admin.auth, 'CurrentAdmin')
      .then(({ currentAdmin }) => setMe({ ...admin, id: currentAdmin.id, email: currentAdmin.email, role: currentAdmin.role }))
      .catch((error) => setProblem(messageOf(error)));
    return () => whenSignedOut(null);
  }, [admin, onSignOut]);
  if (problem) return <main className="token-page"><Problem>{problem}</Problem></main>;
  if (!me) return <p role="status">Opening the back office…</p>;
  return <BackOffice me={me} onSignOut={() => onSignOut()} />;
}

/**
 * An admin session (its CSRF cookie) is checked again on reload: the role may have changed, or it ended.
 * `/admin?setup=…` is the set-up link the CLI prints.
 */
function App() {
  const [setupToken, setSetupToken] = useState(() => new URLSearchParams(window.location.search).get('setup'));
  const [admin, setAdmin] = useState<SignedIn | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [restoring, setRestoring] = useState(() => keptCsrfToken() !== null);
  useEffect(() => {
    const csrfToken = keptCsrfToken();
    if (csrfToken) {
      checkSession(csrfToken)
        .then(setAdmin)
        .catch(() => undefined)
        .finally(() => setRestoring(false));
    }
  }, []);
  const adminRef = useRef(admin);
  adminRef.current = admin;
  /** Signing out ends the admin session on the server; a sign-in the server already ended (`message`) has nothing to end. */
  const signOut = useCallback((message?: string) => {
    const current = adminRef.current;
    if (current && !message) void signInOperation('AdminSignOut', {}, authHeaders(current.auth)).catch(() => undefined);
    setAdmin(null);
    setNotice(message ?? null);
  }, []);
  if (restoring) return null;
  if (setupToken) {
    const done = () => {
      window.history.replaceState(null, '', '/admin');
      setSetupToken(null);
    };
    return <SetUpPage token={setupToken} onDone={done} />;
  }
  if (!admin) return <SignInPage onSignIn={(signedIn) => (setNotice(null), setAdmin(signedIn))} notice={notice} />;
  return <SignedInBackOffice admin={admin} onSignOut={signOut} />;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
