import { eachField, rootTypeOf } from './selections';
import {
  getNamedType,
  getNullableType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isObjectType,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';

/**
 * Arguments and input fields of free text, written by a person for a person (an admin's reason, an approver's note):
 * they may hold tabs and line breaks. Every other text (names, e-mail addresses, passwords, codes, tokens, URLs,
 * searches) is one line.
 */
const FREE_TEXT = new Set(['reason', 'note']);
/** C0 and C1 controls and DEL, tab and line breaks aside; U+0000 above all, which a PostgreSQL text column refuses. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const LINE_CONTROL = /[\t\n\r]/;
const LONE_SURROGATE = /\p{Surrogate}/u;

/** Text the service takes in an argument or input field of that name. */
export function isAcceptedText(name: string, text: string): boolean {
  return !CONTROL.test(text) && !LONE_SURROGATE.test(text) && (FREE_TEXT.has(name) || !LINE_CONTROL.test(text));
}

/**
 * One input guard for every text argument of a document (String and ID, in arguments, input objects and lists,
 * literal or from variables; JSON values such as metadata keep their own rules): the name of the first argument or
 * input field whose text holds a control character or a lone surrogate, or null when every text is accepted.
 */
export function refusedTextArgument(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
): string | null {
  const root = rootTypeOf(schema, operation);
  if (!root) return null;
  let refused: string | null = null;

  const checkValue = (name: string, type: GraphQLInputType, value: unknown): void => {
    const inner = getNullableType(type);
    if (value === null || value === undefined) return;
    if (isListType(inner)) {
      if (Array.isArray(value)) for (const item of value) checkValue(name, inner.ofType, item);
      else checkValue(name, inner.ofType, value);
      return;
    }
    if (isInputObjectType(inner)) {
      if (typeof value !== 'object') return;
      const fields = inner.getFields();
      for (const [key, item] of Object.entries(value)) if (fields[key]) checkValue(key, fields[key].type, item);
      return;
    }
    if ((inner.name === 'String' || inner.name === 'ID') && typeof value === 'string' && !isAcceptedText(name, value)) {
      refused ??= name;
    }
  };

  const checkNode = (name: string, type: GraphQLInputType, node: ValueNode): void => {
    const inner = getNullableType(type);
    if (node.kind === 'Variable') return checkValue(name, type, variables[node.name.value]);
    if (node.kind === 'ListValue') {
      for (const item of node.values) checkNode(name, isListType(inner) ? inner.ofType : type, item);
      return;
    }
    if (node.kind === 'ObjectValue') {
      if (!isInputObjectType(inner)) return;
      const fields = inner.getFields();
      for (const field of node.fields) {
        const definition = fields[field.name.value];
        if (definition) checkNode(field.name.value, definition.type, field.value);
      }
      return;
    }
    if (node.kind === 'StringValue') checkValue(name, isListType(inner) ? inner.ofType : type, node.value);
  };

  const visited = new Set<string>();
  // One `visited` for the whole document: each named fragment's arguments are checked once.
  const walk = (selections: SelectionSetNode, type: GraphQLNamedType): void =>
    eachField(schema, fragments, selections, type, visited, (selection, on) => {
      const field = isObjectType(on) || isInterfaceType(on) ? on.getFields()[selection.name.value] : undefined;
      if (!field) return;
      for (const argument of selection.arguments ?? []) {
        const definition = field.args.find((a) => a.name === argument.name.value);
        if (definition) checkNode(definition.name, definition.type, argument.value);
      }
      if (selection.selectionSet) walk(selection.selectionSet, getNamedType(field.type));
    });
  walk(operation.selectionSet, root);
  return refused;
}
