import { run, DashboardError } from './api';
import { h } from './dom';

/** The page shell every screen renders into: one h1 per screen, focus moved to it on navigation. */
export interface Screen {
  title: string;
  /** Builds the screen; may throw a DashboardError, shown as a friendly message. */
  render(main: HTMLElement, params: URLSearchParams, pathParts: string[]): Promise<void>;
  /** Screens of a signed-in seller: the navigation is shown, and a missing session sends to sign-in. */
  signedIn: boolean;
}

export const NAV: [string, string][] = [
  ['Overview', '/dashboard'],
  ['Payments', '/dashboard/payments'],
  ['Balance', '/dashboard/balance'],
  ['Disputes', '/dashboard/disputes'],
  ['Withdrawals', '/dashboard/withdrawals'],
  ['Developers', '/dashboard/developers'],
  ['Logs', '/dashboard/logs'],
  ['Account', '/dashboard/account'],
];

export function go(path: string): void {
  history.pushState(null, '', path);
  window.dispatchEvent(new Event('dashboard:navigate'));
}

/** An in-app link: a real <a href> (keyboard, middle click, screen readers), handled without reloading. */
export function link(text: string, href: string, attrs: Record<string, string> = {}): HTMLElement {
  return h('a', {
    href,
    ...attrs,
    onclick: (event: Event) => {
      const e = event as MouseEvent;
      if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
      event.preventDefault();
      go(href);
    },
  }, text);
}

export function heading(main: HTMLElement, text: string): HTMLElement {
  const h1 = h('h1', { tabindex: -1 }, text);
  main.append(h1);
  return h1;
}

export function loading(main: HTMLElement): void {
  main.replaceChildren(h('p', { class: 'status', role: 'status' }, 'Loading…'));
}

export function failure(main: HTMLElement, error: unknown): void {
  const text = error instanceof DashboardError ? error.message : 'Something went wrong on our side. Please try again in a moment.';
  main.replaceChildren(h('h1', { tabindex: -1 }, 'This page could not be shown'), h('p', { class: 'alert shown', role: 'alert' }, text));
}

export async function signOut(): Promise<void> {
  try {
    await run('SignOut');
  } finally {
    go('/dashboard/login');
  }
}
