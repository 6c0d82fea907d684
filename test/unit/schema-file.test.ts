import fs from 'node:fs';
import path from 'node:path';
import { buildAppSchema, printAppSchema } from '../../src/apps/schema';

test('schema/schema.graphql is the SDL the code generates (run `npm run schema` after changing types)', async () => {
  const committed = fs.readFileSync(path.join(__dirname, '../../schema/schema.graphql'), 'utf8');
  expect(printAppSchema(await buildAppSchema())).toBe(committed);
});
