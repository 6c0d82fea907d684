import { DashboardError } from './api';
import { field, h, messageArea, uid } from './dom';

/** What the server takes as proof that the person at the screen is the account's (docs/dashboard.md, "Re-authentication"). */
export interface Proof {
  currentPassword?: string;
  code?: string;
}

/** Answers about the proof itself: shown in the dialog, where the person may try again or cancel. */
const PROOF_CODES = new Set(['PASSWORD_INCORRECT', 'AUTHENTICATION_CODE_INVALID', 'REAUTHENTICATION_REQUIRED', 'ACCOUNT_LOCKED']);

/**
 * Changing where money or data go (payout account, webhook URL, webhook secret) asks the person to confirm it
 * is them: a modal dialog with "Current password", or "Authentication code" when two-factor is on. `change`
 * runs with the proof; a wrong proof is said in the dialog; any other answer closes it and is the caller's.
 * Resolves with what `change` answered, or null when the person cancels (Cancel or Escape).
 */
export function withReauthentication<T>(what: string, twoFactor: boolean, change: (proof: Proof) => Promise<T>): Promise<T | null> {
  return new Promise<T | null>((resolve, reject) => {
    const proof = twoFactor
      ? field('Authentication code', { type: 'text', inputmode: 'numeric', autocomplete: 'one-time-code', spellcheck: 'false', maxlength: 11, required: true }, 'From your authenticator app (or a recovery code).')
      : field('Current password', { type: 'password', autocomplete: 'current-password', required: true });
    const message = messageArea();
    const titleId = uid('reauth');
    const confirm = h('button', { type: 'submit', class: 'primary' }, 'Confirm') as HTMLButtonElement;
    const form = h('form', { novalidate: true },
      h('h2', { id: titleId }, 'Confirm it is you'),
      h('p', {}, `${what}. ${twoFactor ? 'Enter a current code from your authenticator app' : 'Enter your current password'} to go on.`),
      proof.wrap, message.element,
      h('div', { class: 'dialog-actions' }, confirm, h('button', { type: 'button', class: 'secondary', onclick: () => finish(() => resolve(null)) }, 'Cancel')));
    const dialog = h('dialog', { class: 'reauth', 'aria-labelledby': titleId }, form) as HTMLDialogElement;
    const returnFocus = document.activeElement as HTMLElement | null;
    let done = false;
    const finish = (settle: () => void) => {
      if (done) return;
      done = true;
      dialog.close();
      dialog.remove();
      returnFocus?.focus();
      settle();
    };
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      finish(() => resolve(null));
    });
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      message.clear();
      const value = proof.control.value;
      if (value.trim() === '') return message.error(twoFactor ? 'Enter the code from your authenticator app.' : 'Enter your current password.');
      confirm.disabled = true;
      try {
        const answer = await change(twoFactor ? { code: value.trim() } : { currentPassword: value });
        finish(() => resolve(answer));
      } catch (error) {
        if (error instanceof DashboardError && PROOF_CODES.has(error.code)) {
          confirm.disabled = false;
          proof.control.value = '';
          proof.control.focus();
          return message.error(error.message);
        }
        finish(() => reject(error));
      }
    });
    document.body.append(dialog);
    dialog.showModal();
    proof.control.focus();
  });
}
