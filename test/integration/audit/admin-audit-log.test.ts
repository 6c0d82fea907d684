import { AdminRole } from '../../../src/modules/admins/admin-role';
import { adminClient, adminTeam, completedPayment, eventually, payableShop } from '../../support/admin-client';
import { useTestService } from '../../support/test-service';

const service = useTestService();
let admin: Awaited<ReturnType<typeof adminClient>>;

beforeAll(async () => {
  admin = await adminClient(service);
});

const sql = (query: string, params: unknown[] = []) => service.em().getConnection().execute(query, params);
const LOG = `query ($adminId: ID) { auditLog(adminId: $adminId, limit: 100) { items { id adminId actor action targetType targetId reason details createdAt } pagination { total } } }`;

test("every admin action is in the audit log: who, what, target, reason, when", async () => {
  const { support, finance, owner } = await adminTeam(service);
  const started = Date.now();
  const paid = await completedPayment(service, 5000);
  const second = await completedPayment(service, 5000, await payableShop(service));

  const r1 = (await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "Item never arrived") { id } }`, { p: paid.paymentId })).requestRefund.id;
  await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id, note: "Tracking shows lost") { id } }`, { id: r1 });
  const r2 = (await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "Changed mind") { id } }`, { p: second.paymentId })).requestRefund.id;
  await finance.ok(`mutation ($id: ID!) { rejectRefund(id: $id, reason: "Past the return window") { id } }`, { id: r2 });
  const shopId = second.shop.shop.id;
  const w1 = (await support.ok(`mutation ($s: ID!) { requestWithdrawal(shopId: $s, amount: 1000) { id } }`, { s: shopId })).requestWithdrawal.id;
  await finance.ok(`mutation ($id: ID!) { approveWithdrawal(id: $id) { id } }`, { id: w1 });
  await finance.ok(`mutation ($id: ID!) { markWithdrawalPaid(id: $id, reference: "TRX-9") { id } }`, { id: w1 });
  const w2 = (await support.ok(`mutation ($s: ID!) { requestWithdrawal(shopId: $s, amount: 1000) { id } }`, { s: shopId })).requestWithdrawal.id;
  await finance.ok(`mutation ($id: ID!) { rejectWithdrawal(id: $id, reason: "Wrong bank account") { id } }`, { id: w2 });
  const created = (await owner.ok(`mutation { createSellerWithShop(email: "audit-${started}@shop.example", shop: { shopName: "Audited" }) { seller { id } shop { id } } }`)).createSellerWithShop;
  await owner.ok(`mutation ($id: ID!) { deactivateShop(id: $id, reason: "Chargebacks") { id } }`, { id: created.shop.id });
  await owner.ok(`mutation ($id: ID!) { reactivateShop(id: $id, reason: "Resolved") { id } }`, { id: created.shop.id });
  await owner.ok(`mutation ($id: ID!) { suspendSeller(id: $id, reason: "KYC expired") { id } }`, { id: created.seller.id });
  await owner.ok(`mutation ($id: ID!) { reactivateSeller(id: $id) { id } }`, { id: created.seller.id });
  await owner.ok(`mutation ($id: ID!) { deleteShop(id: $id, reason: "Seller asked") { id } }`, { id: created.shop.id });
  const replacement = (await owner.ok(`mutation ($s: ID!) { createShop(sellerId: $s, shop: { shopName: "Again" }) { shop { id } } }`, { s: created.seller.id })).createShop;

  const items = [];
  for (const who of [support, finance, owner]) items.push(...(await admin.ok(LOG, { adminId: who.admin.id })).auditLog.items);
  const auditLog = { items: items.sort((a, b) => Number(a.id) - Number(b.id)) };
  const rows = auditLog.items.map((e: Record<string, unknown>) => [e.actor, e.action, e.targetType, e.targetId, e.reason]);
  const [s, f, o] = [support.admin.email, finance.admin.email, owner.admin.email];
  expect(rows).toEqual([
    [s, 'refund.requested', 'refund', r1, 'Item never arrived'],
    [f, 'refund.approved', 'refund', r1, 'Tracking shows lost'],
    [s, 'refund.requested', 'refund', r2, 'Changed mind'],
    [f, 'refund.rejected', 'refund', r2, 'Past the return window'],
    [s, 'withdrawal.requested', 'withdrawal', w1, null],
    [f, 'withdrawal.approved', 'withdrawal', w1, null],
    [f, 'withdrawal.paid', 'withdrawal', w1, null],
    [s, 'withdrawal.requested', 'withdrawal', w2, null],
    [f, 'withdrawal.rejected', 'withdrawal', w2, 'Wrong bank account'],
    [o, 'seller.created', 'seller', created.seller.id, null],
    [o, 'shop.deactivated', 'shop', created.shop.id, 'Chargebacks'],
    [o, 'shop.reactivated', 'shop', created.shop.id, 'Resolved'],
    [o, 'seller.suspended', 'seller', created.seller.id, 'KYC expired'],
    [o, 'seller.reactivated', 'seller', created.seller.id, null],
    [o, 'shop.deleted', 'shop', created.shop.id, 'Seller asked'],
    [o, 'shop.created', 'shop', replacement.shop.id, null],
  ]);
  const ids: Record<string, string> = { [s]: support.admin.id, [f]: finance.admin.id, [o]: owner.admin.id };
  for (const entry of auditLog.items) {
    expect(entry.adminId).toBe(ids[entry.actor]);
    expect(Date.parse(entry.createdAt)).toBeGreaterThanOrEqual(started - 1000);
  }
  expect(auditLog.items.find((e: { action: string }) => e.action === 'withdrawal.paid').details).toEqual({ amount: 1000, shopId, payoutReference: 'TRX-9' });
  expect(auditLog.items.find((e: { action: string }) => e.action === 'shop.deactivated').details).toEqual({ before: 'active', after: 'inactive' });
  await eventually(async () => (await paid.seller.retrieve(paid.paymentId)).body.data.status === 'refunded');
});

test('an action that fails (an unknown shop) leaves no entry; refusals of role or four eyes do (admin-four-eyes.test.ts)', async () => {
  const actor = await adminClient(service, AdminRole.OWNER);
  const answer = await actor.run(`mutation { deactivateShop(id: "shop_missing", reason: "x") { id } }`);
  expect(answer.errors?.[0].message).toBe('Shop not found');
  expect((await admin.ok(LOG, { adminId: actor.admin.id })).auditLog.pagination.total).toBe(0);
});

test('the log is append-only: the database refuses UPDATE, DELETE and TRUNCATE', async () => {
  await adminClient(service); // creating an admin is itself logged
  await expect(sql(`update audit_log set reason = 'rewritten'`)).rejects.toThrow(/audit_log is append-only: UPDATE refused/);
  await expect(sql(`delete from audit_log`)).rejects.toThrow(/audit_log is append-only: DELETE refused/);
  await expect(sql(`truncate audit_log`)).rejects.toThrow(/audit_log is append-only: TRUNCATE refused/);
});

test('the log is paginated, newest first, and filtered by target and action', async () => {
  const paid = await completedPayment(service, 2000);
  const { support, finance } = await adminTeam(service);
  const id = (await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "one") { id } }`, { p: paid.paymentId })).requestRefund.id;
  await finance.ok(`mutation ($id: ID!) { rejectRefund(id: $id, reason: "two") { id } }`, { id });
  const byTarget = await admin.ok(`query ($t: String) { auditLog(targetId: $t, limit: 1) { items { action } pagination { total pages } } }`, { t: id });
  expect(byTarget.auditLog).toEqual({ items: [{ action: 'refund.rejected' }], pagination: { total: 2, pages: 2 } });
  const byAction = await admin.ok(`query ($t: String) { auditLog(targetId: $t, action: "refund.requested") { items { reason } } }`, { t: id });
  expect(byAction.auditLog.items).toEqual([{ reason: 'one' }]);
});
