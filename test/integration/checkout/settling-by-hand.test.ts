import { AdminRole } from '../../../src/modules/admins/admin-role';
import { AuditEntry } from '../../../src/modules/audit/audit-entry.entity';
import { adminClient } from '../../support/admin-client';
import { adyenSuite } from '../../support/adyen-suite';
import { checkoutClient, CARD } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

/**
 * Finance's tools for what the acquirer's notifications left undone (docs/admin.md, "Settling by hand"): a notification
 * applied again or dismissed, and a payment or refund left processing settled by asking the acquirer now. Each takes a
 * reason, is for finance only, and is audited.
 */
const LIST = '{ flaggedAcquirerNotifications(limit: 200) { id eventCode merchantReference status problem } }';

describe('with Adyen: notifications that booked nothing', () => {
  const suite = adyenSuite('settling-by-hand', { RATE_LIMIT_PER_MINUTE: '1000' });

  async function flaggedAuthorisation() {
    const shop = await suite.service.createShop();
    const id = (await sellerClient(suite.service.url, shop.apiKey).create(VALID_PAYMENT)).body.data.id as string;
    await checkoutClient(suite.service.url).pay(id, '4111111111111111');
    const psp = (await suite.reload(id)).processorReference!;
    // An AUTHORISATION in another currency does not fit its payment: flagged.
    expect((await suite.adyen.notify({ eventCode: 'AUTHORISATION', pspReference: psp, merchantReference: id, amount: { currency: 'EUR', value: VALID_PAYMENT.amount }, success: true })).text).toBe('[accepted]');
    await suite.applyNotifications();
    const finance = await adminClient(suite.service, AdminRole.FINANCE);
    const item = (await finance.ok(LIST)).flaggedAcquirerNotifications.find((n: { merchantReference: string }) => n.merchantReference === id);
    expect(item).toMatchObject({ status: 'flagged' });
    return { id, item, finance };
  }

  test('finance applies a flagged notification again (the same checks run: it is flagged again), audited with the reason', async () => {
    const { item, finance } = await flaggedAuthorisation();
    const retried = await finance.ok('mutation ($id: ID!) { retryAcquirerNotification(id: $id, reason: "Adyen corrected the amount") { id status } }', { id: item.id });
    expect(retried.retryAcquirerNotification).toEqual({ id: item.id, status: 'received' });
    await suite.applyNotifications();
    expect((await finance.ok(LIST)).flaggedAcquirerNotifications.find((n: { id: string }) => n.id === item.id)).toMatchObject({ status: 'flagged' });
    const [entry] = await suite.service.em().find(AuditEntry, { targetId: item.id, action: 'acquirer_notification.retried' });
    expect(entry).toMatchObject({ targetType: 'acquirer_notification', reason: 'Adyen corrected the amount' });
  });

  test('finance dismisses a notification: no longer listed, audited; a second dismissal is refused clearly', async () => {
    const { item, finance } = await flaggedAuthorisation();
    const dismissed = await finance.ok('mutation ($id: ID!) { dismissAcquirerNotification(id: $id, reason: "Checked in the Customer Area: a test item") { id status } }', { id: item.id });
    expect(dismissed.dismissAcquirerNotification).toEqual({ id: item.id, status: 'dismissed' });
    expect((await finance.ok(LIST)).flaggedAcquirerNotifications.map((n: { id: string }) => n.id)).not.toContain(item.id);
    const again = await finance.run('mutation ($id: ID!) { dismissAcquirerNotification(id: $id, reason: "again") { id } }', { id: item.id });
    expect(again.errors?.[0].extensions?.code).toBe('ACQUIRER_NOTIFICATION_NOT_OPEN');
    expect(await suite.service.em().count(AuditEntry, { targetId: item.id, action: 'acquirer_notification.dismissed' })).toBe(1);
  });

  test('support and owners may not settle: the server refuses them', async () => {
    const { item } = await flaggedAuthorisation();
    for (const role of [AdminRole.SUPPORT, AdminRole.OWNER]) {
      const admin = await adminClient(suite.service, role);
      const answer = await admin.run('mutation ($id: ID!) { dismissAcquirerNotification(id: $id, reason: "no") { id } }', { id: item.id });
      expect(answer.errors?.[0].extensions?.code).toBe('FORBIDDEN_ROLE');
    }
  });

  test('asking Adyen about a lost answer before its notification settles nothing: v71 has no look-up', async () => {
    const shop = await suite.service.createShop();
    const id = (await sellerClient(suite.service.url, shop.apiKey).create(VALID_PAYMENT)).body.data.id as string;
    await checkoutClient(suite.service.url).run('SubmitCard', { id, card: { number: '4111111111111111', ...CARD, nameOnCard: 'LOSE ANSWER' } });
    const finance = await adminClient(suite.service, AdminRole.FINANCE);
    const { settleWithAcquirer } = await finance.ok('mutation ($id: ID!) { settleWithAcquirer(id: $id, reason: "Seller asks") { found outcome } }', { id });
    expect(settleWithAcquirer.found).toBe('unknown');
    expect((await suite.reload(id)).status).toBe('pending');
  });
});

describe('with the simulated acquirer: asking it now', () => {
  const service = useTestService();

  test('a payment whose answer was lost is settled by what the acquirer says, audited with the reason', async () => {
    const shop = await service.createShop();
    const id = (await sellerClient(service.url, shop.apiKey).create(VALID_PAYMENT)).body.data.id as string;
    const paid = await checkoutClient(service.url).pay(id, '4000000000000341');
    expect(paid.body.errors?.[0]?.extensions?.code).toBe('PROCESSOR_UNAVAILABLE');
    const finance = await adminClient(service, AdminRole.FINANCE);
    const { settleWithAcquirer } = await finance.ok('mutation ($id: ID!) { settleWithAcquirer(id: $id, reason: "Customer says the card was charged") { found outcome } }', { id });
    expect(settleWithAcquirer).toEqual({ found: 'approved', outcome: 'completed' });
    expect((await sellerClient(service.url, shop.apiKey).retrieve(id)).body.data.status).toBe('completed');
    const [entry] = await service.em().find(AuditEntry, { targetId: id, action: 'acquirer.settled_by_lookup' });
    expect(entry).toMatchObject({ reason: 'Customer says the card was charged', details: { found: 'approved', outcome: 'completed' } });
    // Asked again: already settled, nothing more.
    expect((await finance.ok('mutation ($id: ID!) { settleWithAcquirer(id: $id, reason: "again") { found outcome } }', { id })).settleWithAcquirer).toEqual({ found: 'not asked', outcome: 'already completed' });
  });
});
