import { adminTeam, completedPayment, eventually, payableShop } from '../../support/admin-client';
import { checkoutClient } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

const service = useTestService();
let team: Awaited<ReturnType<typeof adminTeam>>;

beforeAll(async () => {
  team = await adminTeam(service);
});

/** The service's info lines with message `msg` (logs are parsed JSON lines of the running service). */
const lines = (msg: string) => service.logs.filter((line) => line.msg === msg && line.level === 30);
const logged = (msg: string, ids: Record<string, unknown>) => eventually(async () => lines(msg).find((line) => Object.entries(ids).every(([k, v]) => line[k] === v)), 10_000, `"${msg}" with ${JSON.stringify(ids)}`);

describe('business events are logged at info with their ids', () => {
  test('payment created and completed; refund requested, approved and carried out; withdrawal requested and paid', async () => {
    const { shop, paymentId } = await completedPayment(service, 20_000, await payableShop(service));
    expect(await logged('payment created', { paymentId, shopId: shop.shop.id, amount: 20_000 })).toHaveProperty('requestId');
    await logged('payment completed', { paymentId });

    // Separated duties (docs/admin.md): support records, finance approves and pays.
    const { support, finance } = team;
    const { requestWithdrawal } = await support.ok(`mutation ($shopId: ID!) { requestWithdrawal(amount: 5000, shopId: $shopId) { id } }`, { shopId: shop.shop.id });
    await logged('withdrawal requested', { withdrawalId: requestWithdrawal.id, shopId: shop.shop.id, amount: 5000 });
    await finance.ok(`mutation ($id: ID!) { approveWithdrawal(id: $id) { id } }`, { id: requestWithdrawal.id });
    await finance.ok(`mutation ($id: ID!) { markWithdrawalPaid(id: $id, reference: "TRX-1") { id } }`, { id: requestWithdrawal.id });
    await logged('withdrawal paid', { withdrawalId: requestWithdrawal.id, adminId: finance.admin.id });

    const { requestRefund } = await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "returned") { id } }`, { p: paymentId });
    await logged('refund requested', { refundId: requestRefund.id, paymentId, adminId: support.admin.id });
    await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: requestRefund.id });
    await logged('refund approved', { refundId: requestRefund.id, adminId: finance.admin.id });
    await logged('refund carried out', { refundId: requestRefund.id, paymentId });
  });

  test('a declined card logs payment failed with its reason; a replayed create logs nothing new', async () => {
    const shop = await service.createShop();
    const seller = sellerClient(service.url, shop.apiKey);
    const first = await seller.create(VALID_PAYMENT, { 'Idempotency-Key': 'events-1' });
    await seller.create(VALID_PAYMENT, { 'Idempotency-Key': 'events-1' });
    const paymentId = first.body.data.id as string;
    await checkoutClient(service.url).pay(paymentId, '4000000000000002');
    await logged('payment failed', { paymentId, code: 'card_declined' });
    expect(lines('payment created').filter((line) => line.paymentId === paymentId)).toHaveLength(1);
    expect(lines('payment completed').filter((line) => line.paymentId === paymentId)).toHaveLength(0);
  });
});
