import { DomainError } from '../../src/shared/errors';

/** The catalogue error a rule refuses with, or undefined when it accepts; anything that is not ours is rethrown. */
function refusalOf(run: () => unknown): DomainError | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  return undefined;
}

/** The catalogue code a rule refuses with, or 'ok' when it accepts. */
export function codeOf(run: () => unknown): string {
  return refusalOf(run)?.code ?? 'ok';
}

/** The message a rule refuses with, or 'no error' when it accepts. */
export function messageOf(run: () => unknown): string {
  return refusalOf(run)?.message ?? 'no error';
}

/** The catalogue error an async call is refused with; throws when it succeeds or fails with anything else. */
export async function refusedWith(call: Promise<unknown>): Promise<DomainError> {
  const outcome = await call.then(
    () => ({ error: undefined }),
    (error: unknown) => ({ error }),
  );
  if (outcome.error instanceof DomainError) return outcome.error;
  throw new Error(outcome.error === undefined ? 'expected a refusal, but the call succeeded' : `expected a refusal, got ${String(outcome.error)}`);
}
