import { useState, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import SIGN_IN_OPERATIONS from '../../schema/operations/admin-sign-in.graphql';
import type { AdminRole } from './presets';

/** How the console's requests are authorized: the admin session (cookie + CSRF header); tokens are for scripts. */
export type ConsoleAuth = { kind: 'session'; csrfToken: string };

export interface SignedIn {
  auth: ConsoleAuth;
  email: string;
  role: AdminRole;
}

export function authHeaders(auth: ConsoleAuth): Record<string, string> {
  return { 'X-CSRF-Token': auth.csrfToken };
}

interface Answer<T> {
  data?: T;
  errors?: { message: string }[];
}

/** Runs an operation of schema/operations/admin-sign-in.graphql, sent as that exact document (the public ones must be). */
export async function signInOperation<T>(operationName: string, variables: object, headers: Record<string, string> = {}): Promise<Answer<T>> {
  const res = await fetch('/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ query: SIGN_IN_OPERATIONS, operationName, variables }),
  });
  return (await res.json().catch(() => ({ errors: [{ message: `The server answered ${res.status}` }] }))) as Answer<T>;
}

/** The admin session's CSRF token, from its readable cookie (after a reload), if any. */
export function keptCsrfToken(): string | null {
  const match = /(?:^|;\s*)(?:__Host-)?hcp_admin_csrf=([^;]+)/.exec(document.cookie);
  return match ? decodeURIComponent(match[1]) : null;
}

/** Asks who the admin session belongs to: the admin, or null when it has ended. */
export async function checkSession(csrfToken: string): Promise<SignedIn | null> {
  const answer = await signInOperation<{ currentAdmin: { email: string; role: AdminRole } }>('AdminSession', {}, { 'X-CSRF-Token': csrfToken });
  const admin = answer.data?.currentAdmin;
  return admin ? { auth: { kind: 'session', csrfToken }, email: admin.email, role: admin.role } : null;
}

const failure = (answer: Answer<unknown>) => answer.errors?.[0]?.message ?? 'Something went wrong; try again.';

function Field({ id, label, problem, ...input }: { id: string; label: string; problem?: boolean } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input id={id} name={id} aria-invalid={problem ? true : undefined} aria-describedby={problem ? `${id}-problem` : undefined} {...input} />
    </>
  );
}

function Problem({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="problem" role="alert">
      {children}
    </p>
  );
}

/** E-mail, password and authentication code (PCI DSS v4 8.4.2: always the code, for admins). */
export function SignInForm({ onSignIn }: { onSignIn(admin: SignedIn): void }) {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    const answer = await signInOperation<{ adminSignIn: { csrfToken: string; admin: { email: string; role: AdminRole } } }>('AdminSignIn', {
      email: String(form.get('email') ?? ''),
      password: String(form.get('password') ?? ''),
      code: String(form.get('code') ?? '').trim(),
    }).catch(() => ({ errors: [{ message: 'The server could not be reached.' }] }) as Answer<never>);
    setBusy(false);
    const signedIn = answer.data?.adminSignIn;
    if (!signedIn) return setProblem(failure(answer));
    onSignIn({ auth: { kind: 'session', csrfToken: signedIn.csrfToken }, email: signedIn.admin.email, role: signedIn.admin.role });
  };
  const invalid = problem !== null;
  return (
    <form className="token-form" onSubmit={submit} aria-labelledby="sign-in-title" noValidate>
      <h2 id="sign-in-title">Sign in</h2>
      <Field id="email" label="Email" type="email" autoComplete="username" required problem={invalid} />
      <Field id="password" label="Password" type="password" autoComplete="current-password" required problem={invalid} />
      <Field id="code" label="Authentication code" inputMode="numeric" autoComplete="one-time-code" spellCheck={false} required problem={invalid} />
      {problem && <Problem id="sign-in-problem">{problem}</Problem>}
      <button type="submit" disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}

/**
 * The set-up link the CLI prints (`/admin?setup=…`): choose a password, add the account to an
 * authenticator app (QR code drawn by the server), confirm with a first code, keep the recovery codes.
 */
export function SetUpPage({ token, onDone }: { token: string; onDone(): void }) {
  const [enrolment, setEnrolment] = useState<{ secret: string; qrCodeSvg: string } | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const choosePassword = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get('new-password') ?? '');
    const answer = await signInOperation<{ adminSetUp: { secret: string; qrCodeSvg: string } }>('AdminSetUp', { token, password });
    if (!answer.data?.adminSetUp) return setProblem(failure(answer));
    setProblem(null);
    setEnrolment(answer.data.adminSetUp);
  };
  const confirm = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get('setup-code') ?? '').trim();
    const answer = await signInOperation<{ confirmAdminSetUp: string[] }>('ConfirmAdminSetUp', { token, code });
    if (!answer.data?.confirmAdminSetUp) return setProblem(failure(answer));
    setProblem(null);
    setCodes(answer.data.confirmAdminSetUp);
  };
  const invalid = problem !== null;
  return (
    <main className="token-page">
      <div className="token-form">
        <h1>Set up your admin sign-in</h1>
        {!enrolment && (
          <form onSubmit={choosePassword} noValidate>
            <p>Choose a password of at least 12 characters.</p>
            <Field id="new-password" label="Password" type="password" autoComplete="new-password" required problem={invalid} />
            {problem && <Problem id="new-password-problem">{problem}</Problem>}
            <button type="submit">Continue</button>
          </form>
        )}
        {enrolment && !codes && (
          <form onSubmit={confirm} noValidate>
            <p>Scan this code with your authenticator app, or type the key, then enter the code it shows.</p>
            <img className="qr" alt="QR code of your authenticator key" src={`data:image/svg+xml;utf8,${encodeURIComponent(enrolment.qrCodeSvg)}`} />
            <p>
              Key: <code>{enrolment.secret}</code>
            </p>
            <Field id="setup-code" label="Authentication code" inputMode="numeric" autoComplete="one-time-code" required problem={invalid} />
            {problem && <Problem id="setup-code-problem">{problem}</Problem>}
            <button type="submit">Confirm</button>
          </form>
        )}
        {codes && (
          <section aria-labelledby="codes-title">
            <h2 id="codes-title">Recovery codes</h2>
            <p>Each works once instead of a code, if you lose your phone. Keep them somewhere safe: they are not shown again.</p>
            <ul className="recovery-codes">
              {codes.map((code) => (
                <li key={code}>
                  <code>{code}</code>
                </li>
              ))}
            </ul>
            <button type="button" onClick={onDone}>
              Continue to sign in
            </button>
          </section>
        )}
      </div>
    </main>
  );
}
