import { RefundStatus } from '../../src/modules/refunds/refund.entity';
import { trackingStages, whatHappensNext, type TrackedRefund } from '../../src/modules/refunds/refund-tracking';
import { isTrackingTokenShape } from '../../src/modules/notifications/refund-link';
import { newTrackingToken, trackingTokenHash } from '../../src/modules/refunds/refund-tracking-token';
import { refundPage } from '../../src/modules/refunds/refund-tracking-page';

const at = (minute: number) => new Date(Date.UTC(2026, 11, 1, 10, minute));

function refund(status: RefundStatus, changes: Partial<TrackedRefund> = {}): TrackedRefund {
  return {
    status, amount: 1250, currency: 'USD', shopName: 'Corner Bakery', supportEmail: 'help@cornerbakery.example', processorReference: null,
    requestedAt: at(0), reviewedAt: at(1), sentAt: at(2), refundedAt: null, failedAt: null, reversedAt: null, reachedBank: true, expiresAt: null,
    ...changes,
  };
}

const shape = (r: TrackedRefund) => trackingStages(r).map((s) => `${s.label}${s.reached ? '' : ' (to come)'}`);

describe('the link token', () => {
  test('256 random bits as base64url; only that shape is looked up; the hash is SHA-256 hex', () => {
    const { token, hash } = newTrackingToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hash).toBe(trackingTokenHash(token));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(newTrackingToken().token).not.toBe(token);
    for (const bad of ['', 'abc', `${token}A`, `${token.slice(0, 42)}=`, `${token.slice(0, 42)}/`, `${token.slice(0, 42)}\n`]) expect(isTrackingTokenShape(bad)).toBe(false);
  });
});

describe('the stages a customer sees', () => {
  test.each<[RefundStatus, Partial<TrackedRefund>, string[]]>([
    [RefundStatus.REQUESTED, { reviewedAt: null, sentAt: null }, ['Refund requested', 'Approved (to come)', "Sent to your card's bank (to come)", 'Refunded (to come)']],
    [RefundStatus.APPROVED, { sentAt: null }, ['Refund requested', 'Approved', "Sent to your card's bank (to come)", 'Refunded (to come)']],
    [RefundStatus.REJECTED, {}, ['Refund requested', 'Refund not approved']],
    [RefundStatus.PROCESSING, {}, ['Refund requested', 'Approved', "Sent to your card's bank", 'Refunded (to come)']],
    [RefundStatus.REFUNDED, { refundedAt: at(3) }, ['Refund requested', 'Approved', "Sent to your card's bank", 'Refunded']],
    [RefundStatus.FAILED, { failedAt: at(3) }, ['Refund requested', 'Approved', "Sent to your card's bank", 'Refund failed']],
    // A failure decided on our side (a chargeback stood) never reached the bank.
    [RefundStatus.FAILED, { failedAt: at(3), reachedBank: false }, ['Refund requested', 'Approved', 'Refund failed']],
    [RefundStatus.REVERSED, { refundedAt: at(3), reversedAt: at(4) }, ['Refund requested', 'Approved', "Sent to your card's bank", 'Refunded', 'Sent back by your bank']],
  ])('%s %j', (status, changes, expected) => {
    expect(shape(refund(status, changes))).toEqual(expected);
    expect(whatHappensNext(refund(status, changes)).join(' ')).not.toBe('');
  });

  test('an approved refund sent back to the queue (the acquirer never had it) does not show an old sending time', () => {
    const sent = trackingStages(refund(RefundStatus.APPROVED, { sentAt: at(2) }))[2];
    expect(sent).toMatchObject({ reached: false, at: null });
  });

  test('the bank reference shows once the refund was sent', () => {
    expect(trackingStages(refund(RefundStatus.REFUNDED, { refundedAt: at(3), processorReference: 'psp_123' }))[2].detail).toBe('Bank reference: psp_123');
  });

  test('the page marks the last reached stage as the current step and every time is a <time> element', () => {
    const html = refundPage(null, refund(RefundStatus.PROCESSING));
    expect(html.match(/aria-current="step"/g)).toHaveLength(1);
    expect(html).toMatch(/aria-current="step"><span class="stage-label">Sent to your card&#39;s bank<\/span><span class="stage-when"><time datetime="2026-12-01T10:02:00.000Z">1 December 2026, 10:02 UTC<\/time>/);
    expect(html).not.toContain('<script');
  });
});
