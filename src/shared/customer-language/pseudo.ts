import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { printAST } from '@formatjs/icu-messageformat-parser/printer';

/**
 * The pseudo-language's message for an English one: every letter of its text accented (arguments, plural and
 * select keys kept) and the whole bracketed, so "Pay {amount}" reads "⟦Ƥàý {amount}⟧". Any plain ASCII word left
 * on a page or in a mail rendered in it was written outside the catalogues.
 */
const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => [c, [...'àƀçđéƒĝĥîĵķĺɱñöþǫŕšţûṽŵẋýžÀƁÇĐÉƑĜĤÎĴĶĹṀÑÖÞǪŔŠŢÛṼŴẊÝŽ'][i]]),
);

export const PSEUDO_OPEN = '⟦';
export const PSEUDO_CLOSE = '⟧';

function accent(elements: MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((element) => {
    if (element.type === TYPE.literal) return { ...element, value: element.value.replace(/[A-Za-z]/g, (c) => ACCENTED[c]) };
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      const options = Object.fromEntries(Object.entries(element.options).map(([key, option]) => [key, { ...option, value: accent(option.value) }]));
      return { ...element, options } as MessageFormatElement;
    }
    return element;
  });
}

export function pseudoMessage(message: string): string {
  return `${PSEUDO_OPEN}${printAST(accent(parse(message)))}${PSEUDO_CLOSE}`;
}
