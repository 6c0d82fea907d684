import DOCUMENT from '../../schema/operations/admin-console.graphql';
import { operationSources } from './operation-sources';

/** The operations the back office and the query console run (operation-sources.ts says how they are cut out). */
export const OPERATION_SOURCES: ReadonlyMap<string, string> = operationSources(DOCUMENT);

export function operationSource(name: string): string {
  const source = OPERATION_SOURCES.get(name);
  if (!source) throw new Error(`No operation ${name} in admin-console.graphql`);
  return source;
}
