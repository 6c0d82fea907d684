import type { FailureCode } from '../card-processor';

/**
 * Adyen's refusal reasons (`refusalReasonCode` of a Refused payment; docs.adyen.com, "Refusal reasons"),
 * each mapped onto the failure code the customer and the seller see. One table, every code Adyen lists;
 * an unknown code is a plain `card_declined` (docs/acquirers.md).
 */
export const REFUSAL_REASONS: Record<string, { adyen: string; code: FailureCode }> = {
  '2': { adyen: 'Refused', code: 'card_declined' },
  '3': { adyen: 'Referral', code: 'card_declined' },
  '4': { adyen: 'Acquirer Error', code: 'processing_error' },
  '5': { adyen: 'Blocked Card', code: 'card_declined' },
  '6': { adyen: 'Expired Card', code: 'expired_card' },
  '7': { adyen: 'Invalid Amount', code: 'card_declined' },
  '8': { adyen: 'Invalid Card Number', code: 'card_declined' },
  '9': { adyen: 'Issuer Unavailable', code: 'processing_error' },
  '10': { adyen: 'Not supported', code: 'card_declined' },
  '11': { adyen: '3D Not Authenticated', code: 'authentication_failed' },
  '12': { adyen: 'Not enough balance', code: 'insufficient_funds' },
  '14': { adyen: 'Acquirer Fraud', code: 'fraudulent' },
  '15': { adyen: 'Cancelled', code: 'card_declined' },
  '16': { adyen: 'Shopper Cancelled', code: 'card_declined' },
  '17': { adyen: 'Invalid Pin', code: 'card_declined' },
  '18': { adyen: 'Pin tries exceeded', code: 'card_declined' },
  '19': { adyen: 'Pin validation not possible', code: 'card_declined' },
  '20': { adyen: 'FRAUD', code: 'fraudulent' },
  '21': { adyen: 'Not Submitted', code: 'processing_error' },
  '22': { adyen: 'FRAUD-CANCELLED', code: 'fraudulent' },
  '23': { adyen: 'Transaction Not Permitted', code: 'card_declined' },
  '24': { adyen: 'CVC Declined', code: 'incorrect_cvc' },
  '25': { adyen: 'Restricted Card', code: 'card_declined' },
  '26': { adyen: 'Revocation Of Auth', code: 'card_declined' },
  '27': { adyen: 'Declined Non Generic', code: 'card_declined' },
  '28': { adyen: 'Withdrawal amount exceeded', code: 'insufficient_funds' },
  '29': { adyen: 'Withdrawal count exceeded', code: 'insufficient_funds' },
  '31': { adyen: 'Issuer Suspected Fraud', code: 'fraudulent' },
  '32': { adyen: 'AVS Declined', code: 'card_declined' },
  '33': { adyen: 'Card requires online pin', code: 'card_declined' },
  '34': { adyen: 'No checking account available on Card', code: 'card_declined' },
  '35': { adyen: 'No savings account available on Card', code: 'card_declined' },
  '36': { adyen: 'Mobile pin required', code: 'card_declined' },
  '37': { adyen: 'Contactless fallback', code: 'card_declined' },
  '38': { adyen: 'Authentication required', code: 'authentication_failed' },
  '39': { adyen: 'RReq not received from DS', code: 'authentication_failed' },
  '40': { adyen: 'Current AID is in Penalty Box', code: 'card_declined' },
  '41': { adyen: 'CVM Required Restart Payment', code: 'card_declined' },
  '42': { adyen: '3DS Authentication Error', code: 'authentication_failed' },
  '43': { adyen: 'Online PIN required', code: 'card_declined' },
  '44': { adyen: 'Try another interface', code: 'card_declined' },
  '45': { adyen: 'Chip downgrade mode', code: 'card_declined' },
  '46': { adyen: 'Transaction blocked by Adyen to prevent excessive retry fees', code: 'card_declined' },
};

/**
 * A Refused payment's failure code: by its `refusalReasonCode`; when that is missing (or not in the table), by
 * its `refusalReason` text, as for notifications; `card_declined` when neither is known.
 */
export function failureCodeOfRefusal(refusalReasonCode: string | undefined, refusalReason?: string): FailureCode {
  return (refusalReasonCode && REFUSAL_REASONS[refusalReasonCode]?.code) || failureCodeOfReasonText(refusalReason);
}

/**
 * A refusal reason as AUTHORISATION notifications carry it (`reason`, Adyen's text such as "CVC Declined"),
 * mapped by the same table.
 */
export function failureCodeOfReasonText(reason: string | undefined): FailureCode {
  const text = (reason ?? '').split(':')[0].trim().toLowerCase();
  return Object.values(REFUSAL_REASONS).find((r) => r.adyen.toLowerCase() === text)?.code ?? 'card_declined';
}
