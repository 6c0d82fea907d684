import { Entity, Enum, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { prefixedId } from '../../shared/random-id';
import { AccountStatus } from './account-status';

export enum SellerStatus {
  ACTIVE = 'active',
  INACTIVE = 'inactive',
  SUSPENDED = 'suspended',
}

/** A seller account. It owns at most one live shop (spec: one shop per seller account). */
@Entity({ tableName: 'sellers' })
export class Seller {
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('sel', 16);

  @Property({ type: 'string', unique: true })
  email!: string;

  @Enum({ items: () => SellerStatus })
  status: Opt<SellerStatus> = SellerStatus.ACTIVE;

  @Enum({ items: () => AccountStatus })
  accountStatus: Opt<AccountStatus> = AccountStatus.NEW;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  /** scrypt hash (src/modules/identity/password.ts); null for sellers created by an operator, who cannot sign in. */
  @Property({ type: 'text', nullable: true, hidden: true })
  passwordHash: string | null = null;

  /** When the seller proved the e-mail address; withdrawals wait for it. Operators vouch for theirs. */
  @Property({ type: 'datetime', nullable: true })
  emailVerifiedAt: Date | null = new Date();

  /** Failed sign-ins since the last success or lockout (PCI DSS 8.3.4). */
  @Property({ type: 'integer' })
  failedSignIns: Opt<number> = 0;

  @Property({ type: 'datetime', nullable: true })
  lockedUntil: Date | null = null;

  /** When the unverified account was last taken over from its reset link (reclaimAccount); its earlier shops' webhook settings are never kept. */
  @Property({ type: 'datetime', nullable: true })
  reclaimedAt: Date | null = null;

  /** Where withdrawals are paid (src/modules/withdrawals/payout-account.ts): shown only masked on GraphQL. */
  @Property({ type: 'text', nullable: true, hidden: true })
  payoutAccountHolder: string | null = null;

  /** Sealed with ACCOUNT_SECRETS_KEY (src/modules/identity/secret-box.ts); finance opens it for the bank transfer. */
  @Property({ type: 'text', nullable: true, hidden: true })
  payoutAccountNumber: string | null = null;

  /** The number's last four characters: all the dashboard and most admins ever see of it. */
  @Property({ type: 'text', nullable: true, hidden: true })
  payoutAccountLast4: string | null = null;
}
