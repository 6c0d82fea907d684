import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isLocalBaseUrl, type Config } from '../../shared/config';
import type { Logger } from '../../shared/logger';
import { StartupError } from '../../shared/startup-error';

/** Where the public keys are published, for sellers and their verifiers (docs/dashboard.md, "Signed statements"). */
export const STATEMENT_KEYS_PATH = '/.well-known/statement-keys.json';

/** The development key's file in DATA_DIR, used when STATEMENT_SIGNING_KEY is unset and BASE_URL is localhost. */
export const DEVELOPMENT_KEY_FILE = 'statement-signing-key.pem';

/** One published public key: a JWK (RFC 8037) with its PEM beside it. */
export interface PublishedKey {
  kid: string;
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  alg: 'EdDSA';
  use: 'sig';
  /** `current` signs new statements; `previous` keys signed older ones. */
  status: 'current' | 'previous';
  pem: string;
}

export interface StatementSigner {
  keyId: string;
  /** The Ed25519 signature of `message`, base64. */
  sign(message: Buffer): string;
}

export interface StatementKeys {
  signer: StatementSigner;
  /** The document served at STATEMENT_KEYS_PATH: public keys only. */
  published: { keys: PublishedKey[] };
}

/**
 * The key id: the RFC 7638 thumbprint of the public key's JWK (SHA-256 of its required members in canonical
 * order, base64url), so anyone holding the public key can compute it and an id can never name two keys.
 */
export function keyIdOf(publicKey: KeyObject): string {
  const { x } = publicKey.export({ format: 'jwk' });
  return createHash('sha256').update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x })).digest('base64url');
}

function published(publicKey: KeyObject, status: PublishedKey['status']): PublishedKey {
  const { x } = publicKey.export({ format: 'jwk' });
  return { kid: keyIdOf(publicKey), kty: 'OKP', crv: 'Ed25519', x: x!, alg: 'EdDSA', use: 'sig', status, pem: publicKey.export({ format: 'pem', type: 'spki' }).toString() };
}

/**
 * The statement signing keys of this process. STATEMENT_SIGNING_KEY when set; otherwise, on a localhost
 * BASE_URL only, a development key generated once and kept in DATA_DIR (so statements stay verifiable across
 * restarts). Anywhere else the start is refused: a generated key would differ from machine to machine and be
 * lost with the machine, leaving sellers with statements nobody can verify.
 */
export function loadStatementKeys(config: Pick<Config, 'statementSigningKey' | 'statementSigningOldPublicKeys' | 'baseUrl' | 'dataDir'>, logger: Logger): StatementKeys {
  const privateKey = createPrivateKey(config.statementSigningKey ?? developmentKey(config, logger));
  const publicKey = createPublicKey(privateKey);
  const current = published(publicKey, 'current');
  const previous = config.statementSigningOldPublicKeys
    .map((pem) => published(createPublicKey(pem), 'previous'))
    .filter((key, index, all) => key.kid !== current.kid && all.findIndex((other) => other.kid === key.kid) === index);
  return {
    signer: { keyId: current.kid, sign: (message) => sign(null, message, privateKey).toString('base64') },
    published: { keys: [current, ...previous] },
  };
}

/** Refuses to start without STATEMENT_SIGNING_KEY where a development key would not do: BASE_URL not on this machine. */
export function requireStatementKeyOutsideLocal(config: Pick<Config, 'statementSigningKey' | 'baseUrl'>): void {
  if (config.statementSigningKey || !config.baseUrl || isLocalBaseUrl(config.baseUrl)) return;
  throw new StartupError(
    `STATEMENT_SIGNING_KEY is required when BASE_URL is not localhost (${config.baseUrl}): it signs sellers' statements and must be the same on every instance. ` +
      'Generate one with `openssl genpkey -algorithm ed25519` (docs/operations.md, "Rotating secrets").',
  );
}

function developmentKey(config: Pick<Config, 'statementSigningKey' | 'baseUrl' | 'dataDir'>, logger: Logger): string {
  requireStatementKeyOutsideLocal(config);
  const file = path.join(config.dataDir, DEVELOPMENT_KEY_FILE);
  const pem = readOrCreateKeyFile(file);
  logger.warn({ file }, 'STATEMENT_SIGNING_KEY is not set: statements are signed with a development key kept in DATA_DIR. Set it outside local use.');
  return pem;
}

/**
 * The key file, created when missing. Written aside then linked into place, which fails when another process got
 * there first: every process of the data directory ends up with the same key, never a half-written one.
 */
function readOrCreateKeyFile(file: string): string {
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  const draft = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(draft, pem, { mode: 0o600 });
  try {
    fs.linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(draft, { force: true });
  }
  return fs.readFileSync(file, 'utf8');
}
