import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261123000000_initial } from './Migration20261123000000_initial';
import { Migration20261123010000_checkout_ledger_outbox } from './Migration20261123010000_checkout_ledger_outbox';

/** Every migration, in order. Listed explicitly so the same list runs from src/ and from dist/. */
export const MIGRATIONS: MigrationObject[] = [
  { name: 'Migration20261123000000_initial', class: Migration20261123000000_initial },
  { name: 'Migration20261123010000_checkout_ledger_outbox', class: Migration20261123010000_checkout_ledger_outbox },
];
