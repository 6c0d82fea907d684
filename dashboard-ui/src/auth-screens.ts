import { run, DashboardError } from './api';
import { copyField, field, fieldError, h, messageArea } from './dom';
import { go, heading, link, type Screen } from './shell';

interface SignedUp {
  signUp: { apiKey: string; webhookSecret: string; shop: { name: string } };
}

/** Shown once, right after the shop is created: the only time the key and secret are ever on screen. `note` follows the warning. */
export function showCredentials(main: HTMLElement, title: string, apiKey: string, webhookSecret: string, next: string, note: HTMLElement | null = null): void {
  main.replaceChildren();
  heading(main, title).focus();
  main.append(
    h('p', { class: 'warning' }, h('strong', {}, 'Store these now. '), 'They are shown this once and never again: we keep only a hash of the key. If you lose the key, delete the shop and create a new one.'),
    ...(note ? [note] : []),
    h('section', { class: 'panel', 'aria-labelledby': 'cred-title' },
      h('h2', { id: 'cred-title' }, 'Your credentials'),
      copyField('API key', apiKey, 'Copy API key'),
      copyField('Webhook secret', webhookSecret, 'Copy webhook secret'),
    ),
    h('p', {}, link('I have stored them: continue', next, { class: 'button primary' })),
  );
}

export const signUpScreen: Screen = {
  title: 'Create your seller account',
  signedIn: false,
  async render(main) {
    heading(main, this.title);
    const email = field('Email', { type: 'email', autocomplete: 'email', required: true });
    const password = field('Password', { type: 'password', autocomplete: 'new-password', required: true, minlength: 12 }, 'At least 12 characters; not a common password.');
    const shop = field('Shop name', { type: 'text', autocomplete: 'organization', required: true, maxlength: 200 });
    const message = messageArea();
    const form = h('form', { class: 'panel narrow', novalidate: true }, email.wrap, password.wrap, shop.wrap, message.element, h('button', { type: 'submit', class: 'primary' }, 'Create account'));
    // A refusal about one field is shown under that field ("Password is too common" under Password).
    const fields: [RegExp, ReturnType<typeof field>][] = [[/^PASSWORD_/, password], [/^EMAIL_/, email], [/^SHOP_NAME_/, shop]];
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      message.clear();
      for (const [, f] of fields) fieldError(f.wrap, f.control, null);
      try {
        const { signUp } = await run<SignedUp>('SignUp', { input: { email: email.control.value, password: password.control.value, shopName: shop.control.value } });
        showCredentials(main, `Welcome, ${signUp.shop.name}`, signUp.apiKey, signUp.webhookSecret, '/dashboard');
      } catch (error) {
        const about = error instanceof DashboardError ? fields.find(([code]) => code.test(error.code))?.[1] : undefined;
        if (!about) return message.error((error as Error).message);
        fieldError(about.wrap, about.control, (error as Error).message);
        about.control.focus();
      }
    });
    main.append(form, h('p', {}, 'Already have an account? ', link('Sign in', '/dashboard/login')));
  },
};

export const signInScreen: Screen = {
  title: 'Sign in',
  signedIn: false,
  async render(main, params) {
    heading(main, this.title);
    const email = field('Email', { type: 'email', autocomplete: 'username', required: true });
    const password = field('Password', { type: 'password', autocomplete: 'current-password', required: true });
    // The second step: shown when SignIn answers AUTHENTICATION_CODE_REQUIRED (two-factor is on).
    const code = field('Authentication code', { type: 'text', inputmode: 'numeric', autocomplete: 'one-time-code', spellcheck: 'false', maxlength: 11 }, 'The 6-digit code of your authenticator app, or one of your recovery codes.');
    const secondStep = h('div', { id: 'two-factor-step', hidden: true }, code.wrap);
    const message = messageArea();
    const form = h('form', { class: 'panel narrow', novalidate: true }, email.wrap, password.wrap, secondStep, message.element, h('button', { type: 'submit', class: 'primary' }, 'Sign in'));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      message.clear();
      try {
        const askCode = !secondStep.hidden;
        await run('SignIn', { email: email.control.value, password: password.control.value, code: askCode ? code.control.value.trim() || null : null });
        const next = params.get('next');
        go(next && next.startsWith('/dashboard') && !next.startsWith('//') ? next : '/dashboard');
      } catch (error) {
        if (error instanceof DashboardError && error.code === 'AUTHENTICATION_CODE_REQUIRED') {
          secondStep.hidden = false;
          message.info('Two-factor authentication is on: enter the code of your authenticator app.');
          code.control.focus();
          return;
        }
        message.error((error as Error).message);
      }
    });
    if (params.get('ended')) message.error('Your session has ended. Please sign in again.');
    if (params.get('done')) message.success(params.get('done') === 'reset' ? 'Your password is changed. Sign in with the new one.' : 'Your password is set. Sign in to continue.');
    main.append(form, h('p', {}, link('Forgot password?', '/dashboard/reset-password')), h('p', {}, 'New here? ', link('Create an account', '/dashboard/signup')));
  },
};

/** A new password from a mailed link (reset or invitation): the link's token and one field. */
function newPasswordForm(main: HTMLElement, token: string, label: string, button: string, operation: 'ResetPassword' | 'AcceptInvitation', done: string): void {
  const password = field(label, { type: 'password', autocomplete: 'new-password', required: true, minlength: 12 }, 'At least 12 characters; not a common password.');
  const message = messageArea();
  const form = h('form', { class: 'panel narrow', novalidate: true }, password.wrap, message.element, h('button', { type: 'submit', class: 'primary' }, button));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.clear();
    try {
      await run(operation, { token, password: password.control.value });
      go(`/dashboard/login?done=${done}`);
    } catch (error) {
      message.error((error as Error).message);
    }
  });
  main.append(form);
}

export const resetPasswordScreen: Screen = {
  title: 'Reset your password',
  signedIn: false,
  async render(main, params) {
    heading(main, this.title);
    const token = params.get('token');
    if (token) {
      main.append(h('p', {}, 'Choose a new password. Every place you are signed in will be signed out.'));
      newPasswordForm(main, token, 'New password', 'Set new password', 'ResetPassword', 'reset');
      return;
    }
    // The same answer whether or not the address has an account (no enumeration).
    const email = field('Email', { type: 'email', autocomplete: 'email', required: true });
    const message = messageArea();
    const form = h('form', { class: 'panel narrow', novalidate: true }, email.wrap, message.element, h('button', { type: 'submit', class: 'primary' }, 'Send reset link'));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      message.clear();
      try {
        await run('RequestPasswordReset', { email: email.control.value });
        message.success('If this address has an account, a link to reset the password is on its way. It works once, for 30 minutes.');
      } catch (error) {
        message.error((error as Error).message);
      }
    });
    main.append(h('p', {}, 'Enter the email address of your account: we mail you a link to choose a new password.'), form, h('p', {}, link('Back to sign in', '/dashboard/login')));
  },
};

export const acceptInvitationScreen: Screen = {
  title: 'Set your password',
  signedIn: false,
  async render(main, params) {
    heading(main, this.title);
    const token = params.get('token');
    const message = messageArea();
    if (!token) {
      main.append(message.element);
      return message.error('This invitation link is incomplete. Open the link from the email again.');
    }
    main.append(h('p', {}, 'You were invited to the payments dashboard. Choose the password of your account.'));
    newPasswordForm(main, token, 'Password', 'Set password', 'AcceptInvitation', 'invited');
  },
};

export const verifyEmailScreen: Screen = {
  title: 'Verify your email address',
  signedIn: true,
  async render(main, params) {
    heading(main, this.title);
    const token = params.get('token') ?? '';
    const message = messageArea();
    main.append(message.element);
    if (!token) return message.error('This verification link is incomplete. Open the link from the email again.');
    try {
      await run('VerifyEmail', { token });
      message.success('Your email address is verified. You can now request withdrawals.');
    } catch (error) {
      if (error instanceof DashboardError && error.code === 'SIGNED_OUT') throw error;
      message.error((error as Error).message);
    }
    main.append(h('p', {}, link('Go to the overview', '/dashboard')));
  },
};
