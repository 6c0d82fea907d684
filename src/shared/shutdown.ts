import type { Logger } from './logger';

/**
 * How the service and the worker end: the first SIGTERM or SIGINT logs `message`, runs `stop` (drain, close)
 * and exits 0; a second signal while stopping is ignored, so an impatient Ctrl-C cannot cut the drain short.
 */
export function stopOnSignals(logger: Logger, message: string, stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, message);
    await stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
