import fs from 'node:fs';
import path from 'node:path';

/**
 * Adyen's definitions are part of the repository (test/fixtures/adyen/): a fresh clone runs the Adyen suites
 * with nothing beside it, and nothing reaches for a copy elsewhere.
 */
const ROOT = path.resolve(__dirname, '../..');
const FIXTURES = path.join(ROOT, 'test/fixtures/adyen');
const json = (file: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, file), 'utf8'));

test("the folder holds Adyen's two definitions, their MIT licence and a README saying where they come from", () => {
  const checkout = json('CheckoutService-v71.json');
  expect(checkout.openapi).toMatch(/^3\.1\./);
  expect(checkout.info).toMatchObject({ title: 'Adyen Checkout API', version: '71' });
  expect(checkout.paths['/payments/{paymentPspReference}/refunds']).toBeDefined();
  const webhooks = json('Webhooks-v1.json');
  expect(webhooks.openapi).toMatch(/^3\.1\./);
  expect(webhooks.info.version).toBe('1');
  const licence = fs.readFileSync(path.join(FIXTURES, 'LICENSE'), 'utf8');
  expect(licence).toContain('The MIT License');
  expect(licence).toContain('Copyright (c) 2017 Adyen bv');
  const readme = fs.readFileSync(path.join(FIXTURES, 'README.md'), 'utf8');
  for (const named of ['CheckoutService-v71.json', 'Webhooks-v1.json', 'LICENSE', 'hmac-vectors.json', 'Adyen/adyen-openapi']) expect(readme).toContain(named);
});

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

test('no source, test or document reaches for Adyen definitions outside the repository', () => {
  // Built from parts, so that this file does not find itself.
  const outside = [['shared', 'acquirers'].join('/'), ['ADYEN', 'SPEC', 'DIR'].join('_')];
  const offenders = ['src', 'test', 'docs']
    .flatMap((dir) => filesUnder(path.join(ROOT, dir)))
    .filter((file) => /\.(ts|mts|mjs|js|md|json)$/.test(file) && !file.startsWith(FIXTURES + path.sep))
    .filter((file) => outside.some((text) => fs.readFileSync(file, 'utf8').includes(text)))
    .map((file) => path.relative(ROOT, file));
  expect(offenders).toEqual([]);
});
