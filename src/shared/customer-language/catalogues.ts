import ar from './catalogues/ar.json';
import de from './catalogues/de.json';
import en from './catalogues/en.json';
import es from './catalogues/es.json';
import fr from './catalogues/fr.json';
import it from './catalogues/it.json';
import ja from './catalogues/ja.json';
import nl from './catalogues/nl.json';
import pl from './catalogues/pl.json';
import ptBR from './catalogues/pt-BR.json';
import type { Language, PageLanguage } from './languages';
import { pseudoMessage } from './pseudo';

/** Every customer-facing message, by key: English is the reference every other catalogue must match key for key. */
export type MessageKey = keyof typeof en;
export type Catalogue = Record<MessageKey, string>;

export const CATALOGUES: Record<Language, Record<string, string>> = { en, de, fr, es, it, nl, 'pt-BR': ptBR, pl, ja, ar };

let pseudo: Catalogue | undefined;

/** A language's catalogue (the pseudo-language's is made from English on first use). */
export function catalogueOf(language: PageLanguage): Catalogue {
  if (language === 'en-XA') return (pseudo ??= Object.fromEntries(Object.entries(en).map(([key, message]) => [key, pseudoMessage(message)])) as Catalogue);
  return CATALOGUES[language] as Catalogue;
}
