/** How the facade's event streams (sse-stream.ts) run, and what the route table tells sellers of them (routes.ts). */
export const STREAM_LIMITS = {
  /** Between two runs of the operation. */
  pollMs: 1000,
  /** A comment line after this long without a message. */
  heartbeatMs: 15_000,
  /** The stream ends after this long; the client reconnects. */
  maxDurationMs: 30 * 60_000,
  /** Open at once per shop, in one process. */
  perShop: 5,
  /** What a client is told to wait before reconnecting (`retry:`). */
  reconnectMs: 2000,
};
