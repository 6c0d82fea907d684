import { parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { catalogueOf, type MessageKey } from './catalogues';
import type { PageLanguage } from './languages';

/**
 * The checkout page's messages, compiled when the page is built (checkout-ui/build.mjs) so the browser carries
 * neither a parser nor the other languages: each message becomes its text and argument names in turn
 * (`["Pay ", "amount", ""]`). The page only ever puts a shop name or an amount into a sentence; a checkout
 * message with a plural or a select fails the build here rather than reach the browser unformatted.
 */
export type CompiledMessage = string[];

export function compileSimple(key: string, message: string): CompiledMessage {
  const parts: CompiledMessage = [''];
  for (const element of parse(message)) {
    if (element.type === TYPE.literal) parts[parts.length - 1] += element.value;
    else if (element.type === TYPE.argument) parts.push(element.value, '');
    else throw new Error(`${key}: the checkout page formats only {arguments}, not ${TYPE[element.type]}: ${message}`);
  }
  return parts;
}

/** Every `checkout.` message of a language, compiled. */
export function checkoutMessages(language: PageLanguage): Record<string, CompiledMessage> {
  const catalogue = catalogueOf(language);
  const keys = (Object.keys(catalogue) as MessageKey[]).filter((key) => key.startsWith('checkout.'));
  return Object.fromEntries(keys.map((key) => [key, compileSimple(key, catalogue[key])]));
}

/** A message without arguments as its text, for the page's HTML. */
export function staticText(language: PageLanguage, key: string): string {
  const catalogue: Record<string, string> = catalogueOf(language);
  if (!(key in catalogue)) throw new Error(`no message ${key}`);
  const parts = compileSimple(key, catalogue[key]);
  if (parts.length !== 1) throw new Error(`${key} takes arguments: it cannot be written into the page's HTML`);
  return parts[0];
}
