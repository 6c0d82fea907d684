import express from 'express';
import { STATEMENT_KEYS_PATH, type StatementKeys } from './statement-keys';

/**
 * The public statement keys (docs/dashboard.md, "Signed statements"): the current signing key and earlier ones,
 * public halves only, for anyone to fetch (any origin) and keep beside the statements they verify. Cached briefly,
 * so a new key after a rotation is seen within minutes.
 */
export function statementKeysRouter(keys: StatementKeys): express.Router {
  const body = `${JSON.stringify(keys.published, null, 2)}\n`;
  const router = express.Router();
  router.get(STATEMENT_KEYS_PATH, (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.type('application/json; charset=utf-8').send(body);
  });
  return router;
}
