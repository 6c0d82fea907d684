import type { EntityManager } from '@mikro-orm/postgresql';
import {
  bookDisputePosition,
  bookLiveTestRefund,
  bookPayout,
  bookRefund,
  bookRefundFailure,
  bookRefundReversal,
  bookWithdrawalHold,
  bookWithdrawalRelease,
  completionPostings,
  newJournalId,
  postJournal,
} from '../../src/modules/ledger/ledger.service';
import type { Dispute } from '../../src/modules/disputes/dispute.entity';
import type { Seller } from '../../src/modules/identity/seller.entity';
import type { Payment } from '../../src/modules/payments/payment.entity';
import type { Refund } from '../../src/modules/refunds/refund.entity';
import type { Withdrawal } from '../../src/modules/withdrawals/withdrawal.entity';

/**
 * The journals the ledger writes (src/modules/ledger/ledger.service.ts), read off a unit of work that records what it
 * is given: each money movement's lines, accounts and kinds, which lines name the seller, what each journal belongs
 * to, that a journal must balance and holds no zero lines. The database's own checks (balance at commit, the unique
 * indexes) are met by the module and integration tests.
 */
interface Written {
  journal: string;
  line: string;
  seller: string | null;
  owner: Record<string, string | null>;
}

/** A unit of work that keeps the entries created in it; `booked`: what a dispute's journals already hold. */
function recordingTx(booked = { seller: '0', platform: '0', customer: '0' }) {
  const written: Written[] = [];
  const asked: unknown[][] = [];
  const tx = {
    create: (_entity: unknown, data: Record<string, string | number | null>) => {
      const id = (column: string) => (data[column] as string | null | undefined) ?? null;
      const owner = { payment: id('paymentId'), withdrawal: id('withdrawalId'), refund: id('refundId'), dispute: id('disputeId') };
      written.push({ journal: data.journalId as string, line: `${data.account} ${data.kind} ${data.amount}`, seller: id('sellerId'), owner });
      return data;
    },
    flush: async () => undefined,
    execute: async (...args: unknown[]) => (asked.push(args), [booked]),
  } as unknown as EntityManager;
  return { tx, written, asked };
}

const seller = { id: 'sel_1' } as Seller;
const payment = { id: 'pay_1' } as Payment;
const refund = { id: 'ref_1', amount: 700 } as Refund;
const withdrawal = { id: 'wdr_1', amount: 5000 } as Withdrawal;
const lines = (written: Written[]) => written.map((w) => [w.line, w.seller]);
const noOwner = { payment: null, withdrawal: null, refund: null, dispute: null };

test('a journal that does not balance is refused before anything is written; zero lines are left out', () => {
  const { tx, written } = recordingTx();
  expect(() => postJournal(tx, {}, [{ account: 'seller_balance' as never, kind: 'x', amount: 1 }])).toThrow('journal does not balance');
  expect(written).toEqual([]);
  const journal = postJournal(tx, { payment }, [
    { account: 'seller_balance' as never, kind: 'x', amount: -5, seller },
    { account: 'fee_revenue' as never, kind: 'x', amount: 0 },
    { account: 'customer_funds' as never, kind: 'x', amount: 5 },
  ]);
  expect(journal).toMatch(/^jrn_[0-9A-Za-z]{20}$/);
  expect(written).toEqual([
    { journal, line: 'seller_balance x -5', seller: 'sel_1', owner: { ...noOwner, payment: 'pay_1' } },
    { journal, line: 'customer_funds x 5', seller: null, owner: { ...noOwner, payment: 'pay_1' } },
  ]);
});

test('each journal has an id of its own', () => {
  expect(newJournalId()).toMatch(/^jrn_[0-9A-Za-z]{20}$/);
  expect(newJournalId()).not.toBe(newJournalId());
});

test("a completion's postings by its journal: the fee only on a payment's, and no other journal", () => {
  expect(completionPostings('payment', 2000)).toEqual([
    { account: 'customer_funds', kind: 'payment', amount: -2000, toSeller: false },
    { account: 'seller_balance', kind: 'payment', amount: 2000, toSeller: true },
    { account: 'seller_balance', kind: 'fee', amount: -300, toSeller: true },
    { account: 'fee_revenue', kind: 'fee', amount: 300, toSeller: false },
  ]);
  expect(completionPostings('test_payment', 2000)).toEqual([
    { account: 'customer_funds', kind: 'test_payment', amount: -2000, toSeller: false },
    { account: 'seller_balance', kind: 'test_payment', amount: 2000, toSeller: true },
  ]);
  expect(() => completionPostings('refund', 2000)).toThrow('no completion postings for the journal "refund"');
});

test("a refund's journals: taken from the seller, and given back when it fails or is reversed", () => {
  const cases: [typeof bookRefund, (string | null)[][]][] = [
    [bookRefund, [['seller_balance refund -700', 'sel_1'], ['customer_funds refund 700', null]]],
    [bookLiveTestRefund, [['seller_balance test_refund -700', 'sel_1'], ['customer_funds test_refund 700', null]]],
    [bookRefundReversal, [['customer_funds refund_reversed -700', null], ['seller_balance refund_reversed 700', 'sel_1']]],
    [bookRefundFailure, [['customer_funds refund_failed -700', null], ['seller_balance refund_failed 700', 'sel_1']]],
  ];
  for (const [book, expected] of cases) {
    const { tx, written } = recordingTx();
    book(tx, payment, seller, refund);
    expect(lines(written)).toEqual(expected);
    expect(written.map((w) => w.owner)).toEqual(expected.map(() => ({ ...noOwner, payment: 'pay_1', refund: 'ref_1' })));
  }
});

test("a withdrawal's journals: held from the seller, released back, or paid out", () => {
  const cases: [(tx: EntityManager) => void, (string | null)[][]][] = [
    [(tx) => bookWithdrawalHold(tx, withdrawal, seller), [['seller_balance withdrawal_hold -5000', 'sel_1'], ['withdrawals_payable withdrawal_hold 5000', null]]],
    [(tx) => bookWithdrawalRelease(tx, withdrawal, seller), [['withdrawals_payable withdrawal_release -5000', null], ['seller_balance withdrawal_release 5000', 'sel_1']]],
    [(tx) => bookPayout(tx, withdrawal), [['withdrawals_payable payout -5000', null], ['payouts payout 5000', null]]],
  ];
  for (const [book, expected] of cases) {
    const { tx, written } = recordingTx();
    book(tx);
    expect(lines(written)).toEqual(expected);
    expect(written.map((w) => w.owner)).toEqual(expected.map(() => ({ ...noOwner, withdrawal: 'wdr_1' })));
  }
});

describe("a dispute's position: what its state says, less what its journals already hold", () => {
  const dispute = { id: 'dsp_1', amount: 1000, sellerShare: 600, payment } as Dispute;

  test('a chargeback that stands: the customer gets the amount, the seller bears its share and the platform the rest', async () => {
    const { tx, written, asked } = recordingTx();
    await bookDisputePosition(tx, dispute, seller, 'chargeback', true);
    expect(lines(written)).toEqual([
      ['seller_balance chargeback -600', 'sel_1'],
      ['platform_disputes chargeback -400', null],
      ['customer_funds chargeback 1000', null],
    ]);
    expect(written.map((w) => w.owner)).toEqual(written.map(() => ({ ...noOwner, payment: 'pay_1', dispute: 'dsp_1' })));
    expect(asked).toEqual([[expect.stringContaining('"dispute_id" = ?'), ['dsp_1']]]);
  });

  test('one that no longer stands books back what is held; the same position twice books nothing', async () => {
    const held = recordingTx({ seller: '-600', platform: '-400', customer: '1000' });
    await bookDisputePosition(held.tx, dispute, seller, 'chargeback_reversed', false);
    expect(lines(held.written)).toEqual([
      ['seller_balance chargeback_reversed 600', 'sel_1'],
      ['platform_disputes chargeback_reversed 400', null],
      ['customer_funds chargeback_reversed -1000', null],
    ]);
    const again = recordingTx({ seller: '-600', platform: '-400', customer: '1000' });
    await bookDisputePosition(again.tx, dispute, seller, 'dispute_share', true);
    expect(again.written).toEqual([]);
  });

  test('a share weighed again books only the difference', async () => {
    const { tx, written } = recordingTx({ seller: '-1000', platform: '0', customer: '1000' });
    await bookDisputePosition(tx, dispute, seller, 'dispute_share', true);
    expect(lines(written)).toEqual([
      ['seller_balance dispute_share 400', 'sel_1'],
      ['platform_disputes dispute_share -400', null],
    ]);
  });
});
