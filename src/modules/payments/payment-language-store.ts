import type { EntityManager } from '@mikro-orm/postgresql';
import { isLanguage, type Language } from '../../shared/customer-language/languages';
import { PaymentStatus } from './payment-status';

/** The language the payment's customer reads, or null when none was chosen or sent yet. */
export async function paymentLanguageOf(em: EntityManager, paymentId: string): Promise<Language | null> {
  const [row] = await em.execute<{ language: string | null }[]>(`select "language" from "payments" where "id" = ?`, [paymentId]);
  return isLanguage(row?.language) ? row.language : null;
}

/**
 * Remembers the customer's language while the payment can still be paid: the one picked in the page's menu, or
 * the one the page was in when the card was sent. A finished payment keeps the language it was paid in.
 */
export async function rememberPaymentLanguage(em: EntityManager, paymentId: string, language: Language): Promise<void> {
  await em.execute(`update "payments" set "language" = ? where "id" = ? and "status" = ? and "language" is distinct from ?`, [
    language,
    paymentId,
    PaymentStatus.PENDING,
    language,
  ]);
}
