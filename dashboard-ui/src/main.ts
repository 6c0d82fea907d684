import { DashboardError } from './api';
import { accountScreen } from './account-screen';
import { acceptInvitationScreen, resetPasswordScreen, signInScreen, signUpScreen, verifyEmailScreen } from './auth-screens';
import { developersScreen } from './developer-screen';
import { h } from './dom';
import { withdrawalsScreen } from './money-screens';
import { overviewScreen, paymentScreen, paymentsScreen } from './payment-screens';
import { balanceScreen, statementScreen } from './balance-screens';
import { disputesScreen } from './dispute-screen';
import { logsScreen } from './logs-screen';
import { failure, go, link, loading, NAV, signOut, type Screen } from './shell';

/** /dashboard/<first>/<rest...> -> its screen and the rest of the path. */
function route(pathname: string): [Screen, string[]] | null {
  const parts = pathname.replace(/\/+$/, '').split('/').slice(2);
  const [first = '', ...rest] = parts;
  const screens: Record<string, Screen> = {
    '': overviewScreen, signup: signUpScreen, login: signInScreen, payments: rest.length ? paymentScreen : paymentsScreen,
    withdrawals: withdrawalsScreen, developers: developersScreen, account: accountScreen, 'verify-email': verifyEmailScreen,
    'reset-password': resetPasswordScreen, 'accept-invitation': acceptInvitationScreen, balance: balanceScreen, disputes: disputesScreen,
    logs: logsScreen,
  };
  // A month's statement: /dashboard/balance/statements/2026-03.
  if (first === 'balance' && rest[0] === 'statements' && rest.length === 2) return [statementScreen, rest.slice(1)];
  const screen = screens[first];
  return screen && (rest.length === 0 || (screen === paymentScreen && rest.length === 1)) ? [screen, rest] : null;
}

const main = document.getElementById('main')!;
const topbar = document.getElementById('topbar')!;
const nav = document.getElementById('nav')!;
let rendering = 0;

function drawNav(pathname: string): void {
  nav.replaceChildren(h('ul', {}, ...NAV.map(([text, href]) => {
    const current = href === '/dashboard' ? pathname === '/dashboard' || pathname === '/dashboard/' : pathname.startsWith(href);
    return h('li', {}, link(text, href, current ? { 'aria-current': 'page' } : {}));
  })));
}

async function show(moveFocus: boolean): Promise<void> {
  const turn = ++rendering;
  const { pathname, search } = location;
  const found = route(pathname);
  const [screen, rest] = found ?? [null, []];
  topbar.hidden = !screen?.signedIn;
  if (screen?.signedIn) drawNav(pathname);
  loading(main);
  const fresh = document.createElement('div');
  try {
    if (!screen) {
      fresh.append(h('h1', { tabindex: -1 }, 'Page not found'), h('p', {}, 'There is no dashboard page at this address. ', link('Go to the overview', '/dashboard')));
    } else {
      await screen.render(fresh, new URLSearchParams(search), rest);
    }
    if (turn !== rendering) return;
    // The container itself goes in: screens keep it to redraw themselves (e.g. the key shown after sign-up).
    main.replaceChildren(fresh);
  } catch (error) {
    if (turn !== rendering) return;
    // A session that ended is handled by the 'dashboard:signed-out' listener below.
    if (error instanceof DashboardError && error.code === 'SIGNED_OUT') return;
    failure(main, error);
  }
  const title = main.querySelector('h1');
  document.title = `${title?.textContent ?? 'Dashboard'} · Seller dashboard`;
  // Keyboard and screen-reader users land on the new screen's heading, as after a page load.
  if (moveFocus) (title as HTMLElement | null)?.focus();
}

document.getElementById('sign-out')!.addEventListener('click', () => void signOut());
window.addEventListener('dashboard:signed-out', (event) => {
  const found = route(location.pathname);
  if (found && !found[0].signedIn) return;
  // "Your session has ended" only for a browser that had one: a first visit just signs in.
  const ended = (event as CustomEvent<{ ended?: boolean }>).detail?.ended ? 'ended=1&' : '';
  go(`/dashboard/login?${ended}next=${encodeURIComponent(location.pathname + location.search)}`);
});
window.addEventListener('popstate', () => void show(true));
window.addEventListener('dashboard:navigate', () => void show(true));
void show(false);
