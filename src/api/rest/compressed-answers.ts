import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';
import { isStreamRoute, REST_ROUTES } from './routes';

/*
 * Compressed answers of the facade (docs/decisions/0024-compressed-answers.md), mounted on /api/v1 only. There a caller
 * proves itself with a bearer key that a browser never sends on its own, and no answer holds a secret, so an attacker
 * cannot have a victim's browser ask again and again and measure the lengths (BREACH). The pages are compressed when
 * built (static-page.ts), the reference's fixed answers once (api-reference.ts); /graphql, the dashboard's exports and
 * the pages written per request are left as they are, for the reasons the decision gives.
 */

/** Below this an answer is sent as it is: one payment, every error envelope, the key check. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/** The event streams' paths (stream routes take no parameters): their answers are left alone from the start. */
const STREAM_PATHS = new Set(REST_ROUTES.filter(isStreamRoute).map((route) => route.path));

export function compressedAnswers(): RequestHandler {
  // Brotli at the library's quality 4 (fast enough per request) when asked for, else gzip, else deflate.
  const compress = compression({ threshold: COMPRESSION_THRESHOLD_BYTES, filter: worthCompressing });
  return (req, res, next) => {
    // The library wraps the answer's write and end even when it then compresses nothing, which drops the length Node
    // would have computed for a body sent with `end`: a client that does not ask, and a stream, are not handed to it,
    // so their answers stay byte for byte, headers included, what they were.
    if (!req.headers['accept-encoding'] || STREAM_PATHS.has(req.path)) return next();
    compress(req, res, next);
  };
}

/**
 * Whether an answer may be compressed, asked once its headers are set. The library adds `Vary: Accept-Encoding` to
 * every answer this lets through, small ones included: what is turned away here keeps its headers as they were.
 */
export function worthCompressing(req: Request, res: Response): boolean {
  // An event stream is written message by message; a compressor would hold each one back until it had enough.
  if (/^text\/event-stream\b/i.test(String(res.getHeader('Content-Type') ?? ''))) return false;
  const length = Number(res.getHeader('Content-Length'));
  if (Number.isFinite(length) && length < COMPRESSION_THRESHOLD_BYTES) return false;
  return compression.filter(req, res);
}
