import { DomainError } from '../../src/shared/errors';

/** The catalogue code a rule refuses with, or 'ok' when it accepts; anything that is not ours is rethrown. */
export function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  return 'ok';
}
