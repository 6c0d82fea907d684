import { Client } from 'pg';
import { randomBytes } from 'node:crypto';
import { POSTGRES_ADMIN_URL, databaseUrlFor } from './test-env';
import { suiteFixture } from './suite-fixture';

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new, empty PostgreSQL database with a unique name; returns its URL. */
export async function createEmptyDatabase(prefix: string): Promise<{ name: string; url: string }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  await admin((c) => c.query(`create database "${name}"`));
  return { name, url: databaseUrlFor(name) };
}

export async function dropDatabase(name: string): Promise<void> {
  await admin((c) => c.query(`drop database if exists "${name}" with (force)`));
}

/** An empty database of its own for the file or the enclosing `describe` (suite-fixture.ts), dropped after it. */
export function useEmptyDatabase(prefix: string): Readonly<{ name: string; url: string }> {
  return suiteFixture('useEmptyDatabase', () => createEmptyDatabase(prefix), (database) => dropDatabase(database.name));
}
