import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { PROJECT_ROOT } from '../../src/shared/project-root';

/** One entry of the error catalogue: its code, HTTP status, and a pattern matching its message (details as `.+`). */
export interface CatalogueEntry {
  code: string;
  status: number;
  pattern: RegExp;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function messagePattern(node: ts.Node): RegExp {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return new RegExp(`^${escape(node.text)}$`);
  if (ts.isArrowFunction(node)) return messagePattern(node.body);
  if (ts.isParenthesizedExpression(node)) return messagePattern(node.expression);
  if (ts.isTemplateExpression(node)) {
    return new RegExp(`^${escape(node.head.text)}${node.templateSpans.map((span) => `(.+)${escape(span.literal.text)}`).join('')}$`, 's');
  }
  throw new Error(`unexpected message form in the catalogue: ${node.getText()}`);
}

/**
 * The catalogue as src/shared/errors.ts spells it, read with the TypeScript parser from the source text (not
 * imported), so a test comparing documents or answers with it cannot share a mistake with the code under test.
 */
export function readErrorCatalogue(): CatalogueEntry[] {
  const file = path.join(PROJECT_ROOT, 'src/shared/errors.ts');
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  let entries: CatalogueEntry[] | undefined;
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && node.name.getText() === 'catalogue' && node.initializer) {
      let object: ts.Node = node.initializer;
      while (ts.isSatisfiesExpression(object) || ts.isAsExpression(object)) object = object.expression;
      if (!ts.isObjectLiteralExpression(object)) throw new Error('the catalogue is not an object literal');
      entries = object.properties.filter(ts.isPropertyAssignment).map((property) => {
        const fields = (property.initializer as ts.ObjectLiteralExpression).properties.filter(ts.isPropertyAssignment);
        const field = (name: string) => {
          const found = fields.find((p) => p.name.getText() === name);
          if (!found) throw new Error(`${property.name.getText()} has no ${name}`);
          return found.initializer;
        };
        return { code: property.name.getText(), status: Number((field('status') as ts.NumericLiteral).text), pattern: messagePattern(field('message')) };
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (!entries || entries.length === 0) throw new Error('no catalogue found in src/shared/errors.ts');
  return entries;
}

/** The catalogue entry whose message this is (the first, when templates overlap), or undefined. */
export function catalogueEntryFor(catalogue: CatalogueEntry[], message: string): CatalogueEntry | undefined {
  return catalogue.find((entry) => entry.pattern.test(message));
}
