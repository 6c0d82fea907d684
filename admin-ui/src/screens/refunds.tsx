import { useState } from 'react';
import { runOperation } from '../api';
import { age, label, money, when } from '../format';
import { may } from '../permissions';
import type { Params } from '../route';
import { Badge, ConfirmDialog, Done, Facts, FilterForm, FilterField, FilterSelect, Link, Loading, NoRows, Pager, Problem, ScreenTitle, SortHeader, Table, useMe, useOperation, type Pagination } from '../ui';
import { PaymentStoryView, type PaymentStory } from './payments';

/** A request older than this is near the 24-hour review promise (finance has been mailed about it). */
export const NEAR_DEADLINE_SECONDS = 20 * 3600;

export function ReviewMark({ ageSeconds, past }: { ageSeconds: number; past: boolean }) {
  if (past) return <Badge tone="bad">Past 24 h</Badge>;
  if (ageSeconds > NEAR_DEADLINE_SECONDS) return <Badge tone="warn">Near 24 h</Badge>;
  return null;
}

/** What the queue and a request's page both show of a refund request. */
interface RefundRequestFacts {
  id: string;
  status: string;
  amount: number;
  reason: string;
  createdAt: string;
  ageSeconds: number;
  pastReviewWindow: boolean;
  requestedBy: { id: string; email: string } | null;
}

interface QueueRefund extends RefundRequestFacts {
  payment: { id: string; status: string; amount: number; customerEmail: string | null; shop: { id: string; name: string } };
}

const REFUND_STATUSES: [string, string][] = [
  ['REQUESTED', 'Waiting for review'],
  ['APPROVED', 'Approved'],
  ['PROCESSING', 'Being refunded'],
  ['REFUNDED', 'Refunded'],
  ['REJECTED', 'Rejected'],
  ['FAILED', 'Failed'],
  ['REVERSED', 'Reversed'],
];

/** The refund queue: oldest first (nearest the 24-hour promise), filtered, sorted and paged through the address. */
export function RefundQueueScreen({ params }: { params: Params }) {
  const status = params.status || 'REQUESTED';
  const loaded = useOperation<{ refunds: { items: QueueRefund[]; pagination: Pagination } }>('RefundQueue', {
    status,
    paymentId: params.paymentId || null,
    page: Number(params.page) || 1,
    limit: 20,
    order: params.order || null,
  });
  return (
    <>
      <ScreenTitle>Refund requests</ScreenTitle>
      <FilterForm params={params} fields={['status', 'paymentId']} label="Filter refund requests">
        <FilterSelect name="status" label="Status" params={{ ...params, status }} options={REFUND_STATUSES} />
        <FilterField name="paymentId" label="Payment ID" params={params} placeholder="pay_…" />
      </FilterForm>
      <Loading loaded={loaded} what="refund requests">
        {({ refunds }) => (
          <>
            <Table caption={`Refund requests: ${label(status)}`}>
              <thead>
                <tr>
                  <SortHeader label="Waiting" params={params} first="OLDEST_FIRST" second="NEWEST_FIRST" isDefault="first" />
                  <th scope="col">Shop</th>
                  <th scope="col">Payment</th>
                  <SortHeader label="Amount" params={params} first="LARGEST_FIRST" second="SMALLEST_FIRST" />
                  <th scope="col">Requested by</th>
                  <th scope="col">Request</th>
                </tr>
              </thead>
              <tbody>
                {refunds.items.length === 0 && <NoRows columns={6}>No refund request matches these filters.</NoRows>}
                {refunds.items.map((refund) => (
                  <tr key={refund.id}>
                    <td>
                      {age(refund.ageSeconds)} {refund.status === 'REQUESTED' && <ReviewMark ageSeconds={refund.ageSeconds} past={refund.pastReviewWindow} />}
                    </td>
                    <td>
                      <Link to={{ view: 'shop', id: refund.payment.shop.id }}>{refund.payment.shop.name}</Link>
                    </td>
                    <td className="id">
                      <Link to={{ view: 'payment', id: refund.payment.id }}>{refund.payment.id}</Link>
                    </td>
                    <td className="number">
                      {money(refund.amount)} <span className="quiet">{refund.amount < refund.payment.amount ? `partial, of ${money(refund.payment.amount)}` : 'full'}</span>
                    </td>
                    <td>{refund.requestedBy?.email ?? 'The seller (dashboard)'}</td>
                    <td>
                      <Link to={{ view: 'refund', id: refund.id }} aria-label={`Open refund request ${refund.id}`}>
                        Open
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
            <Pager pagination={refunds.pagination} params={params} noun="refund requests" />
          </>
        )}
      </Loading>
    </>
  );
}

interface RefundDetail extends RefundRequestFacts {
  reviewedBy: { id: string; email: string } | null;
  reviewedAt: string | null;
  rejectionReason: string | null;
  failureReason: string | null;
  refundedAt: string | null;
  payment: { id: string; status: string; amount: number; shop: { id: string; name: string } };
}

/** One refund request: its facts, the payment's story (PaymentStory), and approval or rejection for finance. */
export function RefundScreen({ id }: { id: string }) {
  const me = useMe();
  const refund = useOperation<{ refund: RefundDetail }>('Refund', { id });
  const paymentId = refund.data?.refund.payment.id;
  const story = useOperation<{ payment: PaymentStory }>('PaymentStory', { id: paymentId ?? '' }, { skip: !paymentId });
  const [dialog, setDialog] = useState<'approve' | 'reject' | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const decide = may(me.role, 'decideRefund');
  return (
    <>
      <ScreenTitle>Refund request {id}</ScreenTitle>
      <p>
        <Link to={{ view: 'refunds' }}>Back to the refund queue</Link>
      </p>
      {done && <Done>{done}</Done>}
      <Loading loaded={refund} what="the refund request">
        {({ refund: r }) => {
          const ownRequest = r.requestedBy?.id === me.id;
          const waiting = r.status === 'REQUESTED';
          return (
            <>
              <Facts
                label="The request"
                rows={[
                  ['Status', <Badge tone={waiting ? 'warn' : r.status === 'REFUNDED' ? 'good' : r.status === 'REJECTED' || r.status === 'FAILED' ? 'bad' : 'neutral'}>{label(r.status)}</Badge>],
                  ['Amount', `${money(r.amount)} (${r.amount < r.payment.amount ? `partial, of ${money(r.payment.amount)}` : 'the whole payment'})`],
                  ['Shop', <Link to={{ view: 'shop', id: r.payment.shop.id }}>{r.payment.shop.name}</Link>],
                  ['Payment', <Link to={{ view: 'payment', id: r.payment.id }}>{r.payment.id}</Link>],
                  ['Reason given', r.reason],
                  ['Recorded', <>{when(r.createdAt)} ({age(r.ageSeconds)} ago) {waiting && <ReviewMark ageSeconds={r.ageSeconds} past={r.pastReviewWindow} />}</>],
                  ['Recorded by', r.requestedBy?.email ?? 'The seller, from the dashboard'],
                  ...(r.reviewedBy ? [['Decided by', `${r.reviewedBy.email}, ${when(r.reviewedAt)}`] as [string, string]] : []),
                  ...(r.rejectionReason ? [['Why it was rejected', r.rejectionReason] as [string, string]] : []),
                  ...(r.failureReason ? [['Why the card refused it', r.failureReason] as [string, string]] : []),
                ]}
              />
              {waiting && decide && (
                <div className="actions" role="group" aria-label="Decide this request">
                  {ownRequest ? (
                    <p className="four-eyes" id="four-eyes">
                      You recorded this request: another finance admin must approve it.
                    </p>
                  ) : (
                    <button type="button" onClick={() => setDialog('approve')}>
                      Approve refund
                    </button>
                  )}
                  <button type="button" className="danger" onClick={() => setDialog('reject')}>
                    Reject request
                  </button>
                </div>
              )}
              {waiting && !decide && <p className="quiet">Finance decides refund requests: approving or rejecting it is theirs.</p>}
              {dialog === 'approve' && (
                <ConfirmDialog
                  title="Approve this refund?"
                  confirmLabel={`Approve refund of ${money(r.amount)}`}
                  fields={[{ name: 'note', label: 'Note for the audit log', multiline: true }]}
                  onClose={() => setDialog(null)}
                  onConfirm={async ({ note }) => {
                    await runOperation(me.auth, 'ApproveRefund', { id: r.id, note: note || null });
                    setDialog(null);
                    setDone(`Refund approved: ${money(r.amount)} goes back to the card, and the seller's balance is charged.`);
                    refund.reload();
                    story.reload();
                  }}
                >
                  <p>
                    {money(r.amount)} goes back to the customer's card from {r.payment.shop.name}'s balance. The fee is not returned. This cannot be undone here.
                  </p>
                </ConfirmDialog>
              )}
              {dialog === 'reject' && (
                <ConfirmDialog
                  title="Reject this refund request?"
                  confirmLabel="Reject request"
                  tone="danger"
                  fields={[{ name: 'reason', label: 'Reason (the seller is told)', required: true, multiline: true }]}
                  onClose={() => setDialog(null)}
                  onConfirm={async ({ reason }) => {
                    await runOperation(me.auth, 'RejectRefund', { id: r.id, reason });
                    setDialog(null);
                    setDone('Request rejected; the seller is told the reason.');
                    refund.reload();
                    story.reload();
                  }}
                >
                  <p>Nothing is refunded, and the seller is mailed the reason you give.</p>
                </ConfirmDialog>
              )}
            </>
          );
        }}
      </Loading>
      {paymentId && (
        <section aria-labelledby="payment-story">
          <h2 id="payment-story">The payment's story</h2>
          {story.error ? <Problem>{story.error}</Problem> : story.data ? <PaymentStoryView payment={story.data.payment} headingLevel={3} /> : <p className="quiet">Loading the payment…</p>}
        </section>
      )}
    </>
  );
}
