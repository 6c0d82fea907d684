import { useState } from 'react';
import { runOperation } from '../api';
import { label, money, when } from '../format';
import { may } from '../permissions';
import type { Params } from '../route';
import { Badge, ConfirmDialog, Done, Facts, FilterForm, FilterSelect, Link, Loading, NoRows, Pager, ScreenTitle, SortHeader, Table, useMe, useOperation, type Pagination, type Tone } from '../ui';

interface ListedDispute {
  id: string;
  status: string;
  amount: number;
  reason: string | null;
  liability: string;
  sellerShare: number;
  contestFlaggedAt: string | null;
  openedAt: string;
  updatedAt: string;
  payment: { id: string; amount: number; shop: { id: string; name: string } };
}

const DISPUTE_FILTERS: [string, string][] = [
  ['', 'Open disputes'],
  ['ALL', 'Every dispute'],
  ['NOTIFIED', 'Notified (inquiry)'],
  ['CHARGED_BACK', 'Charged back'],
  ['REVERSED', 'Reversed'],
  ['SECOND_CHARGEBACK', 'Second chargeback'],
  ['WON', 'Won'],
  ['LOST', 'Lost'],
  ['CLOSED', 'Closed'],
];

export const disputeTone = (status: string): Tone => (status === 'WON' || status === 'CLOSED' ? 'good' : status === 'LOST' ? 'bad' : 'warn');

/** Disputes across shops: open ones by default, oldest first. */
export function DisputeListScreen({ params }: { params: Params }) {
  const status = params.status && params.status !== 'ALL' ? params.status : null;
  const loaded = useOperation<{ disputes: { items: ListedDispute[]; pagination: Pagination } }>('Disputes', {
    status,
    open: params.status ? null : true,
    page: Number(params.page) || 1,
    limit: 20,
    order: params.order || null,
  });
  return (
    <>
      <ScreenTitle>Disputes</ScreenTitle>
      <FilterForm params={params} fields={['status']} label="Filter disputes">
        <FilterSelect name="status" label="Show" params={params} options={DISPUTE_FILTERS} />
      </FilterForm>
      <Loading loaded={loaded} what="disputes">
        {({ disputes }) => (
          <>
            <Table caption={params.status ? 'Disputes' : 'Open disputes'}>
              <thead>
                <tr>
                  <SortHeader label="Opened" params={params} first="OLDEST_FIRST" second="NEWEST_FIRST" isDefault="first" />
                  <th scope="col">Shop</th>
                  <th scope="col">Payment</th>
                  <SortHeader label="Amount" params={params} first="LARGEST_FIRST" second="SMALLEST_FIRST" />
                  <th scope="col">Status</th>
                  <th scope="col">Borne by</th>
                  <th scope="col">Dispute</th>
                </tr>
              </thead>
              <tbody>
                {disputes.items.length === 0 && <NoRows columns={7}>No dispute matches this filter.</NoRows>}
                {disputes.items.map((dispute) => (
                  <tr key={dispute.id}>
                    <td>{when(dispute.openedAt)}</td>
                    <td>
                      <Link to={{ view: 'shop', id: dispute.payment.shop.id }}>{dispute.payment.shop.name}</Link>
                    </td>
                    <td>
                      <Link to={{ view: 'payment', id: dispute.payment.id }}>{dispute.payment.id}</Link>
                    </td>
                    <td className="number">{money(dispute.amount)}</td>
                    <td>
                      <Badge tone={disputeTone(dispute.status)}>{label(dispute.status)}</Badge> {dispute.contestFlaggedAt && <Badge tone="bad">To contest</Badge>}
                    </td>
                    <td>{label(dispute.liability)}</td>
                    <td>
                      <Link to={{ view: 'dispute', id: dispute.id }} aria-label={`Open dispute ${dispute.id}`}>
                        Open
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
            <Pager pagination={disputes.pagination} params={params} noun="disputes" />
          </>
        )}
      </Loading>
    </>
  );
}

interface DisputeDetail extends Omit<ListedDispute, 'payment'> {
  currency: string;
  acquirerReference: string;
  evidenceRefundId: string | null;
  /** The simulated acquirer runs and the chargeback stands: its issuer can be made to reverse it. */
  canSimulateReversal: boolean;
  payment: { id: string; status: string; amount: number; customerEmail: string | null; completedAt: string | null; shop: { id: string; name: string; seller: { id: string; email: string } } };
}

/** One dispute: where it stands, who bears it, and what to contest it with. */
export function DisputeScreen({ id }: { id: string }) {
  const me = useMe();
  const loaded = useOperation<{ dispute: DisputeDetail }>('Dispute', { id });
  const [reversing, setReversing] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  return (
    <>
      <ScreenTitle>Dispute {id}</ScreenTitle>
      <p>
        <Link to={{ view: 'disputes' }}>Back to the disputes</Link>
      </p>
      {done && <Done>{done}</Done>}
      <Loading loaded={loaded} what="the dispute">
        {({ dispute: d }) => (
          <>
            {d.contestFlaggedAt && (
              <p className="callout">
                The payment had been refunded before this chargeback came, so the platform bears it. Contest it in the acquirer's Customer Area with the refund
                {d.evidenceRefundId ? (
                  <>
                    {' '}
                    <Link to={{ view: 'refund', id: d.evidenceRefundId }}>{d.evidenceRefundId}</Link>
                  </>
                ) : null}{' '}
                as evidence.
              </p>
            )}
            <Facts
              rows={[
                ['Status', <Badge tone={disputeTone(d.status)}>{label(d.status)}</Badge>],
                ['Amount', money(d.amount)],
                ['Reason given', d.reason ?? '—'],
                ['Borne by', `${label(d.liability)}: the seller ${money(d.sellerShare)}, the platform ${money(d.amount - d.sellerShare)}`],
                ['Acquirer reference', d.acquirerReference],
                ['Opened', when(d.openedAt)],
                ['Last change', when(d.updatedAt)],
                ['Payment', <Link to={{ view: 'payment', id: d.payment.id }}>{`${d.payment.id} (${money(d.payment.amount)}, ${label(d.payment.status)})`}</Link>],
                ['Shop', <Link to={{ view: 'shop', id: d.payment.shop.id }}>{d.payment.shop.name}</Link>],
                ['Seller', d.payment.shop.seller.email],
                ['Customer', d.payment.customerEmail ?? '—'],
              ]}
            />
            <p className="quiet">Disputes move by the acquirer's notifications only; what each step books is on the payment's page.</p>
            {d.canSimulateReversal && may(me.role, 'simulateIssuer') && (
              <section aria-labelledby="simulated-issuer" className="simulated-issuer">
                <h2 id="simulated-issuer">Test mode: the simulated acquirer</h2>
                <p className="notice">No real card was charged. You can play the card's bank and reverse this chargeback, as when a defence is won: the simulator tells it as the acquirer would, and {money(d.amount)} goes back to the liable balance.</p>
                <button type="button" onClick={() => setReversing(true)}>
                  Simulate the issuer reversing it
                </button>
              </section>
            )}
            {reversing && (
              <ConfirmDialog
                title="Simulate the issuer reversing this chargeback?"
                confirmLabel="Reverse the chargeback"
                onClose={() => setReversing(false)}
                onConfirm={async () => {
                  const { simulateChargebackReversal } = await runOperation<{ simulateChargebackReversal: { status: string } }>(me.auth, 'SimulateChargebackReversal', { id: d.id });
                  setReversing(false);
                  setDone(`The simulated issuer reversed the chargeback: the dispute is ${label(simulateChargebackReversal.status).toLowerCase()}.`);
                  loaded.reload();
                }}
              >
                <p>
                  The simulated acquirer tells the reversal (its CHARGEBACK_REVERSED), and it is applied as the acquirer's own event: the dispute is reversed and {money(d.amount)} credited
                  back. This is only possible with the simulated acquirer.
                </p>
              </ConfirmDialog>
            )}
          </>
        )}
      </Loading>
    </>
  );
}
