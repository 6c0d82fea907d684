/** One operation the simulated acquirer carried out, by our reference (payment id or refund id). */
export interface SimulatedOperation {
  kind: 'authorization' | 'refund';
  ourReference: string;
  /** `approved`, a decline code, or `refunded`. */
  outcome: string;
  acquirerReference: string | null;
  /** Charged with an `answer-lost` test card (TEST_CARDS): its answers (and its refunds' answers) are lost. */
  losesAnswers: boolean;
  /** Charged with the refund-failure test card: each refund is carried out, then the card scheme rejects it. */
  refundsFail?: boolean;
}

/** Where the simulator keeps what it did, so that its look-ups can answer. The first record of an operation stands. */
export interface SimulatorRecords {
  keep(operation: SimulatedOperation): Promise<void>;
  find(kind: SimulatedOperation['kind'], ourReference: string): Promise<SimulatedOperation | null>;
}

/** Lost with the process: enough for unit tests, not for a service that may be restarted or scaled out. */
export function memoryRecords(): SimulatorRecords {
  const kept = new Map<string, SimulatedOperation>();
  return {
    async keep(operation) {
      const key = `${operation.kind}:${operation.ourReference}`;
      if (!kept.has(key)) kept.set(key, operation);
    },
    async find(kind, ourReference) {
      return kept.get(`${kind}:${ourReference}`) ?? null;
    },
  };
}

/** Runs one SQL statement with positional `?` parameters, outside any transaction, and returns its rows. */
export type RunSql = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * In the simulator's own table (`simulated_acquirer_operations`), which nothing else reads: it survives a
 * SIGKILL and a restart, and every instance sees it, like a real acquirer's records.
 */
export function sqlRecords(run: RunSql): SimulatorRecords {
  return {
    async keep(o) {
      await run(
        `insert into "simulated_acquirer_operations" ("kind", "our_reference", "outcome", "acquirer_reference", "loses_answers", "refunds_fail")
          values (?, ?, ?, ?, ?, ?) on conflict do nothing`,
        [o.kind, o.ourReference, o.outcome, o.acquirerReference, o.losesAnswers, o.refundsFail ?? false],
      );
    },
    async find(kind, ourReference) {
      const [row] = await run(
        `select "outcome", "acquirer_reference", "loses_answers", "refunds_fail" from "simulated_acquirer_operations" where "kind" = ? and "our_reference" = ?`,
        [kind, ourReference],
      );
      if (!row) return null;
      return { kind, ourReference, outcome: String(row.outcome), acquirerReference: (row.acquirer_reference as string | null) ?? null, losesAnswers: Boolean(row.loses_answers), refundsFail: Boolean(row.refunds_fail) };
    },
  };
}
