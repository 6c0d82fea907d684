import { MikroORM } from '@mikro-orm/postgresql';
import { ormConfig } from '../../mikro-orm.config';
import { createEmptyDatabase, dropDatabase } from './databases';
import { suiteFixture } from './suite-fixture';

/**
 * An empty database of its own and a MikroORM over it, for a file or `describe` that runs the migrations step by
 * step (`migratorOf(orm).up({ to })`) to test an upgrade. Kept apart from databases.ts, which Jest's global setup
 * loads: MikroORM must not be loaded there.
 */
export function useDatabaseToUpgrade(prefix: string): Readonly<{ orm: MikroORM }> {
  return suiteFixture(
    'useDatabaseToUpgrade',
    async () => {
      const database = await createEmptyDatabase(prefix);
      return { orm: await MikroORM.init(ormConfig(database.url, 2)), name: database.name };
    },
    async ({ orm, name }) => {
      await orm.close();
      await dropDatabase(name);
    },
  );
}
