import { Entity, type Opt, PrimaryKey, Property, ManyToOne } from '@mikro-orm/core';
import { prefixedId } from '../../shared/random-id';
import { Seller } from './seller.entity';

/** A dashboard sign-in. The cookie carries the session token; only its SHA-256 hash is stored. */
@Entity({ tableName: 'seller_sessions' })
export class SellerSession {
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('ses', 16);

  @ManyToOne(() => Seller)
  seller!: Seller;

  @Property({ type: 'text', unique: true, hidden: true })
  tokenHash!: string;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime' })
  lastSeenAt: Opt<Date> = new Date();

  @Property({ type: 'datetime', nullable: true })
  revokedAt: Date | null = null;

  /** The browser's User-Agent at sign-in (cut to 300 characters), for the list of active sessions. */
  @Property({ type: 'text', nullable: true })
  userAgent: string | null = null;
}

/** A single-use e-mail verification link's token, stored hashed, expiring. */
@Entity({ tableName: 'email_verifications' })
export class EmailVerification {
  @PrimaryKey({ type: 'text' })
  tokenHash!: string;

  @ManyToOne(() => Seller)
  seller!: Seller;

  @Property({ type: 'datetime' })
  expiresAt!: Date;

  @Property({ type: 'datetime', nullable: true })
  usedAt: Date | null = null;
}
