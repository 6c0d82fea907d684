import type { SqlPart } from '../../platform/lifecycle/move-statement';
import { completionPostings, newJournalId } from './ledger.service';

const postingRows = (count: number) => Array.from({ length: count }, () => '(?::text, ?::text, ?::bigint, ?::boolean, ?::int)').join(', ');

/**
 * A payment completion's journal as a part of the card completion's one statement (checkout/completion-statement.ts,
 * docs/decisions/0003-completion-statement.md): the declared journal's entries (four; a live test's two, without fee)
 * in one INSERT, only for a moved row. It reads the statement's `moved` payment and its `standing` (the seller).
 */
export function completionJournalPart(journal: string, amount: number, at: Date): SqlPart {
  const postings = completionPostings(journal, amount);
  return {
    sql: `insert into "ledger_entries" ("journal_id", "account", "seller_id", "payment_id", "kind", "amount", "created_at")
          select ?::text, v.account, case when v.to_seller then s.seller_id end, m."id", v.kind, v.amount, ?::timestamptz
            from moved m cross join standing s
           cross join (values ${postingRows(postings.length)}) as v(account, kind, amount, to_seller, n)
           order by v.n`,
    params: [newJournalId(), at, ...postings.flatMap((p, n) => [p.account, p.kind, p.amount, p.toSeller, n])],
  };
}
