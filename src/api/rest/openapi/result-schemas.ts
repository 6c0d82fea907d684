import {
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { METADATA_VALUE } from '../payment-request';
import { PAYMENT_ID_PATTERN } from './headers-and-parameters';
import { ref, type JsonSchema } from './types';
import { MINIMUM_AMOUNT_CENTS, PAGE_LIMIT_MAX, SUPPORTED_CURRENCY } from '../../../shared/limits';

/*
 * The schemas of the answers, read from the operations behind the facade: each fragment of
 * schema/operations/rest.graphql becomes a schema of the same name, its properties the fields it selects
 * (aliases are the REST names), typed by the GraphQL schema. Enum values show in lowercase, as REST answers
 * them (rest-payment.ts).
 */

/** Scalars as JSON carries them. A scalar not listed here fails the start. */
const SCALARS: Record<string, JsonSchema> = {
  ID: { type: 'string' },
  String: { type: 'string' },
  Boolean: { type: 'boolean' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  SafeInt: { type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
  DateTimeISO: { type: 'string', format: 'date-time', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$' },
  JSONObject: { type: 'object' },
};

/** What sellers read about a field beyond its GraphQL type, by schema coordinate (`Type.field`). */
const FIELD_NOTES: Record<string, JsonSchema> = {
  'Payment.id': { pattern: PAYMENT_ID_PATTERN, description: '`pay_` and 24 characters of `[0-9A-Za-z]` from a CSPRNG (about 143 bits).', examples: ['pay_3kTMd2mXq8uV0aRbWc5pLs7e'] },
  'Payment.amount': { minimum: MINIMUM_AMOUNT_CENTS, description: 'Integer cents of USD.', examples: [1234] },
  'Payment.currency': { const: SUPPORTED_CURRENCY },
  'Payment.status': { description: '`pending` at creation; `completed` or `failed` after checkout; `refunded` after an administrator refund.' },
  'Payment.checkoutUrl': {
    format: 'uri',
    pattern: `/checkout/${PAYMENT_ID_PATTERN.slice(1)}`,
    description: '`{base_url}/checkout/<id>`: send the customer here.',
    examples: ['https://pay.example.com/checkout/pay_3kTMd2mXq8uV0aRbWc5pLs7e'],
  },
  'Payment.customerEmail': { description: 'As sent; null when not sent.' },
  'Payment.customerName': { description: 'As sent; null when not sent.' },
  'Payment.metadata': { additionalProperties: METADATA_VALUE, description: 'As sent, keys in the order sent except integer-like keys (`0`, `2`, `10`), which come first in ascending numeric order; `{}` when not sent.' },
  'Payment.createdAt': { description: 'ISO 8601, UTC, with `Z`.', examples: ['2026-11-23T10:00:00.000Z'] },
  'Payment.completedAt': { description: 'When the payment completed (ISO 8601, UTC). Null while `pending` and when `failed`; a `refunded` payment keeps it.' },
  'Pagination.page': { minimum: 1 },
  'Pagination.limit': { minimum: 1, maximum: PAGE_LIMIT_MAX },
  'Pagination.total': { minimum: 0, description: 'Payments matching the filter, all pages.' },
  'Pagination.pages': { minimum: 0 },
  'Shop.id': { pattern: '^shop_' },
};

type Fragments = ReadonlyMap<string, FragmentDefinitionNode>;

/** One schema per fragment of the operations' document, by the fragment's name. */
export function fragmentSchemas(schema: GraphQLSchema, document: DocumentNode): Record<string, JsonSchema> {
  const fragments: Fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]),
  );
  return Object.fromEntries(
    [...fragments.values()].map((fragment) => {
      const type = schema.getType(fragment.typeCondition.name.value);
      if (!isObjectType(type)) throw new Error(`fragment ${fragment.name.value}: not on an object type`);
      return [fragment.name.value, objectSchema(type, fragment.selectionSet, fragments, false)];
    }),
  );
}

/** A selection of an object; a selection that is one fragment spread refers to that fragment's schema. */
function objectSchema(type: GraphQLObjectType, selectionSet: SelectionSetNode, fragments: Fragments, mayRefer = true): JsonSchema {
  const [only] = selectionSet.selections;
  if (mayRefer && selectionSet.selections.length === 1 && only.kind === Kind.FRAGMENT_SPREAD) return ref('schemas', only.name.value);
  const properties = propertiesOf(type, selectionSet, fragments);
  return { type: 'object', required: Object.keys(properties), additionalProperties: false, properties };
}

/** The fields a selection answers, in its order (as GraphQL answers them), spreads inlined. */
function propertiesOf(type: GraphQLObjectType, selectionSet: SelectionSetNode, fragments: Fragments): Record<string, JsonSchema> {
  const properties: Record<string, JsonSchema> = {};
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      Object.assign(properties, propertiesOf(type, fragments.get(selection.name.value)!.selectionSet, fragments));
    } else if (selection.kind === Kind.FIELD) {
      const field = type.getFields()[selection.name.value];
      if (!field) throw new Error(`${type.name}.${selection.name.value}: not a field the document can describe`);
      const walked = outputSchema(field.type, selection.selectionSet, fragments);
      properties[selection.alias?.value ?? selection.name.value] = { ...walked, ...FIELD_NOTES[`${type.name}.${field.name}`] };
    } else {
      throw new Error(`${type.name}: inline fragments are not described`);
    }
  }
  return properties;
}

function outputSchema(type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined, fragments: Fragments): JsonSchema {
  if (isNonNullType(type)) return nonNullSchema(type.ofType, selectionSet, fragments);
  return orNull(nonNullSchema(type, selectionSet, fragments));
}

function nonNullSchema(type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined, fragments: Fragments): JsonSchema {
  if (isListType(type)) return { type: 'array', items: outputSchema(type.ofType, selectionSet, fragments) };
  if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((v) => v.name.toLowerCase()) };
  if (isScalarType(type) && SCALARS[type.name]) return SCALARS[type.name];
  if (isObjectType(type) && selectionSet) return objectSchema(type, selectionSet, fragments);
  throw new Error(`${type.toString()}: no JSON Schema for this type`);
}

function orNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}
