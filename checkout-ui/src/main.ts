import { cardBrandOf, groupCardDigits, type CardBrandRule } from '../../src/modules/checkout/card-brands';
import { checkCard, securityCodeHint, type Field, type FieldErrors } from './card-field-errors';
import { checkoutApi, CheckoutError, type CheckoutView } from './checkout-api';
import { money, SENTENCE_GAP, t, type MessageKey } from './messages';

/**
 * The hosted checkout page. The HTML shell (checkout-ui/index.html, one per language) holds every element;
 * this script fills them with text from the page's catalogue (never HTML: the shop name is the seller's),
 * shows one step at a time and talks to /graphql. Steps: card form -> processing -> 3-D Secure challenge (same page, or the issuer's page and
 * back) -> outcome or redirect.
 */

/** The shop is inactive or deleted, or its seller suspended: nothing can be paid here for now. */
const SHOP_UNAVAILABLE = 'shop_unavailable';
/** Nobody paid in time (PAYMENT_EXPIRES_AFTER_MS): not a decline, so no alert, just the way back. */
const EXPIRED = 'expired';

/** Watching a payment settle: every second for a minute, then every ten seconds. */
const POLL_MS = 1000;
const SLOW_POLL_MS = 10_000;
const SLOW_POLL_AFTER = 60;

function element<T extends HTMLElement = HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

const ui = {
  testMode: element('test-mode'),
  eyebrow: element('eyebrow'),
  shopName: element('shop-name'),
  amountLine: element('amount-line'),
  amount: element('amount'),
  alert: element('alert'),
  form: element<HTMLFormElement>('card-form'),
  cardBrand: element('card-brand'),
  securityCodeHint: element('card-code-hint'),
  pay: element<HTMLButtonElement>('pay'),
  challenge: element('challenge'),
  challengeTitle: element('challenge-title'),
  authenticate: element<HTMLButtonElement>('authenticate'),
  refuse: element<HTMLButtonElement>('refuse'),
  outcome: element('outcome'),
  outcomeTitle: element('outcome-title'),
  outcomeText: element('outcome-text'),
  outcomeLink: element<HTMLAnchorElement>('outcome-link'),
  status: element('status'),
  cancel: element<HTMLButtonElement>('cancel'),
};

const fields: Record<Field, { input: HTMLInputElement; error: HTMLElement }> = {
  number: { input: element('card-number'), error: element('card-number-error') },
  expiry: { input: element('card-expiry'), error: element('card-expiry-error') },
  securityCode: { input: element('card-code'), error: element('card-code-error') },
};

/** The server serves this page only for a well-formed id (`pay_` + 24 letters and digits). */
const paymentId = /^\/checkout\/([^/]+)\/?$/.exec(location.pathname)?.[1] ?? '';
let shopName = '';
let busy = false;
let polls = 0;

function pollSoon(): void {
  window.setTimeout(poll, polls++ < SLOW_POLL_AFTER ? POLL_MS : SLOW_POLL_MS);
}

type Step = 'form' | 'challenge' | 'outcome' | 'none';

function showStep(step: Step): void {
  ui.form.hidden = step !== 'form';
  ui.challenge.hidden = step !== 'challenge';
  ui.outcome.hidden = step !== 'outcome';
  ui.cancel.hidden = step !== 'form' && step !== 'challenge';
}

function setBusy(message: string | null): void {
  busy = message !== null;
  for (const button of [ui.pay, ui.authenticate, ui.refuse, ui.cancel]) button.disabled = busy;
  ui.status.classList.toggle('busy', busy);
  ui.status.textContent = message ?? '';
}

function showAlert(message: string): void {
  ui.alert.textContent = message;
}

/** Only ever leave for an http(s) address: a `javascript:` URL must never be followed. */
function safeUrl(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

function renderSummary(view: CheckoutView): void {
  shopName = view.shopName;
  ui.testMode.hidden = !view.testMode;
  const amount = money(view.amount, view.currency);
  document.title = t('checkout.documentTitle', { amount, shop: view.shopName });
  ui.eyebrow.hidden = false;
  ui.shopName.textContent = view.shopName;
  ui.amount.textContent = amount;
  ui.amountLine.hidden = false;
  ui.pay.textContent = t('checkout.payAmount', { amount });
  ui.cancel.textContent = t('checkout.cancelTo', { shop: view.shopName });
}

function showOutcome(title: string, text: string, link: string | null): void {
  showStep('outcome');
  ui.outcomeTitle.textContent = title;
  ui.outcomeText.textContent = text;
  const href = safeUrl(link);
  ui.outcomeLink.hidden = href === null;
  if (href) {
    ui.outcomeLink.href = href;
    ui.outcomeLink.textContent = t('checkout.returnTo', { shop: shopName });
  }
}

/**
 * The way to the issuer's page for this browser: the one its card submission was given (with the challenge's
 * token), kept in this tab's session storage so that a reload still finds it; null for a browser that did not
 * submit the card, or when the service just sent us back from that way (`issuer=elsewhere`).
 */
function issuerWay(authenticationUrl: string): string | null {
  const key = `checkout:3ds:${paymentId}`;
  if (authenticationUrl.includes('?')) sessionStorage.setItem(key, authenticationUrl);
  if (new URLSearchParams(location.search).get('issuer') === 'elsewhere') return null;
  const kept = sessionStorage.getItem(key);
  return kept?.startsWith(`${authenticationUrl.split('?')[0]}?`) ? kept : null;
}

/**
 * Shows whatever state the payment is in. `arrived` is true when this page just moved it on (or watched
 * it move): a completed payment then takes the customer back to the shop, as the seller asked.
 */
function show(view: CheckoutView, arrived: boolean): void {
  renderSummary(view);
  // A problem shown while the payment was in flight is over once it has moved on.
  if (view.status !== 'FAILED' && view.stage !== 'PROCESSING') showAlert('');
  if (view.status === 'COMPLETED') {
    const redirect = safeUrl(view.redirectUrl);
    if (arrived && redirect) {
      showStep('none');
      setBusy(t('checkout.completeRedirecting', { shop: view.shopName }));
      location.assign(redirect);
      return;
    }
    setBusy(null);
    showOutcome(t('checkout.completeTitle'), t('checkout.completeText'), view.redirectUrl);
  } else if (!view.acceptingPayments && (view.status === 'PENDING' || view.failureCode === SHOP_UNAVAILABLE)) {
    setBusy(null);
    showAlert('');
    showOutcome(t('checkout.shopUnavailableTitle'), t('checkout.shopUnavailableText', { shop: view.shopName }), view.redirectUrl);
  } else if (view.status === 'FAILED' && view.failureCode === EXPIRED) {
    setBusy(null);
    showAlert('');
    showOutcome(t('checkout.expiredTitle'), t('checkout.expiredText', { shop: view.shopName }), view.redirectUrl);
  } else if (view.status === 'FAILED') {
    setBusy(null);
    showAlert(t(failureMessageOf(view.failureCode)));
    showOutcome(t('checkout.failedTitle'), t('checkout.failedText', { shop: view.shopName }), view.redirectUrl);
  } else if (view.status === 'REFUNDED') {
    setBusy(null);
    showOutcome(t('checkout.refundedTitle'), t('checkout.refundedText'), view.redirectUrl);
  } else if (view.stage === 'CARD_REQUIRED') {
    setBusy(null);
    showStep('form');
    return;
  } else if (view.stage === 'AUTHENTICATION_REQUIRED' && view.authenticationUrl?.startsWith('/checkout/')) {
    // The issuer's own page (redirect flow): it sends the customer back to this page when done. The way there
    // carries a token that only the answer to this browser's card submission gave (kept for a reload).
    const way = issuerWay(view.authenticationUrl);
    if (!way) {
      setBusy(null);
      showOutcome(t('checkout.waitingTitle'), t('checkout.waitingText'), null);
      return;
    }
    showStep('none');
    setBusy(t('checkout.toBank'));
    location.assign(way);
    return;
  } else if (view.stage === 'AUTHENTICATION_REQUIRED') {
    setBusy(null);
    showStep('challenge');
    if (arrived) ui.challengeTitle.focus();
    return;
  } else {
    // Processing elsewhere (another tab, or an answer we did not get): watch until it settles.
    showStep('none');
    setBusy(t('checkout.processing'));
    pollSoon();
    return;
  }
  if (arrived) ui.outcomeTitle.focus();
}

async function poll(): Promise<void> {
  try {
    show(await checkoutApi.view(paymentId), true);
  } catch {
    pollSoon();
  }
}

/** One request at a time: a double click or a second Enter finds the page busy and sends nothing. */
async function act(request: () => Promise<CheckoutView>): Promise<void> {
  if (busy) return;
  const trigger = document.activeElement;
  showAlert('');
  setBusy(t('checkout.processing'));
  try {
    show(await request(), true);
  } catch (error) {
    failed(error, trigger);
  }
}

/** Errors about one field of the card, as the server words them: shown on that field. */
const FIELD_OF_ERROR: Record<string, Field> = {
  CARD_NUMBER_INVALID: 'number',
  CARD_EXPIRY_INVALID: 'expiry',
  CARD_SECURITY_CODE_INVALID: 'securityCode',
};

/** What the page says for a failed payment: its category (failure-messages.ts), a card failure we do not know as a decline. */
function failureMessageOf(code: string | null): MessageKey {
  const known: string[] = ['declined', 'authentication_failed', 'processing_error', SHOP_UNAVAILABLE, EXPIRED];
  return `checkout.failure.${code && known.includes(code) ? code : 'declined'}` as MessageKey;
}

/** The page's words for an error code of the checkout operations; any other code is "something went wrong". */
const ERROR_CODES = [
  'CARD_NUMBER_INVALID', 'CARD_EXPIRY_INVALID', 'CARD_SECURITY_CODE_INVALID', 'CHECKOUT_RATE_LIMITED', 'SHOP_CANNOT_TAKE_PAYMENTS',
  'PROCESSOR_UNAVAILABLE', 'PAYMENT_NOT_FOUND', 'NETWORK', 'UNAVAILABLE',
];
function errorMessageOf(code: string): string {
  return t(`checkout.error.${ERROR_CODES.includes(code) ? code : 'UNKNOWN'}` as MessageKey);
}

function failed(error: unknown, trigger: Element | null): void {
  const problem = error instanceof CheckoutError ? error : new CheckoutError('UNKNOWN');
  if (problem.code === 'PROCESSOR_UNAVAILABLE') {
    // The bank's answer is unknown: the server settles it; the page watches rather than charging again.
    showAlert(errorMessageOf(problem.code));
    showStep('none');
    setBusy(t('checkout.processing'));
    pollSoon();
    return;
  }
  if (problem.code === 'SHOP_CANNOT_TAKE_PAYMENTS') {
    // The shop stopped taking payments after this page loaded: show its page, with the way back.
    void poll();
    return;
  }
  setBusy(null);
  const field = FIELD_OF_ERROR[problem.code];
  if (field && !ui.form.hidden) {
    markFieldErrors({ [field]: `checkout.error.${problem.code}` as MessageKey });
    return;
  }
  showAlert(errorMessageOf(problem.code));
  if (problem.code === 'PAYMENT_NOT_FOUND') showStep('none');
  // Disabling the button that was used dropped the focus; give it back so the keyboard user goes on from there.
  if (trigger instanceof HTMLElement && trigger.offsetParent !== null) trigger.focus();
}

function markFieldErrors(errors: FieldErrors): void {
  let first: HTMLInputElement | null = null;
  const messages: string[] = [];
  for (const [name, field] of Object.entries(fields) as [Field, (typeof fields)[Field]][]) {
    const key = errors[name];
    const message = key && t(key);
    if (message) messages.push(message);
    field.error.hidden = !message;
    field.error.textContent = message ?? '';
    if (message) {
      field.input.setAttribute('aria-invalid', 'true');
      first ??= field.input;
    } else {
      field.input.removeAttribute('aria-invalid');
    }
  }
  showAlert(messages.length === 0 ? '' : t('checkout.checkCardDetails', { problems: messages.join(SENTENCE_GAP) }));
  first?.focus();
}

/**
 * As the number is typed: its brand beside the label (named for screen readers, and read with the field), the digits
 * grouped as the card prints them, and the security code's length and place for that brand. All in this page: the
 * number goes nowhere until the form is sent, as before.
 */
function followCardNumber(): void {
  const input = fields.number.input;
  const digits = input.value.replace(/[\s-]/g, '');
  const typedDigits = /^\d*$/.test(digits);
  const brand = typedDigits ? cardBrandOf(digits) : null;
  ui.cardBrand.hidden = brand === null;
  ui.cardBrand.textContent = brand?.name ?? '';
  ui.cardBrand.dataset.brand = brand?.brand ?? '';
  if (brand) ui.cardBrand.setAttribute('aria-label', brand.name);
  else ui.cardBrand.removeAttribute('aria-label');
  ui.securityCodeHint.textContent = t(securityCodeHint(brand));
  fields.securityCode.input.maxLength = brand?.securityCode.digits ?? 4;
  // Anything but digits, spaces and dashes is left as typed, for the field check to point out.
  if (typedDigits) regroup(input, digits, brand);
}

/** Writes the digits in the brand's groups, keeping the caret after the same digit (typing, deleting or pasting mid-number). */
function regroup(input: HTMLInputElement, digits: string, brand: CardBrandRule | null): void {
  const grouped = groupCardDigits(digits, brand);
  if (grouped === input.value) return;
  const caret = input.selectionStart ?? input.value.length;
  const digitsBeforeCaret = input.value.slice(0, caret).replace(/\D/g, '').length;
  input.value = grouped;
  let at = 0;
  for (let seen = 0; seen < digitsBeforeCaret && at < grouped.length; at++) if (grouped[at] !== ' ') seen++;
  if (document.activeElement === input) input.setSelectionRange(at, at);
}

fields.number.input.addEventListener('input', followCardNumber);

ui.form.addEventListener('submit', (event) => {
  event.preventDefault();
  if (busy) return;
  const check = checkCard({
    number: fields.number.input.value,
    expiry: fields.expiry.input.value,
    securityCode: fields.securityCode.input.value,
    nameOnCard: element<HTMLInputElement>('card-name').value,
  });
  if (!check.ok) {
    markFieldErrors(check.errors);
    return;
  }
  markFieldErrors({});
  void act(() => checkoutApi.submitCard(paymentId, check.card));
});

ui.authenticate.addEventListener('click', () => void act(() => checkoutApi.answerThreeDSecure(paymentId, true)));
ui.refuse.addEventListener('click', () => void act(() => checkoutApi.answerThreeDSecure(paymentId, false)));

ui.cancel.addEventListener('click', async () => {
  if (busy) return;
  const trigger = document.activeElement;
  showAlert('');
  setBusy(t('checkout.cancelling'));
  try {
    const redirect = safeUrl((await checkoutApi.cancel(paymentId)).redirectUrl);
    if (redirect) {
      location.assign(redirect);
      return;
    }
    setBusy(null);
  } catch (error) {
    failed(error, trigger);
  }
});

async function start(): Promise<void> {
  try {
    // Back from the issuer's 3-D Secure page: the payment moved on, so an outcome takes the customer on.
    show(await checkoutApi.view(paymentId), new URLSearchParams(location.search).get('issuer') === 'returned');
  } catch (error) {
    setBusy(null);
    showStep('none');
    showAlert(error instanceof CheckoutError && error.code !== 'NETWORK' ? errorMessageOf(error.code) : t('checkout.error.load'));
  }
}

// A number the browser kept (back, reload) is followed as if typed.
followCardNumber();
void start();
