import { isMailableAddress } from '../../shared/email';
import { domainError } from '../../shared/errors';
import {
  CUSTOMER_NAME_MAX_LENGTH,
  METADATA_KEY_MAX_LENGTH,
  METADATA_MAX_BYTES,
  METADATA_MAX_KEYS,
  MINIMUM_AMOUNT_CENTS,
  RETURN_URL_MAX_LENGTH,
  SUPPORTED_CURRENCY,
} from '../../shared/limits';
import { prefixedId } from '../../shared/random-id';

/** The rules of creating and listing payments: pure functions, one home each (spec: Limits). */

export type MetadataValue = string | number | boolean;
export type Metadata = Record<string, MetadataValue>;

/** What a caller sends to create a payment, before any rule has looked at it. */
export interface CreatePaymentRequest {
  amount?: number | null;
  currency?: string | null;
  returnUrl?: string | null;
  customerEmail?: string | null;
  customerName?: string | null;
  metadata?: unknown;
}

/** A create request that passed every rule. */
export interface CreatePaymentCommand {
  amount: number;
  currency: string;
  returnUrl: string;
  customerEmail: string | null;
  customerName: string | null;
  metadata: Metadata;
}

const PAYMENT_ID = /^pay_[0-9A-Za-z]{24}$/;

export function newPaymentId(): string {
  return prefixedId('pay', 24);
}

export function isPaymentId(id: string): boolean {
  return PAYMENT_ID.test(id);
}

/** Checks fields in the spec's parameter order, so the first problem is the one reported. */
export function validateCreatePayment(request: CreatePaymentRequest): CreatePaymentCommand {
  return {
    amount: validAmount(request.amount),
    currency: validCurrency(request.currency),
    returnUrl: validReturnUrl(request.returnUrl),
    customerEmail: validCustomerEmail(request.customerEmail),
    customerName: validCustomerName(request.customerName),
    metadata: validMetadata(request.metadata),
  };
}

function validAmount(amount: number | null | undefined): number {
  if (amount === undefined || amount === null) throw domainError('MISSING_FIELD', 'amount');
  if (!Number.isSafeInteger(amount)) throw domainError('AMOUNT_INVALID');
  if (amount < MINIMUM_AMOUNT_CENTS) throw domainError('AMOUNT_TOO_SMALL');
  return amount;
}

function validCurrency(currency: string | null | undefined): string {
  if (currency === undefined || currency === null) throw domainError('MISSING_FIELD', 'currency');
  if (currency !== SUPPORTED_CURRENCY) throw domainError('CURRENCY_INVALID');
  return currency;
}

function validReturnUrl(returnUrl: string | null | undefined): string {
  if (returnUrl === undefined || returnUrl === null || returnUrl === '') {
    throw domainError('RETURN_URL_REQUIRED');
  }
  if (returnUrl.length > RETURN_URL_MAX_LENGTH) throw domainError('RETURN_URL_TOO_LONG');
  if (!isStorableText(returnUrl) || !isHttpsUrl(returnUrl)) throw domainError('RETURN_URL_INVALID');
  return returnUrl;
}

const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * Text PostgreSQL keeps exactly: no U+0000 (a text column refuses it) and no lone UTF-16 surrogate (it is
 * not Unicode; a text column would store U+FFFD, so the payment read back would differ from the one first
 * answered). Metadata is `json` text, which would keep both as escapes, but `::jsonb` refuses them, so one
 * such payment would break every jsonb query over the table: metadata follows the same rule.
 */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

/** An absolute https URL with a host and no user:password@ part (a phishing favourite). */
export function isHttpsUrl(value: string): boolean {
  if (!URL.canParse(value) || /\s/.test(value)) return false;
  const url = new URL(value);
  return url.protocol === 'https:' && url.hostname !== '' && !url.username && !url.password;
}

function validCustomerEmail(email: string | null | undefined): string | null {
  if (email === undefined || email === null) return null;
  // The rule mail delivery applies, so that a receipt accepted here can be sent.
  if (!isMailableAddress(email) || !isStorableText(email)) {
    throw domainError('CUSTOMER_EMAIL_INVALID');
  }
  return email;
}

function validCustomerName(name: string | null | undefined): string | null {
  if (name === undefined || name === null) return null;
  if (name.trim() === '' || [...name].length > CUSTOMER_NAME_MAX_LENGTH || !isStorableText(name)) {
    throw domainError('CUSTOMER_NAME_INVALID');
  }
  return name;
}

/**
 * Flat object of at most 50 keys (1-40 characters) with string, finite number or boolean values, 5KB as JSON. A
 * number past 2^53 - 1 in size was already rounded by the JSON reader: refused, so it is sent as a string instead.
 */
export function validMetadata(metadata: unknown): Metadata {
  if (metadata === undefined || metadata === null) return {};
  if (typeof metadata !== 'object' || Array.isArray(metadata)) throw domainError('METADATA_NOT_OBJECT');
  const entries = Object.entries(metadata);
  if (entries.length > METADATA_MAX_KEYS) throw domainError('METADATA_TOO_MANY_KEYS');
  for (const [key, value] of entries) {
    if (key.length === 0 || key.length > METADATA_KEY_MAX_LENGTH) throw domainError('METADATA_KEY_INVALID');
    if (!isMetadataValue(value)) throw domainError('METADATA_VALUE_INVALID');
    if (typeof value === 'number' && Math.abs(value) > Number.MAX_SAFE_INTEGER) throw domainError('METADATA_NUMBER_INEXACT');
    if (!isStorableText(key) || (typeof value === 'string' && !isStorableText(value))) throw domainError('METADATA_TEXT_INVALID');
  }
  if (Buffer.byteLength(JSON.stringify(metadata)) > METADATA_MAX_BYTES) {
    throw domainError('METADATA_TOO_LARGE');
  }
  return metadata as Metadata;
}

function isMetadataValue(value: unknown): value is MetadataValue {
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/** Spec: `checkout_url` has the form `{base_url}/checkout/<payment_id>`. */
export function checkoutUrlFor(baseUrl: string, paymentId: string): string {
  return `${baseUrl}/checkout/${paymentId}`;
}
