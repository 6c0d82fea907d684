import { run } from './api';
import { h, messageArea, table } from './dom';
import { when } from './format';
import { go, heading, type Screen } from './shell';

interface AccountData {
  currentSeller: { email: string; emailVerifiedAt: string | null; createdAt: string };
  activeSessions: { id: string; createdAt: string; lastSeenAt: string; current: boolean }[];
}

export const accountScreen: Screen = {
  title: 'Account',
  signedIn: true,
  async render(main) {
    const data = await run<AccountData>('Account');
    heading(main, this.title);
    const seller = data.currentSeller;
    const message = messageArea();
    main.append(
      h('dl', { class: 'details' },
        h('div', {}, h('dt', {}, 'Email'), h('dd', {}, seller.email)),
        h('div', {}, h('dt', {}, 'Email verified'), h('dd', {}, seller.emailVerifiedAt ? `Yes, ${when(seller.emailVerifiedAt)}` : 'Not yet: open the link in the email we sent you'))),
      // PASSWORD (accounts helper): "Change password" goes in this section.
      h('section', { id: 'password-section', 'aria-labelledby': 'password-title' }, h('h2', { id: 'password-title' }, 'Password'),
        h('p', {}, 'Changing your password from here is coming soon.')),
      // TWO-FACTOR (accounts helper): turning two-factor on (QR code, "Authentication code", recovery codes) goes in this section.
      h('section', { id: 'two-factor-section', 'aria-labelledby': 'two-factor-title' }, h('h2', { id: 'two-factor-title' }, 'Two-factor'),
        h('p', {}, 'Two-factor authentication with an authenticator app is coming soon.')),
      h('section', { 'aria-labelledby': 'sessions-title' }, h('h2', { id: 'sessions-title' }, 'Active sessions'),
        table('Active sessions', ['Signed in', 'Last active', 'Note'], data.activeSessions.map((s) => [when(s.createdAt), when(s.lastSeenAt), s.current ? 'This browser' : ''])),
        message.element,
        h('button', {
          type: 'button',
          class: 'secondary',
          onclick: async () => {
            try {
              await run('SignOutEverywhere');
              go('/dashboard/login');
            } catch (error) {
              message.error((error as Error).message);
            }
          },
        }, 'Sign out everywhere')),
    );
  },
};
