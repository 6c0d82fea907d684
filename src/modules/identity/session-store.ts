import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccountKind } from './credentials';

export interface SessionSummary {
  id: string;
  createdAt: Date;
  lastSeenAt: Date;
  userAgent: string | null;
}

// The SQL of sessions (src/modules/identity/sessions.ts has the rules): seller sessions (dashboard) and admin
// sessions (/admin) follow the same rules in two tables.

const TABLE: Record<AccountKind, { table: string; owner: string }> = {
  seller: { table: 'seller_sessions', owner: 'seller_id' },
  admin: { table: 'admin_sessions', owner: 'admin_id' },
};

/** A new admin session, created and last seen now; only the token's hash is stored. */
export async function insertAdminSession(em: EntityManager, id: string, adminId: string, tokenHash: string, now: Date, userAgent: string | null): Promise<void> {
  await em.execute(`insert into "admin_sessions" ("id", "admin_id", "token_hash", "created_at", "last_seen_at", "user_agent") values (?, ?, ?, ?, ?, ?)`, [
    id,
    adminId,
    tokenHash,
    now,
    now,
    userAgent,
  ]);
}

/**
 * Moves the last-seen time of the session of `tokenHash` to now, when it is not revoked, was seen after
 * `seenAfter` and created after `createdAfter`: one UPDATE, so concurrent requests cannot resurrect an expired
 * one. Answers the session's id and its owner's.
 */
export async function touchUnexpiredSession(
  em: EntityManager,
  kind: AccountKind,
  now: Date,
  tokenHash: string,
  seenAfter: Date,
  createdAfter: Date,
): Promise<{ id: string; owner: string } | null> {
  const { table, owner } = TABLE[kind];
  const rows: { id: string; owner: string }[] = await em.execute(
    `update "${table}" set "last_seen_at" = ?
      where "token_hash" = ? and "revoked_at" is null and "last_seen_at" > ? and "created_at" > ?
      returning "id", "${owner}" as "owner"`,
    [now, tokenHash, seenAfter, createdAfter],
  );
  return rows[0] ? { id: rows[0].id, owner: rows[0].owner } : null;
}

/** Revokes the session, unless it was already. */
export async function revokeSession(em: EntityManager, kind: AccountKind, now: Date, sessionId: string): Promise<void> {
  await em.execute(`update "${TABLE[kind].table}" set "revoked_at" = ? where "id" = ? and "revoked_at" is null`, [now, sessionId]);
}

/** Revokes every live session of the account but `keepId` (`''` keeps none); answers how many it revoked. */
export async function revokeOtherSessions(em: EntityManager, kind: AccountKind, now: Date, accountId: string, keepId: string): Promise<number> {
  const { table, owner } = TABLE[kind];
  const ended = await em.execute(`update "${table}" set "revoked_at" = ? where "${owner}" = ? and "revoked_at" is null and "id" <> ? returning "id"`, [
    now,
    accountId,
    keepId,
  ]);
  return ended.length;
}

/** Revokes the session only when the account owns it and it is live: false otherwise. */
export async function revokeOwnedSession(em: EntityManager, kind: AccountKind, now: Date, sessionId: string, accountId: string): Promise<boolean> {
  const { table, owner } = TABLE[kind];
  const ended = await em.execute(`update "${table}" set "revoked_at" = ? where "id" = ? and "${owner}" = ? and "revoked_at" is null returning "id"`, [
    now,
    sessionId,
    accountId,
  ]);
  return ended.length === 1;
}

/** The account's unrevoked sessions seen after `seenAfter` and created after `createdAfter`, most recently used first. */
export async function selectActiveSessions(em: EntityManager, kind: AccountKind, accountId: string, seenAfter: Date, createdAfter: Date): Promise<SessionSummary[]> {
  const { table, owner } = TABLE[kind];
  const rows: { id: string; created_at: Date | string; last_seen_at: Date | string; user_agent: string | null }[] = await em.execute(
    `select "id", "created_at", "last_seen_at", "user_agent" from "${table}"
      where "${owner}" = ? and "revoked_at" is null and "last_seen_at" > ? and "created_at" > ?
      order by "last_seen_at" desc, "id"`,
    [accountId, seenAfter, createdAfter],
  );
  // Raw rows carry timestamps as PostgreSQL's text (MikroORM's type parsers): made Dates here.
  return rows.map((row) => ({ id: row.id, createdAt: new Date(row.created_at), lastSeenAt: new Date(row.last_seen_at), userAgent: row.user_agent }));
}
