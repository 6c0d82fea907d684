import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { openDatabase } from '../../../src/platform/db/database';
import { liveOwner } from '../../../src/platform/db/data-dir-lock';
import { loadConfig } from '../../../src/shared/config';
import { ENTITIES } from '../../../src/apps/entities';

jest.setTimeout(60_000);

const logger = pino({ level: 'silent' });
let dataDir: string;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payments-embedded-open-'));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

// The ORM is built while the embedded engine starts in its thread, before the engine's address is known.
describe('opening the embedded database', () => {
  test('the ORM built before the engine served reaches the engine, not the address it was built with', async () => {
    const database = await openDatabase(loadConfig({ DATA_DIR: dataDir }), logger, ENTITIES);
    try {
      const [row] = await database.orm.em.fork().execute<{ answer: number }[]>('select 41 + 1 as answer');
      expect(row.answer).toBe(42);
      expect(liveOwner(dataDir)?.pid).toBe(process.pid);
    } finally {
      await database.close();
    }
    expect(liveOwner(dataDir)).toBeUndefined();
  });

  test('an ORM that cannot be built stops the engine that was starting beside it and frees the data directory', async () => {
    class NotAnEntity {}
    await expect(openDatabase(loadConfig({ DATA_DIR: dataDir }), logger, [NotAnEntity])).rejects.toThrow(/forgot to use @Entity/);
    expect(liveOwner(dataDir)).toBeUndefined();
  });
});
