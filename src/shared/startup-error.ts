/** A reason not to start that one line explains (a taken port, a busy data directory, a missing database): shown without a stack. */
export class StartupError extends Error {}

/** How every entry point ends on a failure: a known refusal is one line on standard error, anything else keeps its stack. */
export function exitOnStartupFailure(error: unknown): never {
  process.stderr.write(`${error instanceof StartupError ? error.message : ((error as Error)?.stack ?? String(error))}\n`);
  process.exit(1);
}
