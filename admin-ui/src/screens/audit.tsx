import { endOfDay, money, startOfDay, when } from '../format';
import type { Params } from '../route';
import { FilterField, FilterForm, Link, Loading, NoRows, Pager, ScreenTitle, SortHeader, Table, useOperation, type Pagination } from '../ui';

interface AuditItem {
  createdAt: string;
  actor: string;
  adminId: string | null;
  credentialKind: string | null;
  action: string;
  targetType: string;
  targetId: string;
  reason: string | null;
  details: Record<string, unknown>;
}

/** Where a target of an entry is shown in the back office, when it has a page. */
function targetLink(type: string, id: string): Params | null {
  if (type === 'payment') return { view: 'payment', id };
  if (type === 'refund') return { view: 'refund', id };
  if (type === 'shop') return { view: 'shop', id };
  return null;
}

/** One detail's value as words: amounts in dollars, lists and objects spelled out. */
function valueText(key: string, value: unknown): string {
  if (typeof value === 'number' && /amount/i.test(key)) return money(value);
  if (Array.isArray(value)) return value.map((item) => valueText('', item)).join(', ') || 'none';
  if (typeof value === 'object' && value !== null) return Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k} ${valueText(k, v)}`).join(', ');
  return String(value);
}

/** `amount: $17.00 · shopId: shop_…`: an entry's details, readable, never raw JSON. */
function detailsText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([key, value]) => `${key}: ${valueText(key, value)}`)
    .join(' · ');
}

/** The audit log: every admin action, newest first (or oldest), by admin, action, target and dates. */
export function AuditScreen({ params }: { params: Params }) {
  const loaded = useOperation<{ auditLog: { items: AuditItem[]; pagination: Pagination } }>('AuditLog', {
    actor: params.admin || null,
    action: params.action || null,
    targetId: params.target || null,
    createdFrom: startOfDay(params.from ?? ''),
    createdTo: endOfDay(params.to ?? ''),
    page: Number(params.page) || 1,
    limit: 25,
    order: params.order || null,
  });
  return (
    <>
      <ScreenTitle>Audit log</ScreenTitle>
      <FilterForm params={params} fields={['admin', 'action', 'target', 'from', 'to']} label="Filter the audit log">
        <FilterField name="admin" label="Admin e-mail" params={params} type="search" hint="Or cli, for the operations CLI" />
        <FilterField name="action" label="Action" params={params} placeholder="refund.approved" />
        <FilterField name="target" label="Target ID" params={params} placeholder="pay_…, ref_…, sel_…" />
        <FilterField name="from" label="From" params={params} type="date" />
        <FilterField name="to" label="Until" params={params} type="date" hint="The day itself included (UTC)" />
      </FilterForm>
      <Loading loaded={loaded} what="the audit log">
        {({ auditLog }) => (
          <>
            <Table caption={`Audit log, ${params.order === 'OLDEST_FIRST' ? 'oldest' : 'newest'} first`}>
              <thead>
                <tr>
                  <SortHeader label="When" params={params} first="NEWEST_FIRST" second="OLDEST_FIRST" isDefault="first" />
                  <th scope="col">Admin</th>
                  <th scope="col">Action</th>
                  <th scope="col">Target</th>
                  <th scope="col">Reason and details</th>
                </tr>
              </thead>
              <tbody>
                {auditLog.items.length === 0 && <NoRows columns={5}>No entry matches these filters.</NoRows>}
                {auditLog.items.map((entry, index) => {
                  const link = targetLink(entry.targetType, entry.targetId);
                  return (
                    <tr key={index}>
                      <td className="when">{when(entry.createdAt)}</td>
                      <td>
                        <Link to={{ ...params, admin: entry.actor, page: '' }} aria-label={`Only actions of ${entry.actor}`}>
                          {entry.actor}
                        </Link>
                        {entry.credentialKind && <div className="quiet small">with a {entry.credentialKind === 'session' ? 'console session' : 'token'}</div>}
                      </td>
                      <td>
                        <Link to={{ ...params, action: entry.action, page: '' }} aria-label={`Only ${entry.action} actions`}>
                          {entry.action}
                        </Link>
                      </td>
                      <td>
                        <span className="quiet">{entry.targetType}</span> {link ? <Link to={link}>{entry.targetId}</Link> : entry.targetId}
                      </td>
                      <td>
                        {entry.reason && <div>“{entry.reason}”</div>}
                        <div className="quiet small">{detailsText(entry.details)}</div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </Table>
            <Pager pagination={auditLog.pagination} params={params} noun="entries" />
          </>
        )}
      </Loading>
    </>
  );
}
