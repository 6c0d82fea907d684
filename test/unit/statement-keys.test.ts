import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { canonicalJson } from '../../src/modules/ledger/signed-statement';
import { DEVELOPMENT_KEY_FILE, keyIdOf, loadStatementKeys } from '../../src/modules/ledger/statement-keys';
import { startService } from '../../src/apps/service';
import { ConfigError, loadConfig } from '../../src/shared/config';
import { createLogger } from '../../src/shared/logger';
import { StartupError } from '../../src/shared/startup-error';

/** The statement signing key's settings: configured, generated for local development, or refused. */
const silent = () => createLogger('silent', new Writable({ write: (_c, _e, done) => done() }));
const pair = () => generateKeyPairSync('ed25519');
const pem = (key: ReturnType<typeof pair>['privateKey']) => key.export({ format: 'pem', type: key.type === 'private' ? 'pkcs8' : 'spki' }).toString();

let dataDir: string;
beforeEach(() => (dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'statement-keys-'))));
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('STATEMENT_SIGNING_KEY', () => {
  test('PEM or base64 DER; anything else is refused without echoing the value', () => {
    const { privateKey, publicKey } = pair();
    const base64 = privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64');
    expect(loadConfig({ STATEMENT_SIGNING_KEY: pem(privateKey) }).statementSigningKey).toBe(pem(privateKey));
    expect(loadConfig({ STATEMENT_SIGNING_KEY: base64 }).statementSigningKey).toBe(pem(privateKey));
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    for (const wrong of ['not-a-key', rsa, pem(publicKey)]) {
      expect(() => loadConfig({ STATEMENT_SIGNING_KEY: wrong })).toThrow(new ConfigError('Invalid configuration: STATEMENT_SIGNING_KEY must be an Ed25519 private key, PEM (PKCS#8) or base64 DER'));
    }
  });

  test('old public keys: several, comma-separated; a private key among them is refused', () => {
    const [a, b] = [pair(), pair()];
    const spki = b.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
    expect(loadConfig({ STATEMENT_SIGNING_OLD_PUBLIC_KEYS: `${pem(a.publicKey)},${spki}` }).statementSigningOldPublicKeys).toEqual([pem(a.publicKey), pem(b.publicKey)]);
    expect(() => loadConfig({ STATEMENT_SIGNING_OLD_PUBLIC_KEYS: pem(a.privateKey) })).toThrow(/STATEMENT_SIGNING_OLD_PUBLIC_KEYS must be Ed25519 public keys/);
  });

  test('configured: it signs, its id is the JWK thumbprint, and old keys are published after it, once each', () => {
    const [current, old] = [pair(), pair()];
    const config = loadConfig({ BASE_URL: 'https://pay.example.com', STATEMENT_SIGNING_KEY: pem(current.privateKey), STATEMENT_SIGNING_OLD_PUBLIC_KEYS: [old, old, current].map((k) => pem(k.publicKey)).join(',') });
    const keys = loadStatementKeys(config, silent());
    expect(keys.signer.keyId).toBe(keyIdOf(current.publicKey));
    expect(keys.published.keys.map((k) => [k.kid, k.status])).toEqual([[keyIdOf(current.publicKey), 'current'], [keyIdOf(old.publicKey), 'previous']]);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  test('unset on localhost: a development key generated once in DATA_DIR (owner-only), the same after a restart', () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    const first = loadStatementKeys(config, silent());
    const file = path.join(dataDir, DEVELOPMENT_KEY_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadStatementKeys(config, silent()).signer.keyId).toBe(first.signer.keyId);
    expect(loadStatementKeys(loadConfig({ DATA_DIR: dataDir, BASE_URL: 'http://127.0.0.1:3000' }), silent()).signer.keyId).toBe(first.signer.keyId);
    expect(fs.readdirSync(dataDir)).toEqual([DEVELOPMENT_KEY_FILE]);
  });

  test('unset anywhere but localhost: the service refuses to start, before it opens anything', async () => {
    const config = loadConfig({ DATA_DIR: dataDir, BASE_URL: 'https://pay.example.com', DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none' });
    expect(() => loadStatementKeys(config, silent())).toThrow(StartupError);
    await expect(startService(config, silent())).rejects.toThrow(/STATEMENT_SIGNING_KEY is required when BASE_URL is not localhost \(https:\/\/pay\.example\.com\)/);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});

describe('canonical JSON', () => {
  test('keys sorted at every depth, no whitespace, integers only', () => {
    expect(canonicalJson({ b: 1, a: { d: null, c: 'é"' }, e: [2, 'x'] })).toBe('{"a":{"c":"é\\"","d":null},"b":1,"e":[2,"x"]}');
    expect(() => canonicalJson({ amount: 1.5 })).toThrow(/integers only/);
    expect(() => canonicalJson({ amount: undefined })).toThrow(/cannot hold undefined/);
  });
});
