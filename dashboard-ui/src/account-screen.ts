import { run } from './api';
import { field, h, messageArea, table, uid } from './dom';
import { when } from './format';
import { go, heading, type Screen } from './shell';
import { twoFactorSection } from './two-factor';

interface MailSettings {
  supportEmail: string;
  supportEmailSet: boolean;
  notifications: { topic: string; label: string; enabled: boolean }[];
}

interface AccountData {
  currentSeller: { email: string; emailVerifiedAt: string | null; createdAt: string; twoFactorEnabled: boolean; mailSettings: MailSettings };
  mySessions: { id: string; createdAt: string; lastSeenAt: string; userAgent: string; current: boolean }[];
}

/** "Change password": the current one is asked (a stolen session cannot change it); other sessions end. */
function passwordSection(): HTMLElement {
  const current = field('Current password', { type: 'password', autocomplete: 'current-password', required: true });
  const next = field('New password', { type: 'password', autocomplete: 'new-password', required: true, minlength: 12 }, 'At least 12 characters; not a common password. Your other sessions will be signed out.');
  const message = messageArea();
  const form = h('form', { class: 'panel narrow', novalidate: true }, current.wrap, next.wrap, message.element, h('button', { type: 'submit', class: 'primary' }, 'Change password'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.clear();
    try {
      await run('ChangePassword', { currentPassword: current.control.value, newPassword: next.control.value });
      current.control.value = '';
      next.control.value = '';
      message.success('Your password is changed. Your other sessions were signed out.');
    } catch (error) {
      message.error((error as Error).message);
    }
  });
  return h('section', { id: 'password-section', 'aria-labelledby': 'password-title' }, h('h2', { id: 'password-title' }, 'Password'), form);
}

/**
 * "Mail": the support address receipts and refund notices give customers (empty: the account's address), and one
 * checkbox per notification topic, all on until switched off (docs/dashboard.md, "Mail: receipts and notifications").
 */
function mailSection(settings: MailSettings, accountEmail: string): HTMLElement {
  const support = field('Support email for your customers', { type: 'email', autocomplete: 'email', value: settings.supportEmailSet ? settings.supportEmail : '', placeholder: accountEmail },
    `Receipts and refund notices tell customers to write here, and replies to them come here. Leave it empty to use ${accountEmail}.`);
  const boxes = settings.notifications.map((n) => {
    const id = uid('topic');
    const box = h('input', { type: 'checkbox', id, value: n.topic, checked: n.enabled }) as HTMLInputElement;
    return { box, row: h('div', { class: 'check' }, box, h('label', { for: id }, n.label)) };
  });
  const message = messageArea();
  const form = h('form', { class: 'panel narrow', novalidate: true }, support.wrap,
    h('fieldset', {}, h('legend', {}, 'Email me when'), ...boxes.map((b) => b.row)),
    message.element, h('button', { type: 'submit', class: 'primary' }, 'Save mail settings'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.clear();
    try {
      const enabledTopics = boxes.filter((b) => b.box.checked).map((b) => b.box.value);
      const saved = await run<{ setMailSettings: MailSettings }>('SetMailSettings', { supportEmail: support.control.value.trim() || null, enabledTopics });
      support.control.value = saved.setMailSettings.supportEmailSet ? saved.setMailSettings.supportEmail : '';
      message.success(`Saved. Customers are told to write to ${saved.setMailSettings.supportEmail}.`);
    } catch (error) {
      message.error((error as Error).message);
    }
  });
  return h('section', { id: 'mail-section', 'aria-labelledby': 'mail-title' }, h('h2', { id: 'mail-title' }, 'Mail'), form);
}

function sessionsSection(sessions: AccountData['mySessions'], redraw: () => Promise<void>): HTMLElement {
  const message = messageArea();
  const rows = sessions.map((s) => [
    s.userAgent,
    when(s.createdAt),
    when(s.lastSeenAt),
    s.current
      ? 'This browser'
      : h('button', {
        type: 'button',
        class: 'secondary small',
        'aria-label': `Sign out ${s.userAgent}, signed in ${when(s.createdAt)}`,
        onclick: async () => {
          try {
            await run('RevokeSession', { id: s.id });
            await redraw();
          } catch (error) {
            message.error((error as Error).message);
          }
        },
      }, 'Sign out'),
  ]);
  return h('section', { 'aria-labelledby': 'sessions-title' }, h('h2', { id: 'sessions-title' }, 'Active sessions'),
    table('Active sessions', ['Browser', 'Signed in', 'Last active', 'Session'], rows),
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
    }, 'Sign out everywhere'));
}

/** "Send the link again" while the address is unverified (the first mail may have been lost). */
function resendVerification(): HTMLElement {
  const done = h('span', { class: 'copied', role: 'status' });
  const button = h('button', {
    type: 'button',
    class: 'secondary small',
    onclick: async () => {
      try {
        const { resendVerificationEmail } = await run<{ resendVerificationEmail: boolean }>('ResendVerificationEmail');
        done.textContent = resendVerificationEmail ? 'A new link is on its way.' : 'Your address is already verified.';
      } catch (error) {
        done.textContent = (error as Error).message;
      }
    },
  }, 'Send the link again');
  return h('span', { class: 'copy-row' }, button, done);
}

/** The screen's content, drawn again (into the same container) after two-factor or a session changed. */
async function build(redraw: () => Promise<void>): Promise<Node[]> {
  const data = await run<AccountData>('Account');
  const seller = data.currentSeller;
  const holder = document.createElement('div');
  heading(holder, 'Account');
  holder.append(
    h('dl', { class: 'details' },
      h('div', {}, h('dt', {}, 'Email'), h('dd', {}, seller.email)),
      h('div', {}, h('dt', {}, 'Email verified'), h('dd', {}, seller.emailVerifiedAt ? `Yes, ${when(seller.emailVerifiedAt)}` : ['Not yet: open the link in the email we sent you. ', resendVerification()]))),
    passwordSection(),
    twoFactorSection(seller.twoFactorEnabled, redraw),
    mailSection(seller.mailSettings, seller.email),
    sessionsSection(data.mySessions, redraw),
  );
  return [...holder.childNodes];
}

export const accountScreen: Screen = {
  title: 'Account',
  signedIn: true,
  async render(main) {
    const redraw = async () => {
      main.replaceChildren(...(await build(redraw)));
      main.querySelector<HTMLElement>('h1')?.focus();
    };
    main.append(...(await build(redraw)));
  },
};
