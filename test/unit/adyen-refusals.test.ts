import HttpClientException from '@adyen/api-library/lib/src/httpClient/httpClientException';
import { refundReasonNote } from '../../dashboard-ui/src/format';
import { AdyenOutcomeUnknown, refusalOf, refusalReason } from '../../src/platform/processor/adyen/adyen-processor';

/** Adyen's error body (ServiceError), as the document's generic examples have it. */
const answer = (statusCode: number, body: unknown) =>
  new HttpClientException({ message: `HTTP Exception: ${statusCode}`, statusCode, responseBody: typeof body === 'string' ? body : JSON.stringify(body) });
const errorBody = (status: number, errorCode: string, message = 'Some message') => ({ status, errorCode, message, errorType: 'validation', pspReference: '8816118280275544' });

describe("the one classification of Adyen's failed answers (authorize, completeChallenge and refund share it)", () => {
  test.each([400, 401, 403, 404, 422])('HTTP %d with an errorCode is a refusal: Adyen did not process the request', (status) => {
    expect(refusalOf(answer(status, errorBody(status, '167', 'Original pspReference required for this operation')))).toEqual({
      status,
      errorCode: '167',
      message: 'Original pspReference required for this operation',
    });
  });

  test('the cause kept by an unknown outcome is classified the same way', () => {
    const wrapped = new AdyenOutcomeUnknown('refunds HTTP 422', answer(422, errorBody(422, '167')));
    expect(refusalOf(wrapped)).toMatchObject({ status: 422, errorCode: '167' });
  });

  test.each([
    ['HTTP 422 errorCode 704 (already processed or in progress)', answer(422, errorBody(422, '704', 'request already processed or in progress'))],
    ['HTTP 500', answer(500, errorBody(500, '905', 'Payment details are not supported'))],
    ['HTTP 502 without a body', answer(502, '')],
    ['HTTP 503', answer(503, errorBody(503, '000'))],
    ['HTTP 429', answer(429, errorBody(429, '000', 'Too many requests'))],
    ['HTTP 422 without Adyen\'s error body (a proxy page)', answer(422, '<html>Unprocessable</html>')],
    ['HTTP 403 whose body has no errorCode', answer(403, { status: 403, message: 'Forbidden' })],
    ['HTTP 400 whose body is JSON null', answer(400, 'null')],
    ['a time-out', Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' })],
    ['a network error', new TypeError('fetch failed')],
    ['an unknown outcome without a cause', new AdyenOutcomeUnknown('resultCode Pending')],
  ])('%s is not a refusal: the outcome stays unknown', (_name, error) => {
    expect(refusalOf(error)).toBeNull();
  });

  test('the refund failure reason names the status, Adyen\'s code and its message', () => {
    expect(refusalReason({ status: 422, errorCode: '167', message: 'Original pspReference required for this operation' })).toBe('422 167: Original pspReference required for this operation');
    expect(refusalReason({ status: 403, errorCode: '901', message: '' })).toBe('403 901');
  });
});

describe("the dashboard's note on a refund request", () => {
  test('a failed refund shows the acquirer\'s reason; a rejected one the reason finance gave; others nothing', () => {
    expect(refundReasonNote({ status: 'FAILED', rejectionReason: null, failureReason: '422 167: Original pspReference required for this operation' })).toBe(
      ' The card acquirer refused it: 422 167: Original pspReference required for this operation',
    );
    expect(refundReasonNote({ status: 'REJECTED', rejectionReason: 'outside the refund window', failureReason: null })).toBe(' Reason given: outside the refund window');
    expect(refundReasonNote({ status: 'PROCESSING', rejectionReason: null, failureReason: null })).toBe('');
    expect(refundReasonNote({ status: 'REFUNDED', rejectionReason: null, failureReason: null })).toBe('');
  });
});
