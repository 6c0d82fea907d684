import { EMAIL_MAX_LENGTH } from '../shared/email';
import { PAYMENT_STATUSES } from '../payments/payment-status';
import { anyDetails, errorCase, type ErrorGroup } from './openapi/error-responses';
import { CREATE_PAYMENT_FIELDS, METADATA_KB, STRING_FIELDS } from './payment-request';
import { IDEMPOTENCY_KEY_MAX_LENGTH, CUSTOMER_NAME_MAX_LENGTH, METADATA_KEY_MAX_LENGTH, METADATA_MAX_KEYS, MINIMUM_AMOUNT_CENTS, PAGE_LIMIT_MAX, RETURN_URL_MAX_LENGTH, SUPPORTED_CURRENCY } from '../shared/limits';

/*
 * The catalogue errors each route answers beyond those of every route (openapi/error-responses.ts), one
 * group per status, each case with when it happens. Order: as the fields are checked.
 */

const anyOf = (words: readonly string[]) => words.join('|');

export const CREATE_PAYMENT_ERRORS: ErrorGroup[] = [
  {
    description: 'The body or a field breaks a rule.',
    cases: [
      errorCase('The body is not valid JSON, or a gzip, deflate or br `Content-Encoding` that does not decode.', 'INVALID_JSON'),
      errorCase('The body is JSON but not an object (`[]`, `42`, `"x"`, `null`).', 'BODY_NOT_OBJECT'),
      errorCase('`amount` absent or null.', 'MISSING_FIELD', 'amount'),
      errorCase('`amount` with a fraction (`50.5`), a string, a boolean, or beyond 2^53.', 'AMOUNT_INVALID'),
      errorCase(`\`amount\` below ${MINIMUM_AMOUNT_CENTS}.`, 'AMOUNT_TOO_SMALL'),
      errorCase('`currency` absent or null.', 'MISSING_FIELD', 'currency'),
      anyDetails(errorCase('A string field sent as another JSON type (`currency: 840`).', 'FIELD_NOT_STRING', 'currency'), anyOf(STRING_FIELDS)),
      errorCase(`\`currency\` other than \`${SUPPORTED_CURRENCY}\`.`, 'CURRENCY_INVALID'),
      errorCase('`return_url` absent, null or empty.', 'RETURN_URL_REQUIRED'),
      errorCase(`\`return_url\` longer than ${RETURN_URL_MAX_LENGTH} characters.`, 'RETURN_URL_TOO_LONG'),
      errorCase('`return_url` not an absolute `https://` URL with a host, or with `user:password@`, whitespace, U+0000 or a lone surrogate.', 'RETURN_URL_INVALID'),
      errorCase(`\`customer_email\` not an address, over ${EMAIL_MAX_LENGTH} characters, or with U+0000 or a lone surrogate.`, 'CUSTOMER_EMAIL_INVALID'),
      errorCase(`\`customer_name\` blank, over ${CUSTOMER_NAME_MAX_LENGTH} characters, or with U+0000 or a lone surrogate.`, 'CUSTOMER_NAME_INVALID'),
      errorCase('`metadata` not an object (an array, a string, a number).', 'METADATA_NOT_OBJECT'),
      errorCase(`More than ${METADATA_MAX_KEYS} metadata keys.`, 'METADATA_TOO_MANY_KEYS'),
      errorCase(`A metadata key empty or over ${METADATA_KEY_MAX_LENGTH} characters.`, 'METADATA_KEY_INVALID'),
      errorCase('A metadata value nested, null, or not a finite number.', 'METADATA_VALUE_INVALID'),
      errorCase('U+0000 or a lone surrogate in a metadata key or string value.', 'METADATA_TEXT_INVALID'),
      errorCase(`Metadata over ${METADATA_KB} KB (UTF-8 bytes of its JSON text).`, 'METADATA_TOO_LARGE'),
      errorCase(`An \`Idempotency-Key\` of more than ${IDEMPOTENCY_KEY_MAX_LENGTH} characters.`, 'IDEMPOTENCY_KEY_INVALID'),
    ],
  },
  {
    description: 'A request with the same `Idempotency-Key` is still running.',
    cases: [errorCase('The first request with this key has not answered yet.', 'IDEMPOTENCY_KEY_IN_FLIGHT')],
    headers: ['Retry-After'],
  },
  { description: 'The body is larger than 64 KB.', cases: [errorCase('Body over 64 KB.', 'BODY_TOO_LARGE')] },
  {
    description: 'The body is not declared as JSON.',
    cases: [
      errorCase('`Content-Type` other than `application/json`, or a charset that is not `utf-*`.', 'UNSUPPORTED_MEDIA_TYPE'),
      errorCase('A `Content-Encoding` other than gzip, deflate, br or identity.', 'UNSUPPORTED_CONTENT_ENCODING'),
    ],
  },
  {
    description: 'The `Idempotency-Key` was already used with a different body; the message names the fields that differ.',
    cases: [
      anyDetails(
        errorCase('Same key, different amount and metadata.', 'IDEMPOTENCY_KEY_REUSED', 'amount, metadata'),
        `(${anyOf(CREATE_PAYMENT_FIELDS)})(, (${anyOf(CREATE_PAYMENT_FIELDS)}))*`,
      ),
    ],
  },
];

export const LIST_PAYMENTS_ERRORS: ErrorGroup[] = [
  {
    description: 'A query parameter is not valid.',
    cases: [
      errorCase('`page` not a positive integer (also when given twice).', 'PAGE_INVALID'),
      errorCase(`\`limit\` not an integer from 1 to ${PAGE_LIMIT_MAX}.`, 'LIMIT_INVALID'),
      errorCase('`status` not one of the four payment statuses (lowercase).', 'STATUS_FILTER_INVALID', PAYMENT_STATUSES.join(', ')),
    ],
  },
];

export const RETRIEVE_PAYMENT_ERRORS: ErrorGroup[] = [
  {
    description: 'No such payment for this shop.',
    cases: [errorCase('A wrong or malformed id (even one that is not valid percent-encoding), another shop\'s payment, or a deleted one.', 'PAYMENT_NOT_FOUND')],
  },
];
