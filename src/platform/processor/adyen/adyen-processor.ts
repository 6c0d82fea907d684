// The files the service uses, not the package's index: that loads every Adyen API's typings (over a second of CPU).
import Client from '@adyen/api-library/lib/src/client';
import { EnvironmentEnum } from '@adyen/api-library/lib/src/config';
import HttpClientException from '@adyen/api-library/lib/src/httpClient/httpClientException';
import CheckoutAPI from '@adyen/api-library/lib/src/services/checkout';
import * as Checkout from '@adyen/api-library/lib/src/typings/checkout/models';
import type { AdyenConfig } from '../../../shared/config';
import type {
  AuthorizationLookup,
  AuthorizationRequest,
  AuthorizationResult,
  CardProcessor,
  ChallengeAnswer,
  ChallengeRedirect,
  RefundLookup,
  RefundRequest,
  RefundResult,
  ShopperBrowser,
} from '../card-processor';
import { CheckoutHttpClient } from './checkout-http-client';
import type { NotificationStore } from './notification-store';
import { failureCodeOfReasonText, failureCodeOfRefusal } from './refusal-reasons';

type PaymentRequest = Checkout.PaymentRequest;
type FinalResult = Exclude<AuthorizationResult, { kind: 'challenge' }>;
const ResultCode = Checkout.PaymentResponse.ResultCodeEnum;

/** The port's "outcome unknown": the payment or refund stays `processing` until a notification settles it. */
export class AdyenOutcomeUnknown extends Error {
  constructor(
    what: string,
    readonly cause?: unknown,
  ) {
    super(`adyen: outcome unknown (${what})`);
  }
}

/** Adyen refused a request without processing it: its HTTP status and its error body's code and message. */
export interface AdyenRefusal {
  status: number;
  errorCode: string;
  message: string;
}

/** The HTTP statuses with which Adyen refuses a request it did not process (a 5xx or 429 says nothing of the kind). */
const REFUSED_STATUSES: readonly number[] = [400, 401, 403, 404, 422];
/** Adyen's "request already processed or in progress" (the same Idempotency-Key is being worked on): not a refusal. */
const ALREADY_IN_PROGRESS = '704';

/**
 * The one classification of a failed call (docs/acquirers.md): a 400, 401, 403, 404 or 422 answer carrying
 * Adyen's error body with an `errorCode` other than 704 is a request Adyen refused without processing it,
 * which is final: nothing was charged (payments, details) or refunded (refunds). Anything else (network
 * error, time-out, 5xx, 429, 704, a 4xx without Adyen's error body, e.g. from a proxy) is null: unknown.
 */
export function refusalOf(error: unknown): AdyenRefusal | null {
  const cause = error instanceof AdyenOutcomeUnknown ? error.cause : error;
  if (!(cause instanceof HttpClientException) || !REFUSED_STATUSES.includes(cause.statusCode)) return null;
  let body: { errorCode?: unknown; message?: unknown } | null;
  try {
    body = JSON.parse(cause.responseBody ?? '');
  } catch {
    return null;
  }
  const errorCode = body && typeof body === 'object' ? body.errorCode : undefined;
  if (typeof errorCode !== 'string' || errorCode === '' || errorCode === ALREADY_IN_PROGRESS) return null;
  return { status: cause.statusCode, errorCode, message: typeof body!.message === 'string' ? body!.message : '' };
}

/** A refusal as the refund's failure reason: "422 167: Original pspReference required for this operation". */
export function refusalReason(refusal: AdyenRefusal): string {
  return `${refusal.status} ${refusal.errorCode}${refusal.message ? `: ${refusal.message}` : ''}`;
}

/**
 * The card processor on Adyen's Checkout API (docs/acquirers.md), through Adyen's Node library: its typed
 * models, its PaymentsApi and ModificationsApi, over our CheckoutHttpClient. Every call carries an
 * Idempotency-Key of ours (payment id, refund id), so a call repeated after a lost answer returns Adyen's
 * first answer and never charges twice. Checkout v71 has no read API: look-ups answer from the
 * notifications Adyen sent us (`notifications`), and throw (still unknown) until one arrives.
 */
export class AdyenProcessor implements CardProcessor {
  private readonly checkout: CheckoutAPI;

  /**
   * `origin`: where the checkout page is served (BASE_URL's scheme, host and port), sent as `origin` with every
   * payment, as Adyen requires for browser-based 3-D Secure 2.
   */
  constructor(
    private readonly config: AdyenConfig,
    private readonly notifications: NotificationStore,
    private readonly origin: string,
  ) {
    if (!/^https?:\/\/[^/]+$/.test(origin)) throw new Error(`the checkout page's origin must be scheme://host[:port], without a path (got ${origin})`);
    if (origin.length > ORIGIN_MAX_LENGTH) throw new Error(`BASE_URL's origin is longer than the ${ORIGIN_MAX_LENGTH} characters Adyen takes as \`origin\` (${origin})`);
    const client = new Client({
      apiKey: config.apiKey,
      environment: config.environment === 'live' ? EnvironmentEnum.LIVE : EnvironmentEnum.TEST,
      liveEndpointUrlPrefix: config.liveUrlPrefix,
    });
    client.httpClient = new CheckoutHttpClient(config.checkoutEndpoint, config.timeoutMs);
    this.checkout = new CheckoutAPI(client);
  }

  async authorize(request: AuthorizationRequest): Promise<AuthorizationResult> {
    const { card, browser } = request;
    const payment: PaymentRequest = {
      merchantAccount: this.config.merchantAccount,
      reference: request.paymentId,
      amount: { currency: request.currency.toUpperCase(), value: request.amount },
      // Raw card data: allowed for merchants Adyen has enabled for it (PCI DSS SAQ D; docs/acquirers.md).
      paymentMethod: {
        type: Checkout.CardDetails.TypeEnum.Scheme,
        number: card.number,
        expiryMonth: String(card.expMonth).padStart(2, '0'),
        expiryYear: String(card.expYear),
        cvc: card.securityCode,
        ...(card.nameOnCard ? { holderName: card.nameOnCard } : {}),
      },
      returnUrl: request.returnUrl ?? '',
      shopperInteraction: Checkout.PaymentRequest.ShopperInteractionEnum.Ecommerce,
      channel: Checkout.PaymentRequest.ChannelEnum.Web,
      // The redirect flow only: no third-party 3-D Secure script ever runs on our page.
      authenticationData: { threeDSRequestData: { nativeThreeDS: Checkout.ThreeDSRequestData.NativeThreeDSEnum.Disabled } },
      // The checkout page's origin: Adyen requires it for browser-based (channel Web) 3-D Secure 2.
      origin: this.origin,
      ...(browser ? { shopperIP: browser.ip } : {}),
      ...(browser ? { browserInfo: browserInfoOf(browser) } : {}),
      // Required for browser-based 3-D Secure 2; the page collects no address, so Adyen's form for one not known.
      billingAddress: UNKNOWN_BILLING_ADDRESS,
    };
    let answer: Checkout.PaymentResponse;
    try {
      answer = await this.call('payments', () => this.checkout.PaymentsApi.payments(payment, { idempotencyKey: request.paymentId }));
    } catch (error) {
      if (refusalOf(error)) return { kind: 'declined', code: 'processing_error', threeDs: null };
      throw error;
    }
    return this.resultOf(answer, request.paymentId);
  }

  /**
   * The customer came back from the issuer's page with `redirectResult`: POST /payments/details. Keyed by
   * the challenge, so a second call (a reload racing the first) gets Adyen's first answer.
   */
  async completeChallenge(reference: string, answer: ChallengeAnswer): Promise<FinalResult> {
    if (!('redirectResult' in answer)) return { kind: 'declined', code: 'authentication_failed', threeDs: 'failed' };
    let details: Checkout.PaymentDetailsResponse;
    try {
      details = await this.call('payments/details', () =>
        this.checkout.PaymentsApi.paymentsDetails({ details: { redirectResult: answer.redirectResult } }, { idempotencyKey: `${reference}-details` }),
      );
    } catch (error) {
      // Adyen refused the details (a redirectResult it will not take): final, never "unknown" (docs/acquirers.md).
      if (refusalOf(error)) return { kind: 'declined', code: 'processing_error', threeDs: 'challenged' };
      throw error;
    }
    const result = this.resultOf(details, reference);
    if (result.kind === 'challenge') throw new AdyenOutcomeUnknown(`a second challenge after 3-D Secure (${details.resultCode})`);
    if (result.kind === 'approved') return { ...result, threeDs: null };
    return { ...result, threeDs: result.code === 'authentication_failed' ? 'failed' : 'challenged' };
  }

  /**
   * Adyen takes the refund and answers `received`; its REFUND or REFUND_FAILED notification settles it. A
   * refund Adyen refuses without processing it (refusalOf) is declined with Adyen's code and message: final,
   * never sent again.
   */
  async refund(request: RefundRequest): Promise<RefundResult> {
    let answer: Checkout.PaymentRefundResponse;
    try {
      answer = await this.call('refunds', () =>
        this.checkout.ModificationsApi.refundCapturedPayment(
          request.reference,
          { merchantAccount: this.config.merchantAccount, reference: request.refundId, amount: { currency: request.currency.toUpperCase(), value: request.amount } },
          { idempotencyKey: request.refundId },
        ),
      );
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal) return { kind: 'declined', reason: refusalReason(refusal) };
      throw error;
    }
    return { kind: 'pending', reference: answer.pspReference };
  }

  /**
   * Adyen's reversal (`/reversals`, "cancel or refund"): the hold is released, or the charge refunded if the
   * merchant account's automatic capture already ran. Its CANCEL_OR_REFUND notification confirms it.
   */
  async voidAuthorization(request: { paymentId: string; reference: string }): Promise<void> {
    await this.call('reversals', () =>
      this.checkout.ModificationsApi.refundOrCancelPayment(
        request.reference,
        { merchantAccount: this.config.merchantAccount, reference: `${request.paymentId}-void` },
        { idempotencyKey: `${request.paymentId}-void` },
      ),
    );
  }

  async lookupAuthorization(paymentId: string): Promise<AuthorizationLookup> {
    const found = await this.notifications.latest('AUTHORISATION', paymentId);
    if (!found) throw new AdyenOutcomeUnknown('no AUTHORISATION notification yet; Checkout v71 has no look-up');
    if (found.success) return { kind: 'approved', reference: found.pspReference, threeDs: null };
    return { kind: 'declined', code: failureCodeOfReasonText(found.reason ?? undefined), threeDs: null };
  }

  async lookupRefund(refundId: string): Promise<RefundLookup> {
    const found = (await this.notifications.latest('REFUND', refundId)) ?? (await this.notifications.latest('REFUND_FAILED', refundId));
    if (!found) throw new AdyenOutcomeUnknown('no REFUND notification yet; Checkout v71 has no look-up');
    if (found.eventCode === 'REFUND' && found.success) return { kind: 'refunded', reference: found.pspReference };
    return { kind: 'declined', reason: found.reason || 'refund_failed' };
  }

  private resultOf(answer: Checkout.PaymentResponse | Checkout.PaymentDetailsResponse, subject: string): AuthorizationResult {
    switch (answer.resultCode) {
      case ResultCode.Authorised:
        return { kind: 'approved', reference: answer.pspReference!, threeDs: null };
      case ResultCode.Refused:
        // Without a refusalReasonCode, Adyen's reason text is mapped by the same table.
        return { kind: 'declined', code: failureCodeOfRefusal(answer.refusalReasonCode, answer.refusalReason), threeDs: null };
      case ResultCode.Cancelled:
        return { kind: 'declined', code: 'card_declined', threeDs: null };
      case ResultCode.RedirectShopper:
      case ResultCode.ChallengeShopper:
      case ResultCode.IdentifyShopper: {
        const redirect = redirectOf((answer as Checkout.PaymentResponse).action);
        // We ask for the redirect flow; a native 3-D Secure action cannot be run without Adyen's script.
        if (!redirect) return { kind: 'declined', code: 'authentication_failed', threeDs: 'failed' };
        return { kind: 'challenge', reference: subject, redirect };
      }
      case ResultCode.Error:
        // Adyen defines Error as final: the payment was not processed, and no notification will change that.
        return { kind: 'declined', code: 'processing_error', threeDs: null };
      default:
        // Pending, Received and anything new: Adyen has not said yes or no. Its notification will.
        throw new AdyenOutcomeUnknown(`resultCode ${answer.resultCode}`);
    }
  }

  /**
   * Any failure (5xx, time-out, network, a refused request) leaves here as an unknown outcome, with its cause
   * kept; authorize, completeChallenge and refund then take Adyen's refusals out of it (refusalOf).
   */
  private async call<T>(operation: string, send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (error) {
      if (error instanceof AdyenOutcomeUnknown) throw error;
      const status = error instanceof HttpClientException ? ` HTTP ${error.statusCode} ${error.responseBody ?? ''}` : '';
      throw new AdyenOutcomeUnknown(`${operation}${status}: ${(error as Error).message}`, error);
    }
  }
}

/** The longest `origin` Checkout v71 takes. */
const ORIGIN_MAX_LENGTH = 80;

/**
 * What `browserInfo` says for a field the page or the request did not send (a caller other than our checkout page, or a
 * page that could not read the screen): docs/acquirers.md, "What the adapter sends". `language` is the
 * fallback of Adyen's own web library; 24 bits is the colour depth every current browser reports; a 0 x 0
 * screen and offset 0 (UTC) say "not known" rather than invent a device; Java is gone from every browser.
 */
export const BROWSER_DEFAULTS = Object.freeze({
  // A request without these headers: `*/*` is what no Accept header means (RFC 9110); the user agent is said to be unknown.
  userAgent: 'unknown', acceptHeader: '*/*',
  language: 'en', colorDepth: 24, screenHeight: 0, screenWidth: 0, timeZoneOffset: 0, javaEnabled: false,
});

/**
 * Checkout v71 requires `billingAddress`, with all its fields, for browser-based 3-D Secure 2. The checkout page asks for
 * no address (a card, its expiry, code and name), so it sends Adyen's documented form for an address not collected:
 * country `ZZ`, the other required fields empty.
 */
export const UNKNOWN_BILLING_ADDRESS = Object.freeze({ country: 'ZZ', city: '', street: '', houseNumberOrName: '', postalCode: '' });

/**
 * Adyen's `browserInfo`, always complete (its definition requires all eight fields for browser-based 3-D
 * Secure 2): the headers come from the request, the screen, language and time zone from the page, and
 * BROWSER_DEFAULTS stand in for whatever the page did not send.
 */
export function browserInfoOf(browser: ShopperBrowser): Checkout.BrowserInfo {
  return {
    userAgent: browser.userAgent.trim() || BROWSER_DEFAULTS.userAgent,
    acceptHeader: browser.acceptHeader.trim() || BROWSER_DEFAULTS.acceptHeader,
    language: browser.language || BROWSER_DEFAULTS.language,
    colorDepth: browser.colorDepth ?? BROWSER_DEFAULTS.colorDepth,
    screenHeight: browser.screenHeight ?? BROWSER_DEFAULTS.screenHeight,
    screenWidth: browser.screenWidth ?? BROWSER_DEFAULTS.screenWidth,
    timeZoneOffset: browser.timeZoneOffset ?? BROWSER_DEFAULTS.timeZoneOffset,
    javaEnabled: browser.javaEnabled ?? BROWSER_DEFAULTS.javaEnabled,
  };
}

function redirectOf(action: Checkout.PaymentResponseAction | null | undefined): ChallengeRedirect | null {
  if (!action || action.type !== 'redirect' || !('url' in action) || !action.url) return null;
  const method = (action as { method?: string }).method === 'POST' ? 'POST' : 'GET';
  const data = (action as { data?: Record<string, string> }).data;
  return { url: action.url, method, ...(data ? { data } : {}) };
}
