import { run } from './api';
import { copyField, field, h, messageArea, table, uid } from './dom';
import { statusWord, when } from './format';
import { showCredentials } from './auth-screens';
import { withReauthentication } from './reauth';
import { heading, link, type Screen } from './shell';
import { WEBHOOK_EVENT_CHOICES } from './webhook-events';

interface Attempt { number: number; httpStatus: number | null; error: string | null; responseExcerpt: string | null; durationMs: number | null; startedAt?: string }
interface Delivery {
  id: string; eventType: string; status: string; test: boolean; paymentId: string | null; attemptCount: number;
  lastAttemptAt: string | null; nextAttemptAt: string | null; deliveredAt: string | null; failedAt: string | null; attempts: Attempt[];
}

interface DevelopersData { currentShop: { webhookEvents: string[] }; webhookDeliveries: { items: Delivery[] }; liveTestAllowance: LiveTestAllowance }

interface LiveTestAllowance { dailyLimit: number; usedToday: number; remainingToday: number }
interface LiveTest { payment: { id: string; amount: number; checkoutUrl: string }; allowance: LiveTestAllowance }

function answerOf(attempt: Attempt | undefined): string {
  if (!attempt) return 'No attempt yet';
  if (attempt.httpStatus) return `HTTP ${attempt.httpStatus}${attempt.responseExcerpt ? `: ${attempt.responseExcerpt.slice(0, 200)}` : ''}`;
  return attempt.error ?? 'No answer';
}

export const developersScreen: Screen = {
  title: 'Developers',
  signedIn: true,
  async render(main) {
    const me = await run<{ currentSeller: { twoFactorEnabled: boolean; shop: { id: string; name: string; webhookUrl: string | null } | null } }>('Me');
    heading(main, this.title);
    const shop = me.currentSeller.shop;
    if (!shop) return main.append(await newShopSection(main, me.currentSeller.twoFactorEnabled));

    const { currentShop, webhookDeliveries, liveTestAllowance } = await run<DevelopersData>('Developers');
    const log = deliveryLog(webhookDeliveries.items);
    main.append(
      h('section', { 'aria-labelledby': 'key-title' }, h('h2', { id: 'key-title' }, 'API key'),
        h('p', {}, `Your shop “${shop.name}” has one live API key. It was shown once, when the shop was created; we keep only its hash. If it is lost or may have leaked, delete the shop below and create a new one: the old key stops at once.`)),
      webhookSection(shop.webhookUrl, currentShop.webhookEvents, me.currentSeller.twoFactorEnabled, log.refresh),
      liveTestSection(liveTestAllowance),
      log.section,
      deleteSection(main, shop.name, me.currentSeller.twoFactorEnabled),
    );
  },
};

/**
 * Saving the URL and rotating the secret ask for the password (or a code) first: they change where events go and who can
 * sign them. Which events are sent is the seller's choice alone (setWebhookEvents). A test delivery shows in the log.
 */
function webhookSection(current: string | null, events: readonly string[], twoFactor: boolean, refreshLog: () => Promise<void>): HTMLElement {
  const url = field('Webhook URL', { type: 'url', value: current ?? '', spellcheck: 'false', inputmode: 'url', placeholder: 'https://example.com/webhooks' }, 'HTTPS on a public address. Payment events are sent here, signed with your webhook secret.');
  const saveMessage = messageArea();
  const save = h('form', { class: 'panel', novalidate: true }, url.wrap, saveMessage.element, h('button', { type: 'submit', class: 'primary' }, 'Save webhook URL'));
  save.addEventListener('submit', async (event) => {
    event.preventDefault();
    saveMessage.clear();
    try {
      const value = url.control.value.trim();
      const saved = await withReauthentication(value ? 'Save the webhook URL' : 'Remove the webhook URL', twoFactor, (proof) => run('SetWebhookUrl', { url: value || null, ...proof }));
      if (saved === null) return saveMessage.success('Not saved: the webhook URL is unchanged.');
      saveMessage.success(value ? 'Webhook URL saved.' : 'Webhook URL removed.');
    } catch (error) {
      saveMessage.error((error as Error).message);
    }
  });

  const testMessage = messageArea();
  const testResult = h('div');
  const testButton = h('button', {
    type: 'button',
    class: 'secondary',
    onclick: async () => {
      testMessage.clear();
      testResult.replaceChildren();
      testMessage.success('Sending a test delivery…');
      try {
        const { sendTestWebhook: sent } = await run<{ sendTestWebhook: Delivery }>('SendTestWebhook');
        testMessage.success('Test delivery sent; waiting for your receiver’s answer…');
        const d = await answered(sent);
        const attempt = d.attempts[d.attempts.length - 1];
        testMessage.success(d.attempts.length === 0 ? 'No answer yet: the delivery log below will show it.' : d.status === 'DELIVERED' ? 'Test delivery answered.' : 'Test delivery not accepted.');
        testResult.replaceChildren(h('dl', { class: 'details' },
          h('div', {}, h('dt', {}, 'Receiver’s answer'), h('dd', { class: 'mono' }, answerOf(attempt))),
          h('div', {}, h('dt', {}, 'Status'), h('dd', {}, statusWord(d.status))),
          attempt?.durationMs != null ? h('div', {}, h('dt', {}, 'Time'), h('dd', {}, `${attempt.durationMs} ms`)) : null));
        await refreshLog();
      } catch (error) {
        testMessage.error((error as Error).message);
      }
    },
  }, 'Send test delivery');

  const secretArea = h('div');
  const secretMessage = messageArea();
  const rotate = h('button', {
    type: 'button',
    class: 'secondary',
    onclick: async () => {
      secretMessage.clear();
      try {
        const rotated = await withReauthentication('Rotate the webhook secret', twoFactor, (proof) => run<{ rotateWebhookSecret: { webhookSecret: string } }>('RotateWebhookSecret', { ...proof }));
        if (rotated === null) return secretMessage.success('Not rotated: the webhook secret is unchanged.');
        const { rotateWebhookSecret } = rotated;
        secretArea.replaceChildren(h('p', { class: 'warning' }, 'New secret: shown this once. Deliveries are signed with it from now on.'), copyField('Webhook secret', rotateWebhookSecret.webhookSecret, 'Copy webhook secret'));
        secretMessage.success('Webhook secret rotated.');
      } catch (error) {
        secretMessage.error((error as Error).message);
      }
    },
  }, 'Rotate webhook secret');

  return h('section', { 'aria-labelledby': 'webhook-title' }, h('h2', { id: 'webhook-title' }, 'Webhooks'), save, eventsForm(events),
    h('div', { class: 'panel' }, h('h3', {}, 'Test delivery'), h('p', {}, 'Sends a sample payment.completed event, marked as a test, to the saved URL.'), testButton, testMessage.element, testResult),
    h('div', { class: 'panel' }, h('h3', {}, 'Webhook secret'), h('p', {}, 'Rotating replaces the secret at once; update your receiver with the new one.'), rotate, secretMessage.element, secretArea));
}

/** One checkbox per event the shop may choose; payment.completed is shown ticked, since it is always sent. */
function eventsForm(chosen: readonly string[]): HTMLElement {
  const always = uid('event');
  const boxes = WEBHOOK_EVENT_CHOICES.map(([event, when]) => {
    const id = uid('event');
    const box = h('input', { type: 'checkbox', id, value: event, checked: chosen.includes(event) }) as HTMLInputElement;
    return { box, row: h('div', { class: 'check' }, box, h('label', { for: id }, h('span', { class: 'mono' }, event), `: ${when}`)) };
  });
  const message = messageArea();
  const form = h('form', { class: 'panel', novalidate: true },
    h('fieldset', {}, h('legend', {}, 'Events sent to your receiver'),
      h('div', { class: 'check' }, h('input', { type: 'checkbox', id: always, checked: true, disabled: true }),
        h('label', { for: always }, h('span', { class: 'mono' }, 'payment.completed'), ': a payment completed (always sent)')),
      ...boxes.map((b) => b.row)),
    message.element, h('button', { type: 'submit', class: 'primary' }, 'Save events'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.clear();
    try {
      const { setWebhookEvents: saved } = await run<{ setWebhookEvents: { webhookEvents: string[] } }>('SetWebhookEvents', { events: boxes.filter((b) => b.box.checked).map((b) => b.box.value) });
      for (const b of boxes) b.box.checked = saved.webhookEvents.includes(b.box.value);
      message.success(saved.webhookEvents.length === 0 ? 'Events saved: only payment.completed is sent.' : `Events saved: payment.completed and ${saved.webhookEvents.join(', ')} are sent.`);
    } catch (error) {
      message.error((error as Error).message);
    }
  });
  return form;
}

const allowanceText = (a: LiveTestAllowance) =>
  a.remainingToday === 0 ? `You have run all ${a.dailyLimit} live tests for today (UTC). More tomorrow.` : `${a.remainingToday} of ${a.dailyLimit} live tests left today (UTC).`;

/**
 * A real 50-cent payment of this shop, paid on the real checkout page with the seller's own card: the service
 * refunds it at once with no fee, and its webhook events carry `"test": true` (docs/dashboard.md, "Live test").
 */
function liveTestSection(allowance: LiveTestAllowance): HTMLElement {
  const left = h('p', { class: 'muted' }, allowanceText(allowance));
  const message = messageArea();
  const next = h('div');
  const button = h('button', {
    type: 'button',
    class: 'primary',
    onclick: async () => {
      message.clear();
      next.replaceChildren();
      try {
        const { runLiveTest: test } = await run<{ runLiveTest: LiveTest }>('RunLiveTest');
        left.textContent = allowanceText(test.allowance);
        message.success('Live test created. Pay it with your own card: it is refunded to that card automatically, with no fee.');
        next.replaceChildren(h('p', {}, h('a', { href: test.payment.checkoutUrl, class: 'button primary' }, 'Pay the 50-cent live test')),
          h('p', {}, 'Afterwards, follow it on ', link('its payment page', `/dashboard/payments/${encodeURIComponent(test.payment.id)}`), ' and in the delivery log below.'));
      } catch (error) {
        message.error((error as Error).message);
      }
    },
  }, 'Run a live test');
  return h('section', { 'aria-labelledby': 'live-test-title' }, h('h2', { id: 'live-test-title' }, 'Live test'),
    h('div', { class: 'panel' },
      h('p', {}, 'Pay 50 cents to your own shop with your own card, through the real checkout page, and watch your integration receive it. The payment is refunded to the card at once, with no fee, and its webhook events carry "test": true so your code can ignore them.'),
      left, button, message.element, next));
}

/**
 * The test delivery is sent by the delivery workers: its one attempt is read back until it is made, for a minute at
 * most (past the receiver's own time-out, with room for busy workers).
 */
async function answered(delivery: Delivery): Promise<Delivery> {
  let current = delivery;
  for (let i = 0; i < 120 && current.attempts.length === 0; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    current = (await run<{ webhookDelivery: Delivery }>('WebhookDeliveryAnswer', { id: delivery.id })).webhookDelivery;
  }
  return current;
}

/** The delivery log, test deliveries included; `refresh` reads it again (after a test delivery is answered). */
function deliveryLog(initial: Delivery[]): { section: HTMLElement; refresh(): Promise<void> } {
  const section = h('section', { 'aria-labelledby': 'log-title' });
  const draw = (items: Delivery[]) => section.replaceChildren(h('h2', { id: 'log-title' }, 'Delivery log'), ...deliveryLogBody(items));
  draw(initial);
  return {
    section,
    async refresh() {
      draw((await run<DevelopersData>('Developers')).webhookDeliveries.items);
    },
  };
}

function deliveryLogBody(items: Delivery[]): HTMLElement[] {
  if (items.length === 0) return [h('p', { class: 'empty' }, 'No deliveries yet. They appear here when an event or a test delivery is sent.')];
  const message = messageArea();
  return [message.element, table('Delivery log', ['Event', 'Status', 'Attempts', 'Last attempt', 'Last answer', 'Next retry', 'Action'], items.map((d) => [
    `${d.eventType}${d.test ? ' (test)' : ''}`,
    statusWord(d.status),
    String(d.attemptCount),
    when(d.lastAttemptAt),
    answerOf(d.attempts[d.attempts.length - 1]),
    d.status === 'PENDING' ? when(d.nextAttemptAt) : '—',
    d.status === 'FAILED' && !d.test
      ? h('button', {
        type: 'button',
        class: 'secondary small',
        'aria-label': `Re-send ${d.eventType} delivery ${d.id}`,
        onclick: async (event: Event) => {
          message.clear();
          try {
            await run('ResendWebhookDelivery', { id: d.id });
            (event.target as HTMLButtonElement).replaceWith('Re-sent');
            message.success('Delivery re-sent: a new retry schedule has started.');
          } catch (error) {
            message.error((error as Error).message);
          }
        },
      }, 'Re-send')
      : '',
  ]))];
}

function deleteSection(main: HTMLElement, shopName: string, twoFactor: boolean): HTMLElement {
  const confirm = field('Type the shop name to confirm', { type: 'text', autocomplete: 'off', spellcheck: 'false' }, `Type “${shopName}”. Deleting stops the API key at once; payments, balance and withdrawals stay.`);
  const message = messageArea();
  const losses = h('ul', { class: 'losses' },
    h('li', {}, 'The API key stops at once. A new shop gets a new key.'),
    h('li', {}, "The new key does not read this shop's payments: retrieving and listing them over the API stops. They stay in this dashboard."),
    h('li', {}, 'The webhook signing secret goes with the shop: the new shop issues a new one, for your receiver.'),
    h('li', {}, 'The webhook URL and its events can be kept: creating the new shop offers to carry them over.'),
    h('li', {}, 'Your balance, withdrawals, statements and payout account stay with your account.'));
  const form = h('form', { class: 'panel danger', novalidate: true }, h('p', {}, 'Before you delete it:'), losses, confirm.wrap, message.element, h('button', { type: 'submit', class: 'danger-button' }, 'Delete shop'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.clear();
    if (confirm.control.value.trim() !== shopName) return message.error('The name typed is not the shop name; the shop was not deleted.');
    try {
      const deleted = await withReauthentication('Delete the shop', twoFactor, (proof) => run('DeleteMyShop', { shopName: confirm.control.value, ...proof }));
      if (deleted === null) return;
      main.replaceChildren();
      heading(main, 'Developers');
      main.append(h('p', { role: 'status', class: 'message' }, 'Shop deleted. Its API key no longer works.'), await newShopSection(main, twoFactor));
      (main.querySelector('h1') as HTMLElement).focus();
    } catch (error) {
      message.error((error as Error).message);
    }
  });
  return h('section', { 'aria-labelledby': 'delete-title' }, h('h2', { id: 'delete-title' }, 'Delete shop'), form);
}

interface PreviousShopWebhook { shopName: string; webhookUrl: string | null; webhookEvents: string[] }

/** What the new shop would keep, in words: the URL and every event sent (payment.completed always is). */
const keptDescription = (kept: Omit<PreviousShopWebhook, 'shopName'>) => [
  kept.webhookUrl ? [h('span', { class: 'mono' }, kept.webhookUrl), '. '] : 'No webhook URL. ',
  'Events: ', h('span', { class: 'mono' }, ['payment.completed', ...kept.webhookEvents].join(', ')), '.',
].flat();

/**
 * A new shop, after re-authentication: a new API key and webhook secret, shown once. When the server offers the
 * previous shop's webhook URL and events (previousShopWebhook: the seller's own last shop, never one from before the
 * account was taken back from a reset link), a checkbox, ticked, keeps them; the secret is new either way.
 */
async function newShopSection(main: HTMLElement, twoFactor: boolean): Promise<HTMLElement> {
  const { currentSeller } = await run<{ currentSeller: { previousShopWebhook: PreviousShopWebhook | null } }>('PreviousShopWebhook');
  const kept = currentSeller.previousShopWebhook;
  const name = field('Shop name', { type: 'text', required: true, maxlength: 200, autocomplete: 'organization' });
  const keepId = uid('keep');
  const keep = kept ? h('input', { type: 'checkbox', id: keepId, checked: true, 'aria-describedby': `${keepId}-what` }) as HTMLInputElement : null;
  const keepRow = keep && kept
    ? h('div', { class: 'field' },
      h('div', { class: 'check' }, keep, h('label', { for: keepId }, `Keep the webhook URL and events of “${kept.shopName}”`)),
      h('p', { id: `${keepId}-what`, class: 'hint' }, ...keptDescription(kept), ' A new webhook secret is issued either way.'))
    : null;
  const message = messageArea();
  const form = h('form', { class: 'panel narrow', novalidate: true }, name.wrap, keepRow, message.element, h('button', { type: 'submit', class: 'primary' }, 'Create a new shop'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.clear();
    try {
      const keepWebhook = keep?.checked ?? false;
      const answer = await withReauthentication('Create a shop with a new API key', twoFactor, (proof) =>
        run<{ createMyShop: { apiKey: string; webhookSecret: string; shop: { name: string; webhookUrl: string | null; webhookEvents: string[] } } }>('CreateMyShop', { shopName: name.control.value, keepWebhook, ...proof }));
      if (answer === null) return;
      const { createMyShop } = answer;
      const { webhookUrl, webhookEvents } = createMyShop.shop;
      const note = keepWebhook
        ? h('p', { class: 'message info' }, 'Kept from your previous shop: ', ...keptDescription({ webhookUrl, webhookEvents }), ' Update your receiver with the new webhook secret below: events are signed with it from now on.')
        : null;
      showCredentials(main, `New shop: ${createMyShop.shop.name}`, createMyShop.apiKey, createMyShop.webhookSecret, '/dashboard/developers', note);
    } catch (error) {
      message.error((error as Error).message);
    }
  });
  return h('section', { 'aria-labelledby': 'new-shop-title' }, h('h2', { id: 'new-shop-title' }, 'You have no shop'), h('p', {}, 'Create a new shop to get a new API key and webhook secret.'), form);
}
