import pino, { type DestinationStream, type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';
import type { Config } from './config';

/**
 * Structured logs. Request bodies and headers are never logged, so card numbers, security codes and API
 * keys cannot reach the logs through them; the redact list is a second line of defence.
 */
export function createLogger(level: string, destination: DestinationStream = bufferedStream(1), mixin?: () => object): Logger {
  return pino(
    {
      level,
      // With tracing on: the trace and span ids of the request or job the line belongs to (docs/operations.md, "Tracing").
      ...(mixin ? { mixin } : {}),
      base: { service: 'payments', pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['authorization', 'apiKey', 'token', 'webhookSecret', 'cardNumber', 'securityCode'], censor: '[redacted]' },
    },
    destination,
  );
}

/**
 * The logger of an entry point, writing to standard output (the service) or standard error (the CLI, whose
 * standard output is its JSON answer). Readable lines for people at a terminal or with LOG_FORMAT=pretty;
 * JSON lines otherwise, for log collectors.
 */
export function processLogger(config: Pick<Config, 'logLevel' | 'logFormat'>, fd: 1 | 2 = 1, mixin?: () => object): Logger {
  const terminal = Boolean(fd === 1 ? process.stdout.isTTY : process.stderr.isTTY);
  const pretty = config.logFormat === 'pretty' || (config.logFormat === 'auto' && terminal);
  return createLogger(config.logLevel, pretty ? prettyStream(fd, terminal) : bufferedStream(fd), mixin);
}

/** `14:02:07.120 INFO: payment created  paymentId: "pay_…"`: level and message first, the ids after. */
function prettyStream(fd: 1 | 2, colorize: boolean): DestinationStream {
  // Loaded for a terminal or LOG_FORMAT=pretty only: log collectors get JSON and never need it.
  const pretty = require('pino-pretty') as typeof PinoPretty;
  return pretty({ destination: fd, sync: true, colorize, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' });
}

export type { Logger };

/**
 * Written in 4 KB batches off the request path: a synchronous write per log line was a measurable share of
 * the CPU under load (docs/decisions/0012-hot-paths.md). Batches are flushed at least every second and on shutdown
 * (`logger.flush()`), so at most a second of lines is at risk if the process is killed.
 */
function bufferedStream(fd: 1 | 2): DestinationStream {
  const stream = pino.destination({ dest: fd, sync: false, minLength: 4096 });
  setInterval(() => stream.flush(), 1000).unref();
  return stream;
}
