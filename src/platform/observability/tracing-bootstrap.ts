import { tracingSettings } from '../../shared/config';

/**
 * Imported by the entry points (main.ts, worker.ts) before anything else they load, because OpenTelemetry's
 * instrumentations patch http, express, graphql, pg and ioredis as they are first required. With tracing off
 * (the default: no exporter named, docs/operations.md "Tracing") it loads nothing more, so the process runs
 * exactly as without it. A setting it cannot read is left to loadConfig, which refuses it in one line.
 */
function settingsOrNull() {
  try {
    return tracingSettings(process.env);
  } catch {
    return null;
  }
}

const settings = settingsOrNull();
if (settings?.enabled) {
  (require('./tracing-sdk') as typeof import('./tracing-sdk')).startTracing(settings);
}
