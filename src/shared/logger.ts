import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Structured JSON logs. Request bodies and headers are never logged, so card numbers, security codes
 * and API keys cannot reach the logs through them; the redact list is a second line of defence.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'payments' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['authorization', 'apiKey', 'token', 'webhookSecret', 'cardNumber', 'securityCode'], censor: '[redacted]' },
    },
    destination,
  );
}

export type { Logger };
