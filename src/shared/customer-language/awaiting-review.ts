import type { MessageKey } from './catalogues';
import type { Language } from './languages';

/** Where a card with a known brand carries its security code (the checkout's hint and field error say it). */
const SECURITY_CODE_BY_BRAND: readonly MessageKey[] = [
  'checkout.securityCodeHintBack',
  'checkout.securityCodeHintFront',
  'checkout.field.securityCodeBack',
  'checkout.field.securityCodeFront',
];

/**
 * Messages written without a native speaker: customers see them as they are, and they wait here until a native
 * speaker who knows card-payment terms has read them (docs/checkout.md, "Languages"). The reviewer corrects the
 * catalogue and takes the keys off this list; English, the reference, is never on it.
 */
export const AWAITING_NATIVE_REVIEW: Record<Exclude<Language, 'en'>, readonly MessageKey[]> = {
  de: SECURITY_CODE_BY_BRAND,
  fr: SECURITY_CODE_BY_BRAND,
  es: SECURITY_CODE_BY_BRAND,
  it: SECURITY_CODE_BY_BRAND,
  nl: SECURITY_CODE_BY_BRAND,
  'pt-BR': SECURITY_CODE_BY_BRAND,
  pl: SECURITY_CODE_BY_BRAND,
  ja: SECURITY_CODE_BY_BRAND,
  ar: SECURITY_CODE_BY_BRAND,
};
