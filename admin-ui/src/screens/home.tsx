import { useState, type ReactNode } from 'react';
import { runOperation } from '../api';
import { age, label, money, when } from '../format';
import { may } from '../permissions';
import { Badge, ConfirmDialog, Done, Link, Loading, ScreenTitle, Table, useMe, useOperation } from '../ui';
import { ReviewMark } from './refunds';

interface HomeData {
  workQueue: {
    refundsWaiting: number;
    refundsNearDeadline: number;
    refundsPastDeadline: number;
    oldestRefundRequestedAt: string | null;
    refundsFailedAfterSuccess: number;
    withdrawalsRequested: number;
    withdrawalsApproved: number;
    withdrawalsNotCovered: number;
    disputesOpen: number;
    disputesToContest: number;
    mailsFailed: number;
    mailsUnknown: number;
    acquirerNotificationsFlagged: number;
    failingWebhookShops: number;
    failingWebhooks: { shop: { id: string; name: string }; failingSince: string; failing: number }[];
  };
  refunds: { items: { id: string; amount: number; createdAt: string; ageSeconds: number; pastReviewWindow: boolean; payment: { id: string; shop: { id: string; name: string } } }[] };
  mails: { items: { id: string; kind: string; recipient: string; lastError: string | null; createdAt: string; paymentId: string | null }[] };
  flaggedAcquirerNotifications: Notification[];
  settlementProposals: Proposal[];
}

type Proposal = { id: string; targetType: string; targetId: string; answer: string; acquirerReference: string | null; reason: string; proposedBy: string; createdAt: string };

/** A second finance admin's decision on a settlement by hand (docs/admin.md, "Settling by hand"). */
const PROPOSAL_ACTIONS = {
  confirm: { operation: 'ConfirmSettlement', title: 'Confirm this settlement by hand?', label: 'Confirm and settle', done: 'is confirmed' },
  reject: { operation: 'RejectSettlement', title: 'Reject this settlement by hand?', label: 'Reject', done: 'is rejected: nothing moved' },
} as const;

type Notification = { id: string; eventCode: string; pspReference: string; merchantReference: string | null; status: string; problem: string; receivedAt: string };

/** What finance may do with a notification that booked nothing (docs/admin.md, "Settling by hand"). */
const NOTIFICATION_ACTIONS = {
  retry: { operation: 'RetryAcquirerNotification', title: 'Apply this notification again?', label: 'Apply again', done: 'is queued to be applied again' },
  dismiss: { operation: 'DismissAcquirerNotification', title: 'Set this notification aside?', label: 'Dismiss', done: 'is set aside' },
} as const;

function Tile({ title, count, children, to, linkText, tone }: { title: string; count: number; children?: ReactNode; to?: Record<string, string>; linkText?: string; tone?: 'bad' | 'warn' }) {
  const headingId = `tile-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <section className={`tile${count > 0 && tone ? ` tile-${tone}` : ''}`} aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <p className="tile-count">{count}</p>
      {children}
      {to && linkText && <Link to={to}>{linkText}</Link>}
    </section>
  );
}

/** Home: what waits for the team today, in one request (BackOfficeHome). */
export function HomeScreen() {
  const me = useMe();
  const loaded = useOperation<HomeData>('BackOfficeHome', {});
  const [resending, setResending] = useState<HomeData['mails']['items'][number] | null>(null);
  const [handling, setHandling] = useState<{ item: Notification; action: keyof typeof NOTIFICATION_ACTIONS } | null>(null);
  const [deciding, setDeciding] = useState<{ proposal: Proposal; action: keyof typeof PROPOSAL_ACTIONS } | null>(null);
  const settle = may(me.role, 'settleAcquirerOutcomes');
  const [done, setDone] = useState<string | null>(null);
  const resend = may(me.role, 'resendMail');
  return (
    <>
      <ScreenTitle
        actions={
          <button type="button" className="secondary" onClick={loaded.reload}>
            Refresh
          </button>
        }
      >
        What is waiting
      </ScreenTitle>
      {done && <Done>{done}</Done>}
      <Loading loaded={loaded} what="the work queue">
        {({ workQueue: q, refunds, mails, flaggedAcquirerNotifications: flagged, settlementProposals: proposals }) => (
          <>
            <div className="tiles">
              <Tile title="Refund requests" count={q.refundsWaiting} to={{ view: 'refunds' }} linkText="Open the refund queue" tone={q.refundsPastDeadline > 0 ? 'bad' : 'warn'}>
                <p>
                  {q.refundsPastDeadline > 0 && <Badge tone="bad">{q.refundsPastDeadline} past 24 h</Badge>}{' '}
                  {q.refundsNearDeadline > 0 && <Badge tone="warn">{q.refundsNearDeadline} near 24 h</Badge>}
                  {q.refundsPastDeadline + q.refundsNearDeadline === 0 && 'All within the 24-hour promise.'}
                </p>
                {q.refundsFailedAfterSuccess > 0 && (
                  <p>
                    <Badge tone="bad">{q.refundsFailedAfterSuccess} failed after success</Badge> (last 7 days): the card scheme rejected them; the customer did not get the money.
                  </p>
                )}
              </Tile>
              <Tile title="Withdrawals to approve" count={q.withdrawalsRequested} to={{ view: 'withdrawals' }} linkText="Open the withdrawal queue" tone="warn">
                <p>
                  {q.withdrawalsNotCovered > 0 ? <Badge tone="bad">{q.withdrawalsNotCovered} not covered by the balance</Badge> : 'Each covered by its balance.'}
                </p>
              </Tile>
              <Tile title="Approved, to pay" count={q.withdrawalsApproved} to={{ view: 'withdrawals', status: 'APPROVED' }} linkText="Withdrawals to mark paid" tone="warn" />
              <Tile title="Open disputes" count={q.disputesOpen} to={{ view: 'disputes' }} linkText="Open the disputes" tone="warn">
                {q.disputesToContest > 0 && (
                  <p>
                    <Badge tone="bad">{q.disputesToContest} to contest</Badge>
                  </p>
                )}
              </Tile>
              <Tile title="Failed mails" count={q.mailsFailed + q.mailsUnknown} tone="bad">
                <p>
                  {q.mailsFailed} failed · {q.mailsUnknown} delivery unknown
                </p>
              </Tile>
              <Tile title="Shops with failing webhooks" count={q.failingWebhookShops} tone="warn" />
              <Tile title="Notification mismatches" count={q.acquirerNotificationsFlagged} tone="bad">
                <p>Acquirer notifications that booked nothing, last 7 days.</p>
              </Tile>
            </div>

            <section aria-labelledby="oldest-refunds">
              <h2 id="oldest-refunds">Oldest refund requests</h2>
              {refunds.items.length === 0 ? (
                <p className="quiet">No refund request is waiting.</p>
              ) : (
                <Table caption="Oldest refund requests" captionHidden>
                  <thead>
                    <tr>
                      <th scope="col">Waiting</th>
                      <th scope="col">Shop</th>
                      <th scope="col" className="number">
                        Amount
                      </th>
                      <th scope="col">Request</th>
                    </tr>
                  </thead>
                  <tbody>
                    {refunds.items.map((refund) => (
                      <tr key={refund.id}>
                        <td>
                          {age(refund.ageSeconds)} <ReviewMark ageSeconds={refund.ageSeconds} past={refund.pastReviewWindow} />
                        </td>
                        <td>{refund.payment.shop.name}</td>
                        <td className="number">{money(refund.amount)}</td>
                        <td>
                          <Link to={{ view: 'refund', id: refund.id }}>{refund.id}</Link>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </Table>
              )}
            </section>

            <section aria-labelledby="failing-webhooks">
              <h2 id="failing-webhooks">Shops whose webhooks keep failing</h2>
              {q.failingWebhooks.length === 0 ? (
                <p className="quiet">Every shop's webhooks are being delivered.</p>
              ) : (
                <Table caption="Shops whose webhooks keep failing" captionHidden>
                  <thead>
                    <tr>
                      <th scope="col">Shop</th>
                      <th scope="col">Failing since</th>
                      <th scope="col" className="number">
                        Deliveries being retried
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {q.failingWebhooks.map((row) => (
                      <tr key={row.shop.id}>
                        <td>
                          <Link to={{ view: 'shop', id: row.shop.id }}>{row.shop.name}</Link>
                        </td>
                        <td>{when(row.failingSince)}</td>
                        <td className="number">{row.failing}</td>
                      </tr>
                    ))}
                  </tbody>
                </Table>
              )}
            </section>

            <section aria-labelledby="failed-mails">
              <h2 id="failed-mails">Latest failed mails</h2>
              {mails.items.length === 0 ? (
                <p className="quiet">No mail failed.</p>
              ) : (
                <Table caption="Latest failed mails" captionHidden>
                  <thead>
                    <tr>
                      <th scope="col">Written</th>
                      <th scope="col">Kind</th>
                      <th scope="col">To</th>
                      <th scope="col">Why</th>
                      {resend && <th scope="col">Action</th>}
                    </tr>
                  </thead>
                  <tbody>
                    {mails.items.map((mail) => (
                      <tr key={mail.id}>
                        <td>{when(mail.createdAt)}</td>
                        <td>{label(mail.kind.replace(/-/g, '_'))}</td>
                        <td>{mail.recipient}</td>
                        <td>{mail.lastError ?? '—'}</td>
                        {resend && (
                          <td>
                            <button type="button" className="secondary" onClick={() => setResending(mail)} aria-label={`Send again: mail to ${mail.recipient}`}>
                              Send again
                            </button>
                          </td>
                        )}
                      </tr>
                    ))}
                  </tbody>
                </Table>
              )}
              <p className="quiet">Support and owners send a failed mail again once the address is fixed or the recipient asks; every mail is in the query console (<code>mails</code>).</p>
            </section>

            <section aria-labelledby="settlements-by-hand">
              <h2 id="settlements-by-hand">Settlements by hand to confirm</h2>
              {proposals.length === 0 ? (
                <p className="quiet">No settlement by hand is waiting for a second finance admin.</p>
              ) : (
                <Table caption="Settlements by hand waiting for a second finance admin" captionHidden>
                  <thead>
                    <tr>
                      <th scope="col">Proposed</th>
                      <th scope="col">Settles</th>
                      <th scope="col">The acquirer says</th>
                      <th scope="col">Why</th>
                      {settle && <th scope="col">Decide</th>}
                    </tr>
                  </thead>
                  <tbody>
                    {proposals.map((proposal) => (
                      <tr key={proposal.id}>
                        <td>
                          {when(proposal.createdAt)} by {proposal.proposedBy}
                        </td>
                        <td>
                          <Link to={{ view: proposal.targetType === 'payment' ? 'payment' : 'refund', id: proposal.targetId }}>{proposal.targetId}</Link>
                        </td>
                        <td>
                          {label(proposal.answer)}
                          {proposal.acquirerReference ? ` (${proposal.acquirerReference})` : ''}
                        </td>
                        <td>{proposal.reason}</td>
                        {settle && (
                          <td>
                            {proposal.proposedBy === me.email ? (
                              <span className="quiet">Another finance admin confirms it.</span>
                            ) : (
                              <button type="button" className="secondary" onClick={() => setDeciding({ proposal, action: 'confirm' })} aria-label={`Confirm: ${proposal.targetId} ${label(proposal.answer)}`}>
                                Confirm
                              </button>
                            )}{' '}
                            <button type="button" className="secondary" onClick={() => setDeciding({ proposal, action: 'reject' })} aria-label={`Reject: ${proposal.targetId} ${label(proposal.answer)}`}>
                              Reject
                            </button>
                          </td>
                        )}
                      </tr>
                    ))}
                  </tbody>
                </Table>
              )}
            </section>

            <section aria-labelledby="mismatches">
              <h2 id="mismatches">Notification mismatches</h2>
              {flagged.length === 0 ? (
                <p className="quiet">Every acquirer notification booked what it said.</p>
              ) : (
                <Table caption="Acquirer notifications that booked nothing" captionHidden>
                  <thead>
                    <tr>
                      <th scope="col">Received</th>
                      <th scope="col">Event</th>
                      <th scope="col">Names</th>
                      <th scope="col">Status</th>
                      <th scope="col">What did not fit</th>
                      {settle && <th scope="col">Settle</th>}
                    </tr>
                  </thead>
                  <tbody>
                    {flagged.map((item) => (
                      <tr key={item.id}>
                        <td>{when(item.receivedAt)}</td>
                        <td>{item.eventCode}</td>
                        <td>{item.merchantReference?.startsWith('pay_') ? <Link to={{ view: 'payment', id: item.merchantReference }}>{item.merchantReference}</Link> : (item.merchantReference ?? item.pspReference)}</td>
                        <td>{item.status}</td>
                        <td>{item.problem}</td>
                        {settle && (
                          <td>
                            {item.status !== 'rejected' && (
                              <button type="button" className="secondary" onClick={() => setHandling({ item, action: 'retry' })} aria-label={`Apply again: ${item.eventCode} ${item.pspReference}`}>
                                Apply again
                              </button>
                            )}{' '}
                            <button type="button" className="secondary" onClick={() => setHandling({ item, action: 'dismiss' })} aria-label={`Dismiss: ${item.eventCode} ${item.pspReference}`}>
                              Dismiss
                            </button>
                          </td>
                        )}
                      </tr>
                    ))}
                  </tbody>
                </Table>
              )}
            </section>
          </>
        )}
      </Loading>
      {handling && (
        <ConfirmDialog
          title={NOTIFICATION_ACTIONS[handling.action].title}
          confirmLabel={NOTIFICATION_ACTIONS[handling.action].label}
          fields={[{ name: 'reason', label: 'Reason (kept in the audit log)', required: true, multiline: true }]}
          onClose={() => setHandling(null)}
          onConfirm={async ({ reason }) => {
            const { action, item } = handling;
            await runOperation(me.auth, NOTIFICATION_ACTIONS[action].operation, { id: item.id, reason });
            setHandling(null);
            setDone(`The ${item.eventCode} notification ${NOTIFICATION_ACTIONS[action].done}.`);
            loaded.reload();
          }}
        >
          <p>
            {handling.item.eventCode} {handling.item.pspReference}: {handling.item.problem}
          </p>
        </ConfirmDialog>
      )}
      {deciding && (
        <ConfirmDialog
          title={PROPOSAL_ACTIONS[deciding.action].title}
          confirmLabel={PROPOSAL_ACTIONS[deciding.action].label}
          tone={deciding.action === 'reject' ? 'danger' : 'primary'}
          fields={[{ name: 'reason', label: 'Reason (kept in the audit log)', required: true, multiline: true }]}
          onClose={() => setDeciding(null)}
          onConfirm={async ({ reason }) => {
            const { action, proposal } = deciding;
            const answer = await runOperation<{ confirmSettlement?: { outcome: string } }>(me.auth, PROPOSAL_ACTIONS[action].operation, { id: proposal.id, reason });
            setDeciding(null);
            const outcome = answer.confirmSettlement ? `: ${answer.confirmSettlement.outcome}` : '';
            setDone(`The settlement of ${proposal.targetId} ${PROPOSAL_ACTIONS[action].done}${outcome}.`);
            loaded.reload();
          }}
        >
          <p>
            {deciding.proposal.proposedBy} recorded that the acquirer says {label(deciding.proposal.answer)} for {deciding.proposal.targetId}
            {deciding.proposal.acquirerReference ? ` (reference ${deciding.proposal.acquirerReference})` : ''}: “{deciding.proposal.reason}”.
          </p>
          {deciding.action === 'confirm' && <p>Check the acquirer's records yourself first: confirming settles it, and money moves.</p>}
        </ConfirmDialog>
      )}
      {resending && (
        <ConfirmDialog
          title="Send this mail again?"
          confirmLabel="Send again"
          fields={[{ name: 'reason', label: 'Reason (kept in the audit log)', required: true, multiline: true }]}
          onClose={() => setResending(null)}
          onConfirm={async ({ reason }) => {
            await runOperation(me.auth, 'ResendMail', { id: resending.id, reason });
            setResending(null);
            setDone(`The mail to ${resending.recipient} is queued again.`);
            loaded.reload();
          }}
        >
          <p>
            The same message ({label(resending.kind.replace(/-/g, '_'))}, with its Message-ID) goes to {resending.recipient} again.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
