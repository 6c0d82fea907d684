import { useState } from 'react';
import { runOperation } from '../api';
import { day, label, money, when } from '../format';
import { may } from '../permissions';
import type { Params } from '../route';
import { Badge, ConfirmDialog, Done, Facts, FilterField, FilterForm, FilterSelect, Link, Loading, NoRows, Pager, ScreenTitle, SortHeader, Table, useMe, useOperation, type DialogField, type Pagination, type Tone } from '../ui';

interface ListedShop {
  id: string;
  name: string;
  status: string;
  createdAt: string;
  deletedAt: string | null;
  seller: { id: string; email: string; status: string; accountStatus: string; paymentMaximum: number | null };
  balance: { available: number | string; pendingWithdrawals: number | string };
}

const statusTone = (status: string): Tone => (status === 'ACTIVE' ? 'good' : status === 'SUSPENDED' || status === 'INACTIVE' ? 'bad' : 'neutral');

export const maximumText = (maximum: number | null) => (maximum === null ? 'No maximum' : `${money(maximum)} per payment`);

const SHOP_ORDER_WORDS: Record<string, string> = { OLDEST_FIRST: 'oldest first', NAME_A_TO_Z: 'by name, A to Z', NAME_Z_TO_A: 'by name, Z to A' };

/** Sellers and their shops: search by shop name or seller e-mail, by status; sorted by name or opening time. */
export function ShopListScreen({ params }: { params: Params }) {
  const loaded = useOperation<{ shops: { items: ListedShop[]; pagination: Pagination } }>('Shops', {
    search: params.search || null,
    status: params.status || null,
    includeDeleted: params.deleted === 'yes' ? true : null,
    page: Number(params.page) || 1,
    limit: 20,
    order: params.order || null,
  });
  return (
    <>
      <ScreenTitle>Sellers and shops</ScreenTitle>
      <FilterForm params={params} fields={['search', 'status', 'deleted']} label="Search sellers and shops">
        <FilterField name="search" label="Shop name or seller e-mail" params={params} type="search" />
        <FilterSelect
          name="status"
          label="Shop status"
          params={params}
          options={[
            ['', 'Any status'],
            ['ACTIVE', 'Active'],
            ['INACTIVE', 'Deactivated'],
          ]}
        />
        <FilterSelect
          name="deleted"
          label="Deleted shops"
          params={params}
          options={[
            ['', 'Leave out'],
            ['yes', 'Include'],
          ]}
        />
      </FilterForm>
      <Loading loaded={loaded} what="shops">
        {({ shops }) => (
          <>
            <Table caption={`Shops, ${SHOP_ORDER_WORDS[params.order] ?? 'newest first'}`}>
              <thead>
                <tr>
                  <SortHeader label="Shop" params={params} first="NAME_A_TO_Z" second="NAME_Z_TO_A" />
                  <SortHeader label="Opened" params={params} first="NEWEST_FIRST" second="OLDEST_FIRST" isDefault="first" />
                  <th scope="col">Seller</th>
                  <th scope="col">Status</th>
                  <th scope="col">Account status</th>
                  <th scope="col" className="number">
                    Available
                  </th>
                </tr>
              </thead>
              <tbody>
                {shops.items.length === 0 && <NoRows columns={6}>No shop matches this search.</NoRows>}
                {shops.items.map((shop) => (
                  <tr key={shop.id}>
                    <td>
                      <Link to={{ view: 'shop', id: shop.id }}>{shop.name}</Link>
                      <div className="quiet small">{shop.id}</div>
                    </td>
                    <td className="when">
                      <time dateTime={shop.createdAt} title={when(shop.createdAt)}>
                        {day(shop.createdAt)}
                      </time>
                    </td>
                    <td>{shop.seller.email}</td>
                    <td>
                      <div>
                        Shop {shop.deletedAt ? <Badge tone="bad">Deleted</Badge> : <Badge tone={statusTone(shop.status)}>{label(shop.status === 'INACTIVE' ? 'deactivated' : shop.status)}</Badge>}
                      </div>
                      <div>
                        Seller <Badge tone={statusTone(shop.seller.status)}>{label(shop.seller.status)}</Badge>
                      </div>
                    </td>
                    <td>
                      {label(shop.seller.accountStatus)}
                      <div className="quiet small">{maximumText(shop.seller.paymentMaximum)}</div>
                    </td>
                    <td className="number">{money(shop.balance.available)}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
            <Pager pagination={shops.pagination} params={params} noun="shops" />
          </>
        )}
      </Loading>
    </>
  );
}

interface ShopDetail {
  id: string;
  name: string;
  status: string;
  webhookUrl: string | null;
  createdAt: string;
  deletedAt: string | null;
  seller: { id: string; email: string; status: string; accountStatus: string; paymentMaximum: number | null; twoFactorEnabled: boolean; emailVerifiedAt: string | null; createdAt: string };
  balance: {
    available: number | string;
    pendingWithdrawals: number | string;
    paidOut: number | string;
    gross: number | string;
    fees: number | string;
    refunds: number | string;
    entries: { items: { createdAt: string; kind: string; amount: number; paymentId: string | null; withdrawalId: string | null }[]; pagination: Pagination };
  };
}

interface OwnerAction {
  title: string;
  confirmLabel: string;
  operation: string;
  variables(values: Record<string, string>): Record<string, unknown>;
  fields: DialogField[];
  says: string;
  done: string;
  danger?: boolean;
}

const REASON: DialogField = { name: 'reason', label: 'Reason (kept in the audit log)', required: true, multiline: true };

/** A shop and its seller: status, account status and payment maximum, balance and ledger; the owner's actions, each with a reason. */
export function ShopScreen({ id }: { id: string }) {
  const me = useMe();
  const loaded = useOperation<{ shop: ShopDetail }>('ShopDetails', { id, entries: 20 });
  const [action, setAction] = useState<OwnerAction | null>(null);
  const [done, setDone] = useState<string | null>(null);
  return (
    <>
      <ScreenTitle>{loaded.data ? loaded.data.shop.name : `Shop ${id}`}</ScreenTitle>
      <p>
        <Link to={{ view: 'shops' }}>Back to sellers and shops</Link>
      </p>
      {done && <Done>{done}</Done>}
      <Loading loaded={loaded} what="the shop">
        {({ shop }) => {
          const seller = shop.seller;
          const deleted = Boolean(shop.deletedAt);
          const actions: OwnerAction[] = [];
          if (may(me.role, 'manageShops') && !deleted) {
            if (shop.status === 'ACTIVE') {
              actions.push({ title: 'Deactivate this shop?', confirmLabel: 'Deactivate shop', operation: 'DeactivateShop', variables: (v) => ({ id: shop.id, reason: v.reason }), fields: [REASON], says: "The shop's API key stops working at once (401 Shop is inactive) and the seller's sessions end; the seller can still sign in to read.", done: 'Shop deactivated.', danger: true });
            } else {
              actions.push({ title: 'Reactivate this shop?', confirmLabel: 'Reactivate shop', operation: 'ReactivateShop', variables: (v) => ({ id: shop.id, reason: v.reason }), fields: [REASON], says: "The shop's API key works again from the next request.", done: 'Shop reactivated.' });
            }
            actions.push({ title: 'Delete this shop?', confirmLabel: 'Delete shop', operation: 'DeleteShop', variables: (v) => ({ id: shop.id, reason: v.reason }), fields: [REASON], says: 'Its keys are revoked at once; payments and ledger stay. This cannot be undone: the seller needs a new shop from an owner.', done: 'Shop deleted.', danger: true });
          }
          if (may(me.role, 'manageSellers')) {
            if (seller.status === 'ACTIVE') {
              actions.push({ title: 'Suspend this seller?', confirmLabel: 'Suspend seller', operation: 'SuspendSeller', variables: (v) => ({ id: seller.id, reason: v.reason }), fields: [REASON], says: "Every key of the seller answers 403 Seller account inactive, and the seller's sessions end, until reactivated.", done: 'Seller suspended.', danger: true });
            } else {
              actions.push({ title: 'Reactivate this seller?', confirmLabel: 'Reactivate seller', operation: 'ReactivateSeller', variables: (v) => ({ id: seller.id, reason: v.reason }), fields: [REASON], says: "The seller's keys work again from the next request.", done: 'Seller reactivated.' });
            }
            actions.push({
              title: 'Change the account status?',
              confirmLabel: 'Change account status',
              operation: 'SetSellerAccountStatus',
              variables: (v) => ({ id: seller.id, accountStatus: v.accountStatus, reason: v.reason }),
              fields: [
                { name: 'accountStatus', label: 'Account status', required: true, initial: seller.accountStatus, options: [['NEW', 'New'], ['VERIFIED', 'Verified'], ['RESTRICTED', 'Restricted']] },
                REASON,
              ],
              says: 'The account status sets the largest payment the seller may create; payments already made are not touched.',
              done: 'Account status changed.',
            });
          }
          if (may(me.role, 'resetSellerTwoFactor') && seller.twoFactorEnabled) {
            actions.push({ title: "Reset the seller's two-factor?", confirmLabel: 'Reset two-factor', operation: 'ResetSellerTwoFactor', variables: (v) => ({ sellerId: seller.id, reason: v.reason }), fields: [REASON], says: "Confirm who is asking first, out of band. Two-factor is turned off (secret and recovery codes deleted), the seller's sessions end, and the seller is mailed.", done: "Seller's two-factor reset; the seller is mailed.", danger: true });
          }
          return (
            <>
              <div className="columns">
                <section aria-labelledby="shop-facts">
                  <h2 id="shop-facts">Shop</h2>
                  <Facts
                    rows={[
                      ['Status', deleted ? <Badge tone="bad">Deleted {when(shop.deletedAt)}</Badge> : <Badge tone={statusTone(shop.status)}>{label(shop.status === 'INACTIVE' ? 'deactivated' : shop.status)}</Badge>],
                      ['Shop ID', shop.id],
                      ['Created', when(shop.createdAt)],
                      ['Webhook URL', shop.webhookUrl ?? 'Not set'],
                    ]}
                  />
                </section>
                <section aria-labelledby="seller-facts">
                  <h2 id="seller-facts">Seller</h2>
                  <Facts
                    rows={[
                      ['E-mail', seller.email],
                      ['Status', <Badge tone={statusTone(seller.status)}>{label(seller.status)}</Badge>],
                      ['Account status', label(seller.accountStatus)],
                      ['Payment maximum', maximumText(seller.paymentMaximum)],
                      ['Two-factor', seller.twoFactorEnabled ? 'On' : 'Off'],
                      ['E-mail verified', seller.emailVerifiedAt ? when(seller.emailVerifiedAt) : 'Not yet'],
                      ['Seller ID', seller.id],
                    ]}
                  />
                </section>
              </div>
              {actions.length > 0 && (
                <div className="actions" role="group" aria-label="Owner actions">
                  {actions.map((candidate) => (
                    <button key={candidate.operation} type="button" className={candidate.danger ? 'danger' : 'secondary'} onClick={() => setAction(candidate)}>
                      {candidate.confirmLabel}
                    </button>
                  ))}
                </div>
              )}
              <section aria-labelledby="balance">
                <h2 id="balance">Balance</h2>
                <Facts
                  rows={[
                    ['Available now', money(shop.balance.available)],
                    ['Held for withdrawals', money(shop.balance.pendingWithdrawals)],
                    ['Paid out', money(shop.balance.paidOut)],
                    ['Sales (gross)', money(shop.balance.gross)],
                    ['Fees', money(shop.balance.fees)],
                    ['Refunded', money(shop.balance.refunds)],
                  ]}
                />
                <p>
                  <Link to={{ view: 'payments', shopId: shop.id }}>This shop's payments</Link> · <Link to={{ view: 'withdrawals', shopId: shop.id, status: 'REQUESTED' }}>its withdrawals</Link> ·{' '}
                  <Link to={{ view: 'audit', target: seller.id }}>audit log of the seller</Link>
                </p>
                <Table caption="Latest balance entries">
                  <thead>
                    <tr>
                      <th scope="col">Booked</th>
                      <th scope="col">Kind</th>
                      <th scope="col" className="number">
                        Amount
                      </th>
                      <th scope="col">Of</th>
                    </tr>
                  </thead>
                  <tbody>
                    {shop.balance.entries.items.map((entry, index) => (
                      <tr key={index}>
                        <td>{when(entry.createdAt)}</td>
                        <td>{label(entry.kind)}</td>
                        <td className="number">{money(entry.amount)}</td>
                        <td>{entry.paymentId ? <Link to={{ view: 'payment', id: entry.paymentId }}>{entry.paymentId}</Link> : (entry.withdrawalId ?? '—')}</td>
                      </tr>
                    ))}
                  </tbody>
                </Table>
              </section>
              {action && (
                <ConfirmDialog
                  title={action.title}
                  confirmLabel={action.confirmLabel}
                  tone={action.danger ? 'danger' : 'primary'}
                  fields={action.fields}
                  onClose={() => setAction(null)}
                  onConfirm={async (values) => {
                    await runOperation(me.auth, action.operation, action.variables(values));
                    setAction(null);
                    setDone(action.done);
                    loaded.reload();
                  }}
                >
                  <p>{action.says}</p>
                </ConfirmDialog>
              )}
            </>
          );
        }}
      </Loading>
    </>
  );
}
