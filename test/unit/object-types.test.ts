import { MetadataStorage } from '@mikro-orm/core';
import { getMetadataStorage } from 'type-graphql';
import { ENTITIES } from '../../src/apps/entities';
import { buildAppSchema } from '../../src/apps/schema';

/**
 * The GraphQL object types are declared apart from the entities (`<name>.object.ts` beside `<name>.entity.ts`), and
 * the resolvers hand type-graphql the entities: each field an object type declares is read off the entity by name.
 * A field the entity does not have would answer null without an error, so every declared field must be a mapped
 * property, a getter or a method of its entity, unless a field resolver of that type answers it.
 */
beforeAll(() => buildAppSchema());

function objectTypesOfEntities() {
  const storage = getMetadataStorage();
  return ENTITIES.flatMap((entity) => {
    const objectType = storage.objectTypes.find((type) => type.target.name === `${entity.name}Object`);
    return objectType ? [{ entity, objectType }] : [];
  });
}

/** The fields declared on the class and the classes it extends (an abstract base's fields are its children's). */
function declaredFields(target: Function): string[] {
  const storage = getMetadataStorage();
  const chain = classChain(target);
  return storage.fields.filter((field) => chain.includes(field.target)).map((field) => field.name);
}

function resolvedFields(target: Function): Set<string> {
  return new Set(getMetadataStorage().fieldResolvers.filter((resolver) => resolver.getObjectType?.() === target).map((resolver) => resolver.schemaName));
}

/** The chain of a class and the classes it extends. */
function classChain(target: Function): Function[] {
  const chain: Function[] = [];
  for (let type = target; type && type !== Function.prototype; type = Object.getPrototypeOf(type)) chain.push(type);
  return chain;
}

/** A property mapped on the entity or a class it extends (its metadata is its base's), a getter or a method. */
function entityHas(entity: Function, name: string): boolean {
  const mapped = classChain(entity).some((type) => name in (MetadataStorage.getMetadataFromDecorator(type as never).properties as Record<string, unknown>));
  return mapped || name in entity.prototype;
}

test('every entity the schema shows has its object type, named after it', () => {
  const shown = objectTypesOfEntities().map(({ entity }) => entity.name);
  expect(shown).toEqual(
    expect.arrayContaining(['Payment', 'Refund', 'Dispute', 'Withdrawal', 'Shop', 'Seller', 'Admin', 'AdminToken', 'AuditEntry', 'LedgerEntry', 'WebhookDelivery', 'WebhookAttempt', 'MailOutboxEntry', 'SettlementProposal']),
  );
});

test.each(objectTypesOfEntities().map(({ entity, objectType }) => [objectType.name, entity.name, entity, objectType.target] as const))(
  'each field of %s is read off the %s entity, or answered by a field resolver',
  (_type, _entity, entity, target) => {
    const fields = declaredFields(target);
    expect(fields.length).toBeGreaterThan(0);
    const resolved = resolvedFields(target);
    expect(fields.filter((name) => !resolved.has(name) && !entityHas(entity, name))).toEqual([]);
  },
);

test('the check sees a field the entity lacks', () => {
  const [{ entity }] = objectTypesOfEntities();
  expect(entityHas(entity, 'id')).toBe(true);
  expect(entityHas(entity, 'noSuchField')).toBe(false);
});
