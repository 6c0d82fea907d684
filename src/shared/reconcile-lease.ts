// The lease reconciliation takes on rows whose acquirer outcome is unknown (docs/checkout.md, "Reconciliation"): the
// owners of the leased tables run the statements, reconciliation decides when and what follows.

/** A row leased for one look-up, with the time its age counts from (past RECONCILE_GIVE_UP_MS of it, admins are asked). */
export interface Leased {
  id: string;
  since: Date;
}

/** How a sweep leases: for how long, rows stuck for how long, and at most how many. */
export interface LeaseTerms {
  leaseSeconds: number;
  stuckSeconds: number;
  batch: number;
}
