import { parse, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { optionalReason, validReason } from '../../src/shared/reason';
import { AdminRole, parseAdminRole } from '../../src/modules/admins/admin-role';
import { tokenIsLive } from '../../src/modules/admins/admin-token.entity';
import { buildAppSchema } from '../../src/apps/schema';
import { measureOperation } from '../../src/api/graphql/query-guards';
import { Refund, RefundStatus } from '../../src/modules/refunds/refund.entity';
import { isPastReviewWindow, refundAgeSeconds } from '../../src/modules/refunds/refund.service';
import { checkAgainstBalance, validWithdrawalAmount } from '../../src/modules/withdrawals/withdrawal.service';

describe('withdrawal rules', () => {
  test('at least 1000 cents, integers only', () => {
    expect(validWithdrawalAmount(1000)).toBe(1000);
    expect(() => validWithdrawalAmount(999)).toThrow('Withdrawal amount must be at least 1000 cents (10 USD)');
    expect(() => validWithdrawalAmount(1000.5)).toThrow('Amount must be an integer number of cents');
    expect(() => validWithdrawalAmount(Number.NaN)).toThrow('Amount must be an integer number of cents');
  });

  test('at most the available balance; nothing while it is negative', () => {
    expect(() => checkAgainstBalance(1000, 1000n)).not.toThrow();
    expect(() => checkAgainstBalance(1001, 1000n)).toThrow('Withdrawal amount exceeds the available balance of 1000 cents');
    expect(() => checkAgainstBalance(1000, -1n)).toThrow('Withdrawals are refused while the balance is negative');
  });
});

describe('reasons', () => {
  test('1 to 500 characters after trimming', () => {
    expect(validReason('  lost parcel ')).toBe('lost parcel');
    expect(() => validReason('   ')).toThrow('A reason of 1 to 500 characters is required');
    expect(() => validReason(null)).toThrow('A reason of 1 to 500 characters is required');
    expect(validReason('é'.repeat(500))).toHaveLength(500);
    expect(() => validReason('x'.repeat(501))).toThrow();
    expect(optionalReason('')).toBeNull();
    expect(optionalReason(undefined)).toBeNull();
  });
});

describe('the 24-hour review window', () => {
  const refund = (ageMs: number, status: RefundStatus = RefundStatus.REQUESTED) => Object.assign(new Refund(), { status, createdAt: new Date(1_000_000_000_000 - ageMs) });
  const now = 1_000_000_000_000;
  test('a request still waiting after 24 hours is flagged; one reviewed is not', () => {
    expect(isPastReviewWindow(refund(24 * 3600_000), now)).toBe(false);
    expect(isPastReviewWindow(refund(24 * 3600_000 + 1), now)).toBe(true);
    expect(isPastReviewWindow(refund(48 * 3600_000, RefundStatus.APPROVED), now)).toBe(false);
    expect(refundAgeSeconds(refund(90_500), now)).toBe(90);
  });
});

describe('query depth and cost', () => {
  const measure = async (source: string, variables: Record<string, unknown> = {}) => {
    const document = parse(source);
    const fragments: Record<string, FragmentDefinitionNode> = {};
    for (const d of document.definitions) if (d.kind === 'FragmentDefinition') fragments[d.name.value] = d;
    const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition')!;
    return measureOperation(await buildAppSchema(), operation, fragments, variables);
  };

  test('a page of 100 payments with shop and seller: depth 5, cost 1 + 3 x 100', async () => {
    expect(await measure('{ searchPayments(limit: 100) { items { id shop { id seller { email } } } } }')).toEqual({ depth: 5, cost: 301, introspection: false, aliases: 0, rootFields: 1 });
  });

  test('the page size comes from a variable, or the default of 10', async () => {
    const source = 'query ($n: Int) { refunds(limit: $n) { items { payment { id } } } }';
    expect((await measure(source, { n: 50 })).cost).toBe(1 + 50 + 50);
    expect((await measure(source)).cost).toBe(1 + 10 + 10);
  });

  test('lists without a page size count 10 each, nested lists multiply', async () => {
    expect((await measure('{ payment(id: "x") { refunds { id } ledgerEntries { kind } } }')).cost).toBe(1 + 10 + 10);
  });

  test('fragments are expanded; introspection is noticed and not counted', async () => {
    expect((await measure('query { shops { items { ...S } } } fragment S on Shop { seller { shop { id } } }')).depth).toBe(5);
    expect(await measure('{ __schema { types { fields { name } } } }')).toEqual({ depth: 0, cost: 0, introspection: true, aliases: 0, rootFields: 0 });
  });

  test('aliases are counted wherever they are, fragments expanded; root fields are the response keys that run', async () => {
    const measured = await measure('query { a: shops { items { ...S } } b: shops { items { id } } shops { pagination { total } } shops { pagination { pages } } __typename } fragment S on Shop { x: id y: id }');
    expect(measured).toMatchObject({ aliases: 4, rootFields: 3 });
  });
});

describe('admin roles and tokens', () => {
  test('the three roles are read in any case; anything else is refused', () => {
    expect(['support', 'FINANCE', ' owner '].map(parseAdminRole)).toEqual([AdminRole.SUPPORT, AdminRole.FINANCE, AdminRole.OWNER]);
    expect(['admin', '', 'root', 'support,finance'].map(parseAdminRole)).toEqual([null, null, null, null]);
  });

  test('a token is live before its expiry and unrevoked; from the expiry instant on, or once revoked, it is not', () => {
    const expiresAt = new Date('2026-12-01T00:00:00.000Z');
    expect(tokenIsLive({ expiresAt, revokedAt: null }, new Date(expiresAt.getTime() - 1))).toBe(true);
    expect(tokenIsLive({ expiresAt, revokedAt: null }, expiresAt)).toBe(false);
    expect(tokenIsLive({ expiresAt, revokedAt: new Date('2026-11-01T00:00:00.000Z') }, new Date('2026-11-15T00:00:00.000Z'))).toBe(false);
  });
});
