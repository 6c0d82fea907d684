import { useState } from 'react';
import { runOperation } from '../api';
import { age, label, money, secondsSince, when } from '../format';
import { may } from '../permissions';
import type { Params } from '../route';
import { Badge, ConfirmDialog, Done, FilterField, FilterForm, FilterSelect, Link, Loading, NoRows, Pager, Problem, ScreenTitle, SortHeader, Table, messageOf, useMe, useOperation, type Pagination } from '../ui';

interface QueueWithdrawal {
  id: string;
  status: string;
  amount: number;
  createdAt: string;
  reviewedAt: string | null;
  rejectionReason: string | null;
  payoutReference: string | null;
  paidAt: string | null;
  requestedBy: { id: string; email: string } | null;
  reviewedBy: { id: string; email: string } | null;
  shop: { id: string; name: string; balance: { available: number | string; pendingWithdrawals: number | string } };
  seller: { id: string; email: string; status: string; payoutAccount: { holder: string; accountNumberMasked: string } | null };
}

const WITHDRAWAL_STATUSES: [string, string][] = [
  ['REQUESTED', 'Waiting for approval'],
  ['APPROVED', 'Approved, to pay'],
  ['PAID', 'Paid'],
  ['REJECTED', 'Rejected'],
];

type Action = { kind: 'approve' | 'reject' | 'pay'; withdrawal: QueueWithdrawal };

/**
 * The withdrawal queue: shop, amount, the shop's available balance now, and where to pay (masked; finance opens
 * the whole number on demand, each opening audited). Finance approves (the balance rule's refusal in words),
 * rejects with a reason, and marks paid with the bank reference.
 */
export function WithdrawalQueueScreen({ params }: { params: Params }) {
  const me = useMe();
  const status = params.status || 'REQUESTED';
  const loaded = useOperation<{ withdrawals: { items: QueueWithdrawal[]; pagination: Pagination } }>('WithdrawalQueue', {
    status,
    shopId: params.shopId || null,
    page: Number(params.page) || 1,
    limit: 20,
    order: params.order || null,
  });
  const [action, setAction] = useState<Action | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const decide = may(me.role, 'decideWithdrawal');
  const pay = may(me.role, 'markWithdrawalPaid');
  const finish = (message: string) => {
    setAction(null);
    setDone(message);
    loaded.reload();
  };
  return (
    <>
      <ScreenTitle>Withdrawals</ScreenTitle>
      <FilterForm params={params} fields={['status', 'shopId']} label="Filter withdrawals">
        <FilterSelect name="status" label="Status" params={{ ...params, status }} options={WITHDRAWAL_STATUSES} />
        <FilterField name="shopId" label="Shop ID" params={params} placeholder="shop_…" />
      </FilterForm>
      {done && <Done>{done}</Done>}
      <Loading loaded={loaded} what="withdrawals">
        {({ withdrawals }) => (
          <>
            <Table caption={`Withdrawals: ${label(status)}`}>
              <thead>
                <tr>
                  <SortHeader label="Requested" params={params} first="OLDEST_FIRST" second="NEWEST_FIRST" isDefault="first" />
                  <th scope="col">Shop</th>
                  <SortHeader label="Amount" params={params} first="LARGEST_FIRST" second="SMALLEST_FIRST" />
                  <th scope="col" className="number">
                    Available now
                  </th>
                  <th scope="col">Pay to</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {withdrawals.items.length === 0 && <NoRows columns={6}>No withdrawal matches these filters.</NoRows>}
                {withdrawals.items.map((w) => {
                  const available = BigInt(w.shop.balance.available);
                  const notCovered = w.status === 'REQUESTED' && available < 0n;
                  const own = w.requestedBy?.id === me.id;
                  return (
                    <tr key={w.id}>
                      <td>
                        {age(secondsSince(w.createdAt))} ago
                        <div className="quiet small">by {w.requestedBy?.email ?? 'the seller'}</div>
                        <div className="id quiet">{w.id}</div>
                      </td>
                      <td>
                        <Link to={{ view: 'shop', id: w.shop.id }}>{w.shop.name}</Link>
                        <div className="quiet small">{w.seller.email}</div>
                      </td>
                      <td className="number">{money(w.amount)}</td>
                      <td className="number">
                        {money(w.shop.balance.available)}
                        {notCovered && (
                          <div>
                            <Badge tone="bad">Not covered</Badge>
                          </div>
                        )}
                      </td>
                      <td className="pay-to">
                        <PayoutAccountCell sellerId={w.seller.id} account={w.seller.payoutAccount} withdrawalId={w.id} />
                      </td>
                      <td>
                        <div className="row-actions">
                          {w.status === 'REQUESTED' && decide && !own && (
                            <button type="button" onClick={() => setAction({ kind: 'approve', withdrawal: w })} aria-label={`Approve: withdrawal ${w.id}`}>
                              Approve
                            </button>
                          )}
                          {w.status === 'REQUESTED' && decide && own && <span className="four-eyes small">You requested it: another finance admin approves it.</span>}
                          {w.status === 'APPROVED' && pay && (
                            <button type="button" onClick={() => setAction({ kind: 'pay', withdrawal: w })} aria-label={`Mark paid: withdrawal ${w.id}`}>
                              Mark paid
                            </button>
                          )}
                          {(w.status === 'REQUESTED' || w.status === 'APPROVED') && decide && (
                            <button type="button" className="danger" onClick={() => setAction({ kind: 'reject', withdrawal: w })} aria-label={`Reject: withdrawal ${w.id}`}>
                              Reject
                            </button>
                          )}
                          {w.status === 'PAID' && <span className="small">Paid {when(w.paidAt)}, reference {w.payoutReference}</span>}
                          {w.status === 'REJECTED' && <span className="small">Rejected: {w.rejectionReason}</span>}
                          {(w.status === 'REQUESTED' || w.status === 'APPROVED') && !decide && <span className="quiet small">Finance decides</span>}
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </Table>
            <Pager pagination={withdrawals.pagination} params={params} noun="withdrawals" />
          </>
        )}
      </Loading>
      {action?.kind === 'approve' && (
        <ConfirmDialog
          title="Approve this withdrawal?"
          confirmLabel={`Approve ${money(action.withdrawal.amount)}`}
          onClose={() => setAction(null)}
          onConfirm={async () => {
            await runOperation(me.auth, 'ApproveWithdrawal', { id: action.withdrawal.id });
            finish(`Withdrawal of ${money(action.withdrawal.amount)} to ${action.withdrawal.shop.name} approved: send the bank transfer, then mark it paid.`);
          }}
        >
          <p>
            {money(action.withdrawal.amount)} for {action.withdrawal.shop.name} (available balance now {money(action.withdrawal.shop.balance.available)}). After approval, send the
            bank transfer and mark it paid with the bank's reference.
          </p>
        </ConfirmDialog>
      )}
      {action?.kind === 'reject' && (
        <ConfirmDialog
          title="Reject this withdrawal?"
          confirmLabel="Reject withdrawal"
          tone="danger"
          fields={[{ name: 'reason', label: 'Reason (the seller is told)', required: true, multiline: true }]}
          onClose={() => setAction(null)}
          onConfirm={async ({ reason }) => {
            await runOperation(me.auth, 'RejectWithdrawal', { id: action.withdrawal.id, reason });
            finish(`Withdrawal rejected: ${money(action.withdrawal.amount)} is back in ${action.withdrawal.shop.name}'s balance.`);
          }}
        >
          <p>The held {money(action.withdrawal.amount)} goes back to the seller's available balance, and the seller is mailed the reason.</p>
        </ConfirmDialog>
      )}
      {action?.kind === 'pay' && (
        <ConfirmDialog
          title="Mark this withdrawal paid?"
          confirmLabel="Mark paid"
          fields={[
            { name: 'reference', label: 'Bank transfer reference', required: true, hint: 'As the bank shows it, 1 to 200 characters' },
            {
              name: 'overrideReason', label: 'Override reason (only if refused)', multiline: true,
              hint: "Refused while the seller's balance after approved refunds is negative; say why the payout stands (the transfer already left). Audited.",
            },
          ]}
          onClose={() => setAction(null)}
          onConfirm={async ({ reference, overrideReason }) => {
            await runOperation(me.auth, 'MarkWithdrawalPaid', { id: action.withdrawal.id, reference, overrideReason: overrideReason || null });
            finish(`Withdrawal marked paid with reference ${reference}; the seller is told.`);
          }}
        >
          <p>
            Record that the bank transfer of {money(action.withdrawal.amount)} to {action.withdrawal.seller.payoutAccount?.holder ?? 'the seller'} went out.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

/** The payout account, masked; finance may show the whole number (each showing is written to the audit log). */
function PayoutAccountCell({ sellerId, account, withdrawalId }: { sellerId: string; account: QueueWithdrawal['seller']['payoutAccount']; withdrawalId: string }) {
  const me = useMe();
  const [whole, setWhole] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  if (!account) return <span className="quiet">Not set by the seller</span>;
  const show = async () => {
    setProblem(null);
    try {
      const { seller } = await runOperation<{ seller: { payoutAccount: { accountNumber: string | null } | null } }>(me.auth, 'PayoutAccountNumber', { sellerId });
      setWhole(seller.payoutAccount?.accountNumber ?? null);
    } catch (error) {
      setProblem(messageOf(error));
    }
  };
  return (
    <div>
      <div>{account.holder}</div>
      {whole ? (
        <div>
          <code className="account-number" aria-label={`Whole account number for ${withdrawalId}`}>
            {whole}
          </code>{' '}
          <button type="button" className="link" onClick={() => setWhole(null)}>
            Hide
          </button>
        </div>
      ) : (
        <div>
          <span>{account.accountNumberMasked}</span>{' '}
          {may(me.role, 'readAccountNumber') && (
            <button type="button" className="link" onClick={show} aria-label={`Show whole number: withdrawal ${withdrawalId} (each showing is audited)`}>
              Show whole number
            </button>
          )}
        </div>
      )}
      {problem && <Problem>{problem}</Problem>}
    </div>
  );
}
