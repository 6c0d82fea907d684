import fs from 'node:fs';
import path from 'node:path';

/**
 * A module has two faces (docs/architecture.md, "Modules"): index.ts, what its code does, and web.ts, what it shows
 * over HTTP. Loading an index loads no GraphQL, no Express and nothing only Redis, SMTP, a mail, a customer's message,
 * a terminal's log or a QR code needs, so a CLI command or a worker loads what it uses and not the web application.
 * Each package below is a tripwire: loading it throws.
 */
const WEB_ONLY = ['type-graphql', 'graphql', 'graphql-scalars', 'express', '@apollo/server'];
const ON_FIRST_USE = ['ioredis', 'bull', 'nodemailer', 'nodemailer/lib/mail-composer', 'intl-messageformat', 'pino-pretty', 'qrcode'];
const MODULES_DIR = path.join(__dirname, '../../src/modules');
const MODULES = fs
  .readdirSync(MODULES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(MODULES_DIR, entry.name, 'index.ts')))
  .map((entry) => entry.name);

function loadWithTripwires(file: string): void {
  jest.isolateModules(() => {
    for (const name of [...WEB_ONLY, ...ON_FIRST_USE]) {
      jest.doMock(name, () => {
        throw new Error(`loaded ${name}`);
      });
    }
    require(file);
  });
}

test('every module with an index is checked', () => {
  expect(MODULES).toEqual(expect.arrayContaining(['payments', 'checkout', 'identity', 'ledger', 'notifications', 'webhooks', 'refunds']));
});

test.each(MODULES)('%s/index.ts loads no GraphQL, Express, Redis client, mailer, message formatter or qrcode', (name) => {
  expect(() => loadWithTripwires(path.join(MODULES_DIR, name, 'index.ts'))).not.toThrow();
});

test('the tripwires fire: a web face loads GraphQL', () => {
  expect(() => loadWithTripwires(path.join(MODULES_DIR, 'payments', 'web.ts'))).toThrow(/loaded (type-graphql|graphql)/);
});
