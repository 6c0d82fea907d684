import fs from 'node:fs';
import path from 'node:path';
import { LIFECYCLES } from '../../src/modules/lifecycles';
import { checkConstraints, defineLifecycle, enumOf, moveOf, openStatesOf, UnknownMoveError, type Lifecycle } from '../../src/platform/lifecycle/lifecycle';
import { PAYMENT_LIFECYCLE } from '../../src/modules/payments/payment.lifecycle';
import { REFUND_LIFECYCLE } from '../../src/modules/refunds/refund.lifecycle';
import { CheckoutStage, PaymentStatus } from '../../src/modules/payments/payment-status';
import { RefundStatus } from '../../src/modules/refunds/refund.entity';
import { WebhookDeliveryStatus } from '../../src/modules/webhooks/webhook-delivery.entity';
import { PENDING_WITHDRAWAL_STATUSES, WithdrawalStatus } from '../../src/modules/withdrawals/withdrawal.entity';
import { OPTIONAL_WEBHOOK_EVENTS } from '../../src/modules/identity/webhook-event-choice';
import { DisputeStatus } from '../../src/modules/disputes/dispute.entity';
import { DISPUTE_LIFECYCLE } from '../../src/modules/disputes/dispute.lifecycle';
import { ShopStatus } from '../../src/modules/identity/shop.entity';
import { SellerStatus } from '../../src/modules/identity/seller.entity';
import { AccountStatus } from '../../src/modules/identity/account-status';
import { SHOP_LIFECYCLE } from '../../src/modules/identity/shop.lifecycle';
import { SELLER_LIFECYCLE } from '../../src/modules/identity/seller.lifecycle';
import { SELLER_ACCOUNT_LIFECYCLE } from '../../src/modules/identity/seller-account.lifecycle';

/** The lifecycle tables (src/modules/lifecycles.ts) and what is derived from them (docs/architecture.md, "Lifecycles"). */
describe('the lifecycle tables', () => {
  test('a move the table does not hold is refused by name, before anything is written', () => {
    expect(() => moveOf(PAYMENT_LIFECYCLE, 'capture' as never)).toThrow(UnknownMoveError);
    expect(() => moveOf(PAYMENT_LIFECYCLE, 'capture' as never)).toThrow('the payment lifecycle has no move "capture"');
    // Inherited names are not moves either.
    expect(() => moveOf(REFUND_LIFECYCLE, 'toString' as never)).toThrow(UnknownMoveError);
  });

  test('a table whose move names an unknown state, or leaves a final state, is refused when defined', () => {
    const base = { name: 't', title: 'T', table: 't', column: 'status', initial: 'a', states: { a: { meaning: '' }, b: { meaning: '', final: true as const } } };
    expect(() => defineLifecycle({ ...base, moves: { go: { from: ['a'], to: 'c' as 'a', on: '' } } })).toThrow('unknown state "c"');
    expect(() => defineLifecycle({ ...base, moves: { back: { from: ['b'], to: 'a', on: '' } } })).toThrow('leaves final state "b"');
    // A stage move needs the side column that holds the stage: a table without one knows no stage at all.
    expect(() => defineLifecycle({ ...base, moves: { go: { from: ['a'], to: 'a', stage: { from: ['x'], to: 'y' }, on: '' } } })).toThrow('unknown state "x"');
  });

  test('the enums are the tables\' states, in order', () => {
    expect(Object.values(PaymentStatus)).toEqual(['pending', 'completed', 'failed', 'refunded']);
    expect(Object.values(CheckoutStage)).toEqual(['card_required', 'processing', 'authentication_required', 'finished']);
    expect(Object.values(RefundStatus)).toEqual(['requested', 'approved', 'rejected', 'processing', 'refunded', 'reversed', 'failed']);
    expect(Object.values(DisputeStatus)).toEqual(['notified', 'charged_back', 'reversed', 'second_chargeback', 'won', 'lost', 'closed']);
    expect(Object.values(WithdrawalStatus)).toEqual(['requested', 'approved', 'rejected', 'paid']);
    expect(Object.values(WebhookDeliveryStatus)).toEqual(['pending', 'delivered', 'failed']);
    expect(Object.values(ShopStatus)).toEqual(Object.keys(SHOP_LIFECYCLE.states));
    expect(Object.values(SellerStatus)).toEqual(Object.keys(SELLER_LIFECYCLE.states));
    expect(Object.values(AccountStatus)).toEqual(Object.keys(SELLER_ACCOUNT_LIFECYCLE.states));
    expect(enumOf({ some_state: { meaning: '' } })).toEqual({ SOME_STATE: 'some_state' });
    expect(PENDING_WITHDRAWAL_STATUSES).toEqual(['requested', 'approved']);
    // Decided states (a refund carried out, a dispute lost) are not open, though the acquirer may still move them.
    expect(openStatesOf(REFUND_LIFECYCLE)).toEqual(['requested', 'approved', 'processing']);
    expect(openStatesOf(DISPUTE_LIFECYCLE)).toEqual(['notified', 'charged_back', 'reversed', 'second_chargeback']);
  });

  test('every event a move declares is a webhook event shops can receive', () => {
    const events = new Set(['payment.completed', ...OPTIONAL_WEBHOOK_EVENTS]);
    for (const lifecycle of LIFECYCLES) for (const move of Object.values(lifecycle.moves)) if (move.event) expect(events).toContain(move.event);
  });

  test('every "outcome unknown" result is written down where an acquirer or receiver can leave one', () => {
    for (const lifecycle of [PAYMENT_LIFECYCLE, REFUND_LIFECYCLE] as Lifecycle[]) expect(Object.keys(lifecycle.stays ?? {})).toContain('outcome unknown');
  });

  test('check constraints come from the tables', () => {
    expect(checkConstraints(PAYMENT_LIFECYCLE as Lifecycle)).toEqual([
      { table: 'payments', name: 'payments_status_check', sql: `check ("status" in ('pending', 'completed', 'failed', 'refunded'))` },
      { table: 'payments', name: 'payments_checkout_stage_check', sql: `check ("checkout_stage" in ('card_required', 'processing', 'authentication_required', 'finished'))` },
    ]);
  });
});

/** Every source file of src/, with the path relative to the repository. */
function sources(dir = path.join(__dirname, '../../src')): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'browser' ? [] : sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}
/** The tables, their list and the engine: the only files that may spell a state. */
const isLifecycleFile = (file: string) => file.startsWith('src/platform/lifecycle/') || file.endsWith('.lifecycle.ts') || file === 'src/modules/lifecycles.ts';
const relative = (file: string) => path.relative(path.join(__dirname, '../..'), file);

describe('no status string outside the tables', () => {
  /** Migrations are history, frozen as written: they spell the states of their day (test/integration/platform/lifecycle-checks.test.ts holds the database to today's tables). */
  const HISTORY = /^src\/platform\/db\/migrations\//;
  const states = new Set(LIFECYCLES.flatMap((l) => [...Object.keys(l.states), ...Object.keys(l.side?.states ?? {})]));
  const quoted = [...states].join('|');
  /** A state compared or set in SQL, or in an object, by its string: `"status" = 'paid'`, `status: 'pending'`, `in ('a', 'b')`, `stage !== 'processing'`. */
  const PATTERNS = [
    new RegExp(`"?(status|checkout_stage)"?\\s*(=|<>|!=)\\s*'(${quoted})'`),
    new RegExp(`"?(status|checkout_stage)"?\\s+in\\s*\\(\\s*'(${quoted})'`),
    new RegExp(`\\b(status|checkoutStage)\\s*:\\s*'(${quoted})'`),
    new RegExp(`\\b(status|checkoutStage|stage)\\s*[=!]==?\\s*'(${quoted})'`),
  ];

  test.each(sources().map(relative).filter((f) => !isLifecycleFile(f) && !HISTORY.test(f)))('%s', (file) => {
    const text = fs.readFileSync(path.join(__dirname, '../..', file), 'utf8');
    const found = text.split('\n').flatMap((line, i) => (PATTERNS.some((p) => p.test(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
    expect(found).toEqual([]);
  });
});

describe('every move the code applies is in its table', () => {
  /** `movePayment(em, 'complete', …)`, `applyMove(em, REFUND_LIFECYCLE, Refund, 'claim', …)`, `moveOf(X_LIFECYCLE, 'pay')`, `moveWithdrawal(…, 'pay', …)`. */
  const uses = sources().flatMap((file) => {
    const text = fs.readFileSync(file, 'utf8');
    const found: [string, string, string][] = [];
    for (const m of text.matchAll(/movePayment\([^,]+,\s*'(\w+)'/g)) found.push([relative(file), 'payment', m[1]]);
    for (const m of text.matchAll(/(?:applyMove|applyReviewMove)\([^,]+,\s*(\w+)_LIFECYCLE,\s*\w+,\s*'(\w+)'/g)) found.push([relative(file), m[1].toLowerCase(), m[2]]);
    for (const m of text.matchAll(/moveOf\((\w+)_LIFECYCLE,\s*'(\w+)'\)/g)) found.push([relative(file), m[1].toLowerCase(), m[2]]);
    return found;
  });
  const byName = new Map(LIFECYCLES.map((l) => [l.name, l]));
  byName.set('webhook_delivery', byName.get('webhook_delivery')!);

  test('the code applies moves (the scan finds them)', () => {
    expect(uses.length).toBeGreaterThan(10);
  });

  test.each(uses)('%s: %s.%s', (_file, lifecycle, move) => {
    const table = byName.get(lifecycle === 'webhook_delivery' ? lifecycle : lifecycle);
    expect(table).toBeDefined();
    expect(Object.keys(table!.moves)).toContain(move);
  });
});
