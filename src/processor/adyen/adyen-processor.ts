import { CheckoutAPI, Client, EnvironmentEnum, HttpClientException, Types } from '@adyen/api-library';
import type { AdyenConfig } from '../../shared/config';
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

type PaymentRequest = Types.checkout.PaymentRequest;
type FinalResult = Exclude<AuthorizationResult, { kind: 'challenge' }>;
const ResultCode = Types.checkout.PaymentResponse.ResultCodeEnum;

/** The port's "outcome unknown": the payment or refund stays `processing` until a notification settles it. */
export class AdyenOutcomeUnknown extends Error {
  constructor(
    what: string,
    readonly cause?: unknown,
  ) {
    super(`adyen: outcome unknown (${what})`);
  }
}

/**
 * A /payments request Adyen refused without processing it (400, 401, 403, 422 other than 704 "request
 * already processed or in progress"): no card was charged, so it is a definite failure, `processing_error`.
 * A 5xx, 429 or 704 stays unknown.
 */
function refusedUnprocessed(error: unknown): boolean {
  const cause = error instanceof AdyenOutcomeUnknown ? error.cause : error;
  if (!(cause instanceof HttpClientException) || ![400, 401, 403, 422].includes(cause.statusCode)) return false;
  try {
    return (JSON.parse(cause.responseBody ?? '{}') as { errorCode?: string }).errorCode !== '704';
  } catch {
    return true;
  }
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

  constructor(
    private readonly config: AdyenConfig,
    private readonly notifications: NotificationStore,
  ) {
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
        type: Types.checkout.CardDetails.TypeEnum.Scheme,
        number: card.number,
        expiryMonth: String(card.expMonth).padStart(2, '0'),
        expiryYear: String(card.expYear),
        cvc: card.securityCode,
        ...(card.nameOnCard ? { holderName: card.nameOnCard } : {}),
      },
      returnUrl: request.returnUrl ?? '',
      shopperInteraction: Types.checkout.PaymentRequest.ShopperInteractionEnum.Ecommerce,
      channel: Types.checkout.PaymentRequest.ChannelEnum.Web,
      // The redirect flow only: no third-party 3-D Secure script ever runs on our page.
      authenticationData: { threeDSRequestData: { nativeThreeDS: Types.checkout.ThreeDSRequestData.NativeThreeDSEnum.Disabled } },
      ...(browser ? { shopperIP: browser.ip } : {}),
      ...(browser ? browserInfoOf(browser) : {}),
    };
    let answer: Types.checkout.PaymentResponse;
    try {
      answer = await this.call('payments', () => this.checkout.PaymentsApi.payments(payment, { idempotencyKey: request.paymentId }));
    } catch (error) {
      if (refusedUnprocessed(error)) return { kind: 'declined', code: 'processing_error', threeDs: null };
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
    const details = await this.call('payments/details', () =>
      this.checkout.PaymentsApi.paymentsDetails({ details: { redirectResult: answer.redirectResult } }, { idempotencyKey: `${reference}-details` }),
    );
    const result = this.resultOf(details, reference);
    if (result.kind === 'challenge') throw new AdyenOutcomeUnknown(`a second challenge after 3-D Secure (${details.resultCode})`);
    if (result.kind === 'approved') return { ...result, threeDs: null };
    return { ...result, threeDs: result.code === 'authentication_failed' ? 'failed' : 'challenged' };
  }

  /** Adyen takes the refund and answers `received`; its REFUND or REFUND_FAILED notification settles it. */
  async refund(request: RefundRequest): Promise<RefundResult> {
    const answer = await this.call('refunds', () =>
      this.checkout.ModificationsApi.refundCapturedPayment(
        request.reference,
        { merchantAccount: this.config.merchantAccount, reference: request.refundId, amount: { currency: request.currency.toUpperCase(), value: request.amount } },
        { idempotencyKey: request.refundId },
      ),
    );
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

  private resultOf(answer: Types.checkout.PaymentResponse | Types.checkout.PaymentDetailsResponse, subject: string): AuthorizationResult {
    switch (answer.resultCode) {
      case ResultCode.Authorised:
        return { kind: 'approved', reference: answer.pspReference!, threeDs: null };
      case ResultCode.Refused:
        return { kind: 'declined', code: failureCodeOfRefusal(answer.refusalReasonCode), threeDs: null };
      case ResultCode.Cancelled:
        return { kind: 'declined', code: 'card_declined', threeDs: null };
      case ResultCode.RedirectShopper:
      case ResultCode.ChallengeShopper:
      case ResultCode.IdentifyShopper: {
        const redirect = redirectOf((answer as Types.checkout.PaymentResponse).action);
        // We ask for the redirect flow; a native 3-D Secure action cannot be run without Adyen's script.
        if (!redirect) return { kind: 'declined', code: 'authentication_failed', threeDs: 'failed' };
        return { kind: 'challenge', reference: subject, redirect };
      }
      default:
        // Pending, Received, Error and anything new: Adyen has not said yes or no. Its notification will.
        throw new AdyenOutcomeUnknown(`resultCode ${answer.resultCode}`);
    }
  }

  /** Any failure (5xx, time-out, network, a refused request) is an unknown outcome to the port; the cause is kept. */
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

/**
 * Adyen's `browserInfo` needs all eight fields; the page sends the screen's, the request gives the headers.
 * Without the page's part (an API caller) none is sent rather than made up: Adyen then decides without it.
 */
function browserInfoOf(browser: ShopperBrowser): Pick<PaymentRequest, 'browserInfo'> {
  const { language, colorDepth, screenHeight, screenWidth, timeZoneOffset } = browser;
  if (language === undefined || colorDepth === undefined || screenHeight === undefined || screenWidth === undefined || timeZoneOffset === undefined) return {};
  return {
    browserInfo: {
      userAgent: browser.userAgent,
      acceptHeader: browser.acceptHeader,
      language,
      colorDepth,
      screenHeight,
      screenWidth,
      timeZoneOffset,
      // Java applets are gone from every browser: navigator.javaEnabled() is false everywhere.
      javaEnabled: browser.javaEnabled ?? false,
    },
  };
}

function redirectOf(action: Types.checkout.PaymentResponseAction | null | undefined): ChallengeRedirect | null {
  if (!action || action.type !== 'redirect' || !('url' in action) || !action.url) return null;
  const method = (action as { method?: string }).method === 'POST' ? 'POST' : 'GET';
  const data = (action as { data?: Record<string, string> }).data;
  return { url: action.url, method, ...(data ? { data } : {}) };
}
