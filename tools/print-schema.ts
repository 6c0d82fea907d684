import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { buildAppSchema, printAppSchema } from '../src/apps/schema';
import { PROJECT_ROOT } from '../src/shared/project-root';

/** `npm run schema`: writes the SDL that tests compare against (schema/schema.graphql). */
buildAppSchema().then((schema) => {
  fs.writeFileSync(path.join(PROJECT_ROOT, 'schema/schema.graphql'), printAppSchema(schema));
});
