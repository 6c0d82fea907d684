import fs from 'node:fs';
import { DOC_FILE, lifecycleSection, lifecyclesDoc, withLifecycles } from '../../tools/lifecycle-docs';
import { WITHDRAWAL_LIFECYCLE } from '../../src/modules/withdrawals/withdrawal.lifecycle';
import type { Lifecycle } from '../../src/platform/lifecycle/lifecycle';

describe('the state diagrams of docs/lifecycles.md are generated from the lifecycle tables', () => {
  test('docs/lifecycles.md holds them as generated now (if not: npm run docs:lifecycles)', () => {
    const page = fs.readFileSync(DOC_FILE, 'utf8');
    expect(withLifecycles(page, lifecyclesDoc())).toBe(page);
  });

  test('each move is an edge of the diagram and a row of the table, with what it writes', () => {
    const section = lifecycleSection(WITHDRAWAL_LIFECYCLE as unknown as Lifecycle);
    expect(section).toContain('  requested --> rejected: reject');
    expect(section).toContain('  approved --> rejected: reject');
    expect(section).toContain('  paid --> [*]');
    expect(section).toMatch(/\| `pay` \| approved \| paid \| .* \| journal: payout, audit: `withdrawal.paid`, event: `withdrawal.paid` \|/);
  });
});
