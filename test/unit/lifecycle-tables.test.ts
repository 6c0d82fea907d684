import { LIFECYCLES } from '../../src/modules/lifecycles';
import { openStatesOf, type Lifecycle } from '../../src/platform/lifecycle/lifecycle';

/**
 * What the lifecycle tables decide that docs/lifecycles.md does not show (lifecycle-docs.test.ts pins the rest):
 * the words a refused review uses for its move, and which states still wait for something (open states are what
 * the sweeps and the admins' queues look at).
 */
const verbs = (lifecycle: Lifecycle) =>
  Object.fromEntries(Object.entries(lifecycle.moves).flatMap(([move, spec]) => (spec.verb === undefined ? [] : [[move, spec.verb]])));
const each = <T>(of: (lifecycle: Lifecycle) => T) => Object.fromEntries(LIFECYCLES.map((lifecycle) => [lifecycle.name, of(lifecycle)]));

test('a refused review names its move in words', () => {
  expect(each(verbs)).toEqual({
    payment: {},
    refund: { approve: 'approved', approveAutomatically: 'approved', reject: 'rejected' },
    dispute: {},
    withdrawal: { approve: 'approved', reject: 'rejected', pay: 'marked paid' },
    webhook_delivery: {},
    mail: {},
    acquirer_notification: {},
    settlement_proposal: { confirm: 'confirmed', reject: 'rejected' },
    shop: {},
    seller: {},
    seller_account: {},
  });
});

test('open states: neither final nor decided', () => {
  expect(each(openStatesOf)).toEqual({
    payment: ['pending', 'completed'],
    refund: ['requested', 'approved', 'processing'],
    dispute: ['notified', 'charged_back', 'reversed', 'second_chargeback'],
    withdrawal: ['requested', 'approved'],
    webhook_delivery: ['pending', 'delivered', 'failed'],
    mail: ['pending', 'sending', 'unknown', 'failed'],
    acquirer_notification: ['received', 'waiting', 'flagged', 'rejected'],
    settlement_proposal: ['proposed'],
    shop: ['active', 'inactive'],
    seller: ['active', 'inactive', 'suspended'],
    seller_account: ['new', 'verified', 'restricted'],
  });
});
