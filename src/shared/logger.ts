import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Structured JSON logs. Request bodies and headers are never logged, so card numbers, security codes
 * and API keys cannot reach the logs through them; the redact list is a second line of defence.
 */
export function createLogger(level: string, destination: DestinationStream = bufferedStdout()): Logger {
  return pino(
    {
      level,
      base: { service: 'payments', pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['authorization', 'apiKey', 'token', 'webhookSecret', 'cardNumber', 'securityCode'], censor: '[redacted]' },
    },
    destination,
  );
}

export type { Logger };

/**
 * Standard output written in 4 KB batches off the request path: a synchronous write per log line was a
 * measurable share of the CPU under load (docs/performance.md). Batches are flushed at least every second
 * and on shutdown (`logger.flush()`), so at most a second of lines is at risk if the process is killed.
 */
function bufferedStdout(): DestinationStream {
  const stream = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => stream.flush(), 1000).unref();
  return stream;
}
