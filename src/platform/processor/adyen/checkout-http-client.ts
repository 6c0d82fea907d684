import type Config from '@adyen/api-library/lib/src/config';
import HttpClientException from '@adyen/api-library/lib/src/httpClient/httpClientException';
import type ClientInterface from '@adyen/api-library/lib/src/httpClient/clientInterface';
import LibraryConstants from '@adyen/api-library/lib/src/constants/libraryConstants';
import type { IRequest } from '@adyen/api-library/lib/src/typings/requestOptions';

/** The library's own address of a Checkout operation, live or test, up to and including its version. */
const LIBRARY_BASE = /^https:\/\/[^/]+\/(?:checkout\/)?v\d+(?=\/)/;

/**
 * The HTTP client the Adyen library calls through (its ClientInterface). The library's own client always
 * speaks https (it cannot reach a stand-in on http://127.0.0.1) and pins its own API version; this one sends
 * every Checkout call to ADYEN_CHECKOUT_ENDPOINT, the v71 API whose published contract we are tested
 * against, with the library's headers (API key, Idempotency-Key, its user agent), under a hard time-out.
 * A non-2xx answer throws the library's HttpClientException, with the status, as its own client does.
 */
export class CheckoutHttpClient implements ClientInterface {
  constructor(
    private readonly checkoutEndpoint: string,
    private readonly timeoutMs: number,
  ) {}

  async request(endpoint: string, json: string | Buffer, config: Config, _isApiKeyRequired: boolean, options: IRequest.Options = {}): Promise<string> {
    const target = endpoint.replace(LIBRARY_BASE, this.checkoutEndpoint);
    if (target === endpoint) throw new Error(`unexpected Adyen endpoint ${endpoint}`);
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      'X-API-Key': config.apiKey ?? '',
      // What the library's own client sends, so Adyen's support sees which library and version spoke.
      'User-Agent': `${LibraryConstants.LIB_NAME}/${LibraryConstants.LIB_VERSION}`,
      'adyen-library-name': LibraryConstants.LIB_NAME,
      'adyen-library-version': LibraryConstants.LIB_VERSION,
    };
    if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
    const method = options.method ?? 'POST';
    const response = await fetch(target, {
      method,
      headers,
      body: method === 'GET' ? undefined : typeof json === 'string' ? json : new Uint8Array(json),
      signal: AbortSignal.timeout(this.timeoutMs),
      redirect: 'error',
    });
    const body = await response.text();
    if (!response.ok) {
      throw new HttpClientException({ message: `HTTP Exception: ${response.status}`, statusCode: response.status, responseBody: body });
    }
    return body;
  }
}
