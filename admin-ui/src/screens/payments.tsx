import { useState, type FormEvent } from 'react';
import { runOperation } from '../api';
import { centsOf, endOfDay, label, money, startOfDay, when } from '../format';
import { may } from '../permissions';
import { navigate, type Params } from '../route';
import { Badge, ConfirmDialog, Done, Facts, FilterField, FilterForm, FilterSelect, Link, Loading, NoRows, Pager, Problem, ScreenTitle, SortHeader, Table, messageOf, useMe, useOperation, type Pagination, type Tone } from '../ui';

export const PAYMENT_STATUSES: [string, string][] = [
  ['', 'Any status'],
  ['PENDING', 'Pending'],
  ['COMPLETED', 'Completed'],
  ['FAILED', 'Failed'],
  ['REFUNDED', 'Refunded'],
];

export function paymentTone(status: string): Tone {
  return status === 'COMPLETED' ? 'good' : status === 'FAILED' ? 'bad' : status === 'REFUNDED' ? 'info' : 'neutral';
}

interface FoundPayment {
  id: string;
  status: string;
  amount: number;
  customerEmail: string | null;
  createdAt: string;
  shop: { id: string; name: string; seller: { email: string } };
}

const SEARCH_FIELDS = ['id', 'email', 'metadataKey', 'metadataValue', 'shopId', 'status', 'from', 'to'];

/** Payment search: by id, the start of the customer's e-mail, a metadata key and value, shop, status and dates. */
export function PaymentSearchScreen({ params }: { params: Params }) {
  const searched = SEARCH_FIELDS.some((field) => params[field]);
  const filter = {
    id: params.id || null,
    customerEmailPrefix: params.email || null,
    metadataKey: params.metadataKey || null,
    metadataValue: params.metadataKey ? (params.metadataValue ?? '') : null,
    shopId: params.shopId || null,
    status: params.status || null,
    createdFrom: startOfDay(params.from ?? ''),
    createdTo: endOfDay(params.to ?? ''),
    order: params.order || null,
  };
  const loaded = useOperation<{ searchPayments: { items: FoundPayment[]; pagination: Pagination } }>('FindPayments', { filter, page: Number(params.page) || 1, limit: 20 });
  return (
    <>
      <ScreenTitle>Payments</ScreenTitle>
      <FilterForm params={params} fields={SEARCH_FIELDS} label="Search payments">
        <FilterField name="id" label="Payment ID" params={params} placeholder="pay_…" />
        <FilterField name="email" label="Customer e-mail" params={params} type="search" hint="The address or its start, 3 characters or more" inputMode="email" />
        <FilterField name="metadataKey" label="Metadata key" params={params} placeholder="order_id" />
        <FilterField name="metadataValue" label="Metadata value" params={params} hint="The exact value set by the seller" />
        <FilterField name="shopId" label="Shop ID" params={params} placeholder="shop_…" />
        <FilterSelect name="status" label="Status" params={params} options={PAYMENT_STATUSES} />
        <FilterField name="from" label="Created from" params={params} type="date" />
        <FilterField name="to" label="Created until" params={params} type="date" hint="The day itself included (UTC)" />
      </FilterForm>
      <Loading loaded={loaded} what="payments">
        {({ searchPayments: found }) => (
          <>
            <Table caption={searched ? 'Payments found' : 'Latest payments'}>
              <thead>
                <tr>
                  <SortHeader label="Created" params={params} first="NEWEST_FIRST" second="OLDEST_FIRST" isDefault="first" />
                  <th scope="col">Payment</th>
                  <th scope="col">Shop</th>
                  <SortHeader label="Amount" params={params} first="LARGEST_FIRST" second="SMALLEST_FIRST" />
                  <th scope="col">Status</th>
                  <th scope="col">Customer</th>
                </tr>
              </thead>
              <tbody>
                {found.items.length === 0 && <NoRows columns={6}>No payment matches this search.</NoRows>}
                {found.items.map((payment) => (
                  <tr key={payment.id}>
                    <td>{when(payment.createdAt)}</td>
                    <td>
                      <Link to={{ view: 'payment', id: payment.id }}>{payment.id}</Link>
                    </td>
                    <td>
                      <Link to={{ view: 'shop', id: payment.shop.id }}>{payment.shop.name}</Link>
                    </td>
                    <td className="number">{money(payment.amount)}</td>
                    <td>
                      <Badge tone={paymentTone(payment.status)}>{label(payment.status)}</Badge>
                    </td>
                    <td>{payment.customerEmail ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
            <Pager pagination={found.pagination} params={params} noun="payments" />
          </>
        )}
      </Loading>
    </>
  );
}

export interface PaymentStory {
  id: string;
  status: string;
  amount: number;
  fee: number;
  netAmount: number;
  currency: string;
  customerEmail: string | null;
  customerName: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: string;
  completedAt: string | null;
  checkoutStage: string;
  card: { brand: string | null; last4: string | null; expMonth: number | null; expYear: number | null } | null;
  threeDsOutcome: string | null;
  failureCode: string | null;
  needsAttentionAt: string | null;
  shop: { id: string; name: string; status: string; seller: { id: string; email: string; status: string } };
  refunds: { id: string; status: string; amount: number; reason: string; rejectionReason: string | null; failureReason: string | null; createdAt: string; refundedAt: string | null; requestedBy: { email: string } | null; reviewedBy: { email: string } | null }[];
  dispute: { id: string; status: string; amount: number; reason: string | null; acquirerReference: string; liability: string; sellerShare: number; contestFlaggedAt: string | null; openedAt: string; updatedAt: string } | null;
  ledgerEntries: { account: string; kind: string; amount: number; createdAt: string }[];
  webhookDeliveries: { id: string; eventType: string; status: string; attemptCount: number; attempts: { number: number; startedAt: string; httpStatus: number | null; error: string | null; durationMs: number | null }[] }[];
  auditEntries: { createdAt: string; actor: string; action: string; targetType: string; targetId: string; reason: string | null }[];
}

/** A payment's whole story: what happened at checkout, its money in the ledger, refunds, dispute, webhooks and admin actions. */
export function PaymentStoryView({ payment: p, headingLevel = 2 }: { payment: PaymentStory; headingLevel?: 2 | 3 }) {
  const H = headingLevel === 2 ? 'h2' : 'h3';
  const metadata = Object.entries(p.metadata ?? {});
  return (
    <div className="story">
      <Facts
        label="The payment"
        rows={[
          ['Status', <Badge tone={paymentTone(p.status)}>{label(p.status)}</Badge>],
          ['Amount', `${money(p.amount)} (fee ${money(p.fee)}, seller gets ${money(p.netAmount)})`],
          ['Shop', <Link to={{ view: 'shop', id: p.shop.id }}>{p.shop.name}</Link>],
          ['Seller', `${p.shop.seller.email} (${label(p.shop.seller.status)})`],
          ['Customer', [p.customerName, p.customerEmail].filter(Boolean).join(', ') || '—'],
          ['Created', when(p.createdAt)],
          ['Completed', when(p.completedAt)],
          ['Checkout', label(p.checkoutStage)],
          ['Card', p.card ? `${p.card.brand ?? 'Card'} •••• ${p.card.last4} (expires ${String(p.card.expMonth).padStart(2, '0')}/${p.card.expYear})` : '—'],
          ['3-D Secure', label(p.threeDsOutcome)],
          ...(p.failureCode ? [['Why it failed', p.failureCode] as [string, string]] : []),
          ...(p.needsAttentionAt ? [['Needs attention since', when(p.needsAttentionAt)] as [string, string]] : []),
          ['Metadata', metadata.length ? metadata.map(([key, value]) => `${key}: ${String(value)}`).join(' · ') : '—'],
        ]}
      />

      <H>Refunds</H>
      {p.refunds.length === 0 ? (
        <p className="quiet">No refund was asked for.</p>
      ) : (
        <Table caption="Refunds of this payment" captionHidden>
          <thead>
            <tr>
              <th scope="col">Recorded</th>
              <th scope="col" className="number">
                Amount
              </th>
              <th scope="col">Status</th>
              <th scope="col">Reason</th>
              <th scope="col">Recorded by</th>
              <th scope="col">Decided by</th>
            </tr>
          </thead>
          <tbody>
            {p.refunds.map((refund) => (
              <tr key={refund.id}>
                <td>
                  <Link to={{ view: 'refund', id: refund.id }}>{when(refund.createdAt)}</Link>
                </td>
                <td className="number">{money(refund.amount)}</td>
                <td>{label(refund.status)}</td>
                <td>{[refund.reason, refund.rejectionReason && `rejected: ${refund.rejectionReason}`, refund.failureReason && `failed: ${refund.failureReason}`].filter(Boolean).join(' · ')}</td>
                <td>{refund.requestedBy?.email ?? 'The seller'}</td>
                <td>{refund.reviewedBy?.email ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}

      <H>Dispute</H>
      {p.dispute ? (
        <Facts
          label="Dispute"
          rows={[
            ['Status', <Link to={{ view: 'dispute', id: p.dispute.id }}>{label(p.dispute.status)}</Link>],
            ['Amount', money(p.dispute.amount)],
            ['Reason', p.dispute.reason ?? '—'],
            ['Borne by', `${label(p.dispute.liability)} (seller bears ${money(p.dispute.sellerShare)})`],
            ...(p.dispute.contestFlaggedAt ? [['To contest since', when(p.dispute.contestFlaggedAt)] as [string, string]] : []),
            ['Opened', when(p.dispute.openedAt)],
          ]}
        />
      ) : (
        <p className="quiet">No dispute.</p>
      )}

      <H>Ledger</H>
      {p.ledgerEntries.length === 0 ? (
        <p className="quiet">Nothing booked (the payment never completed).</p>
      ) : (
        <Table caption="Ledger lines of this payment" captionHidden>
          <thead>
            <tr>
              <th scope="col">Booked</th>
              <th scope="col">Account</th>
              <th scope="col">Kind</th>
              <th scope="col" className="number">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {p.ledgerEntries.map((entry, index) => (
              <tr key={index}>
                <td>{when(entry.createdAt)}</td>
                <td>{label(entry.account)}</td>
                <td>{label(entry.kind)}</td>
                <td className="number">{money(entry.amount)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}

      <H>Webhook deliveries</H>
      {p.webhookDeliveries.length === 0 ? (
        <p className="quiet">No webhook was sent for it.</p>
      ) : (
        <Table caption="Webhook deliveries of this payment" captionHidden>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
            </tr>
          </thead>
          <tbody>
            {p.webhookDeliveries.map((delivery) => (
              <tr key={delivery.id}>
                <td>{delivery.eventType}</td>
                <td>{label(delivery.status)}</td>
                <td>
                  {delivery.attempts.length === 0
                    ? 'Not tried yet'
                    : delivery.attempts.map((attempt) => `#${attempt.number} ${when(attempt.startedAt)}: ${attempt.httpStatus ? `HTTP ${attempt.httpStatus}` : (attempt.error ?? 'no answer')}`).join(' · ')}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}

      <H>Admin actions</H>
      {p.auditEntries.length === 0 ? (
        <p className="quiet">No admin acted on it.</p>
      ) : (
        <ul className="timeline">
          {p.auditEntries.map((entry, index) => (
            <li key={index}>
              {when(entry.createdAt)}: {entry.actor}, {entry.action}
              {entry.reason ? ` (“${entry.reason}”)` : ''}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A payment's page: its story, and for support and finance the form that records a refund request. */
export function PaymentScreen({ id }: { id: string }) {
  const me = useMe();
  const loaded = useOperation<{ payment: PaymentStory }>('PaymentStory', { id });
  // Held here, not in the tools: once settled, the payment no longer shows them, and the answer must stay on screen.
  const [acquirerAnswer, setAcquirerAnswer] = useState<string | null>(null);
  const settled = (answer: string) => {
    setAcquirerAnswer(answer);
    loaded.reload();
  };
  return (
    <>
      <ScreenTitle>Payment {id}</ScreenTitle>
      {acquirerAnswer && <Done>{acquirerAnswer}</Done>}
      <Loading loaded={loaded} what="the payment">
        {({ payment }) => (
          <>
            {payment.status === 'COMPLETED' && may(me.role, 'recordRefund') && <RecordRefund payment={payment} onRecorded={loaded.reload} />}
            {may(me.role, 'settleAcquirerOutcomes') && <AskTheAcquirer payment={payment} onSettled={settled} />}
            <PaymentStoryView payment={payment} />
          </>
        )}
      </Loading>
    </>
  );
}

/**
 * Finance's tools for an outcome the acquirer's answer never settled (docs/admin.md, "Settling by hand"): ask the acquirer
 * now (the look-up reconciliation makes), or, where it cannot say, record what its own records say, for another finance
 * admin to confirm (four eyes). A refund carried out can be recorded as failed afterwards. Each with a reason, audited.
 */
function AskTheAcquirer({ payment, onSettled }: { payment: PaymentStory; onSettled(answer: string): void }) {
  const me = useMe();
  const [asking, setAsking] = useState<OpenOutcome | null>(null);
  const [recording, setRecording] = useState<OpenOutcome | null>(null);
  const open: OpenOutcome[] = [
    ...(payment.status === 'PENDING' && payment.checkoutStage === 'PROCESSING' ? [{ id: payment.id, what: 'this payment', answers: PAYMENT_ANSWERS }] : []),
    ...payment.refunds.filter((r) => r.status === 'PROCESSING').map((r) => ({ id: r.id, what: `the refund of ${money(r.amount)}`, answers: REFUND_ANSWERS })),
  ];
  const carriedOut = payment.refunds.filter((r) => r.status === 'REFUNDED').map((r) => ({ id: r.id, what: `the refund of ${money(r.amount)}`, answers: FAILED_AFTER_SUCCESS }));
  if (open.length + carriedOut.length === 0) return null;
  return (
    <section className="ask-acquirer" aria-labelledby="ask-acquirer">
      <h2 id="ask-acquirer">{open.length > 0 ? 'Outcome unknown' : 'Refunds carried out'}</h2>
      {open.length > 0 && <p className="quiet">The acquirer's answer has not reached us. Ask it now: what it says is settled here, as reconciliation would. Where it cannot say, record what its own records show; another finance admin confirms it.</p>}
      {open.map((item) => (
        <p key={item.id}>
          <button type="button" className="secondary" onClick={() => setAsking(item)}>
            Ask the acquirer about {item.what}
          </button>{' '}
          <button type="button" className="secondary" onClick={() => setRecording(item)}>
            Record the acquirer's answer for {item.what}
          </button>
        </p>
      ))}
      {carriedOut.map((item) => (
        <p key={item.id}>
          <button type="button" className="secondary" onClick={() => setRecording(item)}>
            Record that the acquirer failed {item.what}
          </button>
        </p>
      ))}
      {asking && (
        <ConfirmDialog
          title={`Ask the acquirer about ${asking.what}?`}
          confirmLabel="Ask now"
          fields={[{ name: 'reason', label: 'Reason (kept in the audit log)', required: true, multiline: true }]}
          onClose={() => setAsking(null)}
          onConfirm={async ({ reason }) => {
            const { settleWithAcquirer } = await runOperation<{ settleWithAcquirer: { found: string; outcome: string } }>(me.auth, 'SettleWithAcquirer', { id: asking.id, reason });
            setAsking(null);
            onSettled(`The acquirer answered ${label(settleWithAcquirer.found)}: ${label(settleWithAcquirer.outcome)}.`);
          }}
        >
          <p>{asking.id}</p>
        </ConfirmDialog>
      )}
      {recording && (
        <ConfirmDialog
          title={`Record the acquirer's answer for ${recording.what}`}
          confirmLabel="Record for confirmation"
          fields={[
            { name: 'answer', label: "What the acquirer's records say", required: true, options: recording.answers },
            ...(recording.answers === FAILED_AFTER_SUCCESS ? [] : [{ name: 'acquirerReference', label: "The acquirer's reference", hint: 'Its PSP reference; needed when it authorised or refunded.' }]),
            { name: 'reason', label: 'Where you read it, and why (kept in the audit log)', required: true, multiline: true },
          ]}
          onClose={() => setRecording(null)}
          onConfirm={async ({ answer: said, acquirerReference, reason }) => {
            await runOperation(me.auth, 'ProposeSettlement', { input: { targetId: recording.id, answer: said, acquirerReference: acquirerReference || null, reason } });
            setRecording(null);
            onSettled(`Recorded: ${label(said)} for ${recording.id}. Another finance admin confirms it on Home before anything moves.`);
          }}
        >
          <p>{recording.id}: nothing moves until another finance admin confirms it.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

type OpenOutcome = { id: string; what: string; answers: [string, string][] };
const PAYMENT_ANSWERS: [string, string][] = [
  ['AUTHORISED', 'Authorised'],
  ['REFUSED', 'Refused'],
  ['NEVER_RECEIVED', 'Never received'],
];
const REFUND_ANSWERS: [string, string][] = [
  ['REFUNDED', 'Refunded'],
  ['REFUND_FAILED', 'Refund failed'],
];
const FAILED_AFTER_SUCCESS: [string, string][] = [['REFUND_FAILED', 'Refund failed after it was carried out']];

function RecordRefund({ payment, onRecorded }: { payment: PaymentStory; onRecorded(): void }) {
  const me = useMe();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const reason = String(form.get('reason') ?? '').trim();
    const amountText = String(form.get('amount') ?? '').trim();
    const amount = amountText === '' ? null : centsOf(amountText);
    if (!reason) return setProblem('A reason is required: what the seller asked for, and why.');
    if (amountText !== '' && amount === null) return setProblem('Write the amount in dollars and cents, for example 12.50, or leave it empty for all that remains.');
    setBusy(true);
    try {
      const { requestRefund } = await runOperation<{ requestRefund: { id: string } }>(me.auth, 'RequestRefund', { paymentId: payment.id, reason, amount });
      onRecorded();
      navigate({ view: 'refund', id: requestRefund.id });
    } catch (error) {
      setProblem(messageOf(error));
      setBusy(false);
    }
  };
  return (
    <details className="record-refund">
      <summary>Record a refund request</summary>
      <form onSubmit={submit} noValidate aria-label="Refund request">
        <p className="quiet">A finance admin other than you approves or rejects it, within 24 hours.</p>
        <div className="field">
          <label htmlFor="refund-amount">Amount in USD (optional)</label>
          <input id="refund-amount" name="amount" inputMode="decimal" autoComplete="off" aria-describedby="refund-amount-hint" />
          <small id="refund-amount-hint" className="hint">
            Empty: all that remains of {money(payment.amount)}.
          </small>
        </div>
        <div className="field">
          <label htmlFor="refund-reason">Reason</label>
          <textarea id="refund-reason" name="reason" rows={3} maxLength={500} aria-invalid={problem ? true : undefined} aria-describedby={problem ? 'refund-problem' : undefined} />
        </div>
        {problem && <Problem id="refund-problem">{problem}</Problem>}
        <button type="submit" disabled={busy}>
          {busy ? 'Recording…' : 'Record refund request'}
        </button>
      </form>
    </details>
  );
}

