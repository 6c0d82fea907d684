import { once } from 'node:events';
import express, { type Response } from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import {
  eachBalanceLinePage,
  eachStatementLinePage,
  monthlyStatement,
  statementMonthBounds,
  type BalanceLine,
  writeSignedStatement,
  type StatementSigner,
} from '../ledger';
import { eachPaymentExportPage, PAYMENT_EXPORT_COLUMNS, type PaymentSearch, PaymentStatus } from '../payments';
import { eachWithdrawalExportPage, WITHDRAWAL_EXPORT_COLUMNS } from '../withdrawals';
import { locals } from '../../platform/http/request-context';
import { sessionTokenOf, type CookieMode } from '../../platform/http/session-cookies';
import { sendError } from '../../platform/http/envelope';
import { csvRecords, dollars, isoTime, type CsvCell } from '../../shared/csv';
import { DomainError, domainError } from '../../shared/errors';
import { liveSession, type SessionSettings } from '../identity';

export const EXPORTS_PATH = '/dashboard/exports';

export interface DashboardExportSettings {
  sessions: SessionSettings;
  cookies: CookieMode;
  logger: Logger;
  /** Signs the JSON statements (`statement-YYYY-MM.json`). */
  statementSigner: StatementSigner;
}

const BALANCE_COLUMNS = ['id', 'created_at', 'type', 'amount', 'paid_out', 'balance_after', 'payment_id', 'withdrawal_id', 'refund_id'] as const;
const STATEMENT_COLUMNS = ['created_at', 'type', 'amount', 'paid_out', 'balance_after', 'entry_id', 'payment_id', 'withdrawal_id', 'refund_id'] as const;

/** Something the request asked for that makes no export: answered before the first byte of the file. */
class ExportRefused extends Error {
  constructor(readonly answer: DomainError) {
    super(answer.message);
  }
}

/**
 * The dashboard's CSV downloads (docs/dashboard.md, "Exports"): payments (with the Payments screen's filters),
 * balance transactions, withdrawals, and a month's statement (also as signed JSON, "Signed statements"), for the
 * signed-in seller, every shop past and present. Plain GETs that change nothing, so they carry no CSRF header: the
 * session cookie is SameSite=Strict (a cross-site request does not bring it) and a request a browser marks
 * cross-site is refused anyway. Each file is streamed: read from the database one keyset page at a time and
 * written as it goes, waiting for the client to take each page (constant memory, whatever the history's length).
 */
export function dashboardExportsRouter(settings: DashboardExportSettings): express.Router {
  const router = express.Router();
  router.get(`${EXPORTS_PATH}/:file`, async (req, res, next) => {
    try {
      const fetchSite = req.get('sec-fetch-site');
      if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') return sendError(res, domainError('FORBIDDEN'));
      const em = locals(res).em;
      const token = sessionTokenOf(req, 'seller', settings.cookies);
      const live = token ? await liveSession(em, token, settings.sessions) : null;
      if (!live || !live.sellerActive) {
        res.setHeader('Cache-Control', 'no-store');
        if (req.accepts(['json', 'html']) === 'html') return res.redirect(303, `/dashboard/login?next=${encodeURIComponent(req.originalUrl)}`);
        return sendError(res, domainError('UNAUTHENTICATED'));
      }
      const signedMonth = /^statement-(\d{4}-\d{2})\.json$/.exec(req.params.file)?.[1];
      if (signedMonth) {
        // Refused before the file starts: the ledger's rule for every statement (MONTH_INVALID, MONTH_NOT_BEGUN, MONTH_BEFORE_ACCOUNT).
        await statementMonthBounds(em, live.sellerId, signedMonth);
        const name = `statement-${signedMonth}.json`;
        await streamText(res, name, 'application/json; charset=utf-8', '', (write) => writeSignedStatement(em, live.sellerId, signedMonth, settings.statementSigner, write));
        settings.logger.info({ requestId: locals(res).requestId, sellerId: live.sellerId, export: name }, 'dashboard export written');
        return;
      }
      const file = exportOf(req.params.file, req.query as Record<string, unknown>);
      if (!file) return sendError(res, domainError('ROUTE_NOT_FOUND'));
      await file.check?.(em, live.sellerId);
      await stream(res, file.name, file.columns, (write) => file.run(em, live.sellerId, write));
      settings.logger.info({ requestId: locals(res).requestId, sellerId: live.sellerId, export: file.name }, 'dashboard export written');
    } catch (error) {
      if (error instanceof ExportRefused) return sendError(res, error.answer);
      if (error instanceof DomainError && !res.headersSent) return sendError(res, error);
      if (res.headersSent) {
        // Part of the file is out: end the connection so the download fails instead of looking complete.
        if (!(error instanceof ClientGone)) settings.logger.error({ requestId: locals(res).requestId, err: error }, 'dashboard export failed midway');
        res.destroy();
        return;
      }
      next(error);
    }
  });
  return router;
}

type Write = (rows: CsvCell[][]) => Promise<void>;

interface ExportFile {
  name: string;
  columns: readonly string[];
  /** Refuses the request before the file starts (a statement's month). */
  check?(em: EntityManager, sellerId: string): Promise<unknown>;
  run(em: EntityManager, sellerId: string, write: Write): Promise<void>;
}

function exportOf(file: string, query: Record<string, unknown>): ExportFile | null {
  const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : null);
  const today = new Date().toISOString().slice(0, 10);
  if (file === 'payments.csv') {
    const status = text('status')?.toLowerCase() || null;
    if (status && !(Object.values(PaymentStatus) as string[]).includes(status)) throw new ExportRefused(domainError('STATUS_FILTER_INVALID', Object.values(PaymentStatus).join(', ')));
    const search: PaymentSearch = {
      status: status as PaymentStatus | null,
      text: text('text'),
      createdFrom: dateOf(text('createdFrom')),
      createdTo: dateOf(text('createdTo')),
    };
    return { name: `payments-${today}.csv`, columns: PAYMENT_EXPORT_COLUMNS, run: (em, seller, write) => eachPaymentExportPage(em, seller, search, write) };
  }
  if (file === 'balance-transactions.csv') {
    const kinds = (text('types') ?? '').split(',').map((k) => k.trim()).filter(Boolean);
    const filter = { from: dateOf(text('createdFrom')), to: dateOf(text('createdTo')), kinds };
    return {
      name: `balance-transactions-${today}.csv`,
      columns: BALANCE_COLUMNS,
      run: (em, seller, write) =>
        eachBalanceLinePage(em, seller, filter, (lines) => write(lines.map((l) => [l.id, isoTime(l.createdAt), l.kind, dollars(l.amount), l.paidOut === null ? '' : dollars(l.paidOut), dollars(l.runningBalance), l.paymentId, l.withdrawalId, l.refundId]))),
    };
  }
  if (file === 'withdrawals.csv') return { name: `withdrawals-${today}.csv`, columns: WITHDRAWAL_EXPORT_COLUMNS, run: (em, seller, write) => eachWithdrawalExportPage(em, seller, write) };
  const month = /^statement-(\d{4}-\d{2})\.csv$/.exec(file)?.[1];
  if (month) {
    return {
      name: `statement-${month}.csv`,
      columns: STATEMENT_COLUMNS,
      check: (em, seller) => statementMonthBounds(em, seller, month),
      run: async (em, seller, write) => {
        const statement = await monthlyStatement(em, seller, month);
        await write([[isoTime(statement.from), 'opening_balance', '', '', dollars(statement.opening), '', '', '', '']]);
        await eachStatementLinePage(em, seller, statement, (lines) => write(lines.map(statementRow)));
        await write([[isoTime(statement.to), 'closing_balance', '', '', dollars(statement.closing), '', '', '', '']]);
      },
    };
  }
  return null;
}

const statementRow = (l: BalanceLine): CsvCell[] => [isoTime(l.createdAt), l.kind, dollars(l.amount), l.paidOut === null ? '' : dollars(l.paidOut), dollars(l.runningBalance), l.id, l.paymentId, l.withdrawalId, l.refundId];

/** A filter's date (an ISO 8601 time, as the screens send them); anything else refuses the export. */
function dateOf(value: string | null): Date | null {
  if (!value) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new ExportRefused(domainError('DATE_RANGE_INVALID'));
  return date;
}

class ClientGone extends Error {}

/**
 * Writes the file: the headers and the column names once the first page is read (so a refusal of the filter is
 * still a clean error answer), then each page as it comes, waiting for the socket to drain. A client that goes
 * away stops the reading.
 */
function stream(res: Response, name: string, columns: readonly string[], run: (write: Write) => Promise<void>): Promise<void> {
  const header = csvRecords([columns as unknown as CsvCell[]]);
  return streamText(res, name, 'text/csv; charset=utf-8; header=present', header, (write) => run((rows) => write(csvRecords(rows))));
}

/** The same for any text file: `first` opens it once the first piece is ready. */
async function streamText(res: Response, name: string, contentType: string, first: string, run: (write: (text: string) => Promise<void>) => Promise<void>): Promise<void> {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    res.status(200);
    res.setHeader('Content-Type', contentType);
    res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
    res.setHeader('Cache-Control', 'no-store');
    if (first) res.write(first);
  };
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  await run(async (text) => {
    start();
    if (gone.signal.aborted) throw new ClientGone();
    if (!res.write(text)) {
      try {
        await once(res, 'drain', { signal: gone.signal });
      } catch {
        throw new ClientGone();
      }
    }
  });
  start();
  res.end();
}
