import { run } from './api';
import { field, h, messageArea } from './dom';

interface Enrolment {
  beginTwoFactor: { secret: string; otpauthUri: string; qrCodeSvg: string };
}

const codeField = () => field('Authentication code', { type: 'text', inputmode: 'numeric', autocomplete: 'one-time-code', spellcheck: 'false', maxlength: 11, required: true });

/**
 * The QR code the server drew (SVG text) as an image. The CSP's img-src allows data: (and no inline style
 * or script): an <img> never runs what an SVG could hold, and needs no style attribute.
 */
function qrImage(svg: string): HTMLElement {
  return h('img', { class: 'qr', src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`, alt: 'QR code of your authenticator key', width: 200, height: 200 });
}

/** The Account screen's "Two-factor" section: turn on (password, QR code, first code, recovery codes shown once) or off. */
export function twoFactorSection(enabled: boolean, redraw: () => Promise<void>): HTMLElement {
  const section = h('section', { id: 'two-factor-section', 'aria-labelledby': 'two-factor-title' }, h('h2', { id: 'two-factor-title' }, 'Two-factor'));
  const body = h('div', {});
  section.append(body);
  if (enabled) body.append(turnOffForm(redraw));
  else body.append(turnOnForm(body, redraw));
  return section;
}

function turnOnForm(body: HTMLElement, redraw: () => Promise<void>): HTMLElement {
  const password = field('Password', { type: 'password', autocomplete: 'current-password', required: true }, 'Your password, to begin.');
  const message = messageArea();
  const form = h('form', { class: 'panel narrow', novalidate: true },
    h('p', {}, 'Two-factor is off. With it on, signing in also asks for a code from an authenticator app on your phone.'),
    password.wrap, message.element, h('button', { type: 'submit', class: 'primary' }, 'Turn on two-factor'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.clear();
    try {
      const { beginTwoFactor } = await run<Enrolment>('BeginTwoFactor', { password: password.control.value });
      body.replaceChildren(confirmForm(body, beginTwoFactor, redraw));
      body.querySelector<HTMLElement>('h3')?.focus();
    } catch (error) {
      message.error((error as Error).message);
    }
  });
  return form;
}

function confirmForm(body: HTMLElement, enrolment: Enrolment['beginTwoFactor'], redraw: () => Promise<void>): HTMLElement {
  const code = codeField();
  const message = messageArea();
  const form = h('form', { class: 'panel narrow', novalidate: true },
    h('h3', { tabindex: -1 }, 'Scan the QR code'),
    h('p', {}, 'Scan it with your authenticator app, or type the key below into it. Then enter the code the app shows.'),
    qrImage(enrolment.qrCodeSvg),
    h('p', {}, 'Key: ', h('code', { class: 'mono' }, enrolment.secret)),
    code.wrap, message.element, h('button', { type: 'submit', class: 'primary' }, 'Confirm'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.clear();
    try {
      const { confirmTwoFactor } = await run<{ confirmTwoFactor: string[] }>('ConfirmTwoFactor', { code: code.control.value.trim() });
      body.replaceChildren(recoveryCodes(confirmTwoFactor, redraw));
      body.querySelector<HTMLElement>('h3')?.focus();
    } catch (error) {
      message.error((error as Error).message);
    }
  });
  return form;
}

/** Shown this once: each code signs in once in place of an authentication code. */
function recoveryCodes(codes: string[], redraw: () => Promise<void>): HTMLElement {
  return h('div', { class: 'panel narrow' },
    h('h3', { tabindex: -1 }, 'Recovery codes'),
    h('p', { class: 'warning' }, h('strong', {}, 'Two-factor is on. '), 'Store these recovery codes now: they are shown this once. Each one signs you in once if you lose your phone.'),
    h('ul', { class: 'codes mono', 'aria-label': 'Recovery codes' }, ...codes.map((c) => h('li', {}, c))),
    keepCodes(codes),
    h('button', { type: 'button', class: 'primary', onclick: () => void redraw() }, 'I have stored them'));
}

/** Copy the codes, or download them as a text file (made in the page: nothing leaves the browser). */
function keepCodes(codes: string[]): HTMLElement {
  const text = `Recovery codes for your seller dashboard (each works once):\n\n${codes.join('\n')}\n`;
  const done = h('span', { class: 'copied', role: 'status' });
  return h('div', { class: 'copy-row keep-codes' },
    h('button', {
      type: 'button',
      class: 'secondary',
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(text);
          done.textContent = 'Copied';
        } catch {
          done.textContent = 'Could not copy: select the codes above and press Ctrl+C';
        }
      },
    }, 'Copy codes'),
    h('a', { class: 'button secondary', href: `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`, download: 'recovery-codes.txt' }, 'Download codes'),
    done);
}

function turnOffForm(redraw: () => Promise<void>): HTMLElement {
  const password = field('Password', { type: 'password', autocomplete: 'current-password', required: true });
  const code = codeField();
  const message = messageArea();
  const form = h('form', { class: 'panel narrow', novalidate: true },
    h('p', {}, 'Two-factor is on: signing in asks for a code from your authenticator app.'),
    password.wrap, code.wrap, message.element, h('button', { type: 'submit', class: 'secondary' }, 'Turn off two-factor'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.clear();
    try {
      await run('DisableTwoFactor', { password: password.control.value, code: code.control.value.trim() });
      await redraw();
    } catch (error) {
      message.error((error as Error).message);
    }
  });
  return form;
}
