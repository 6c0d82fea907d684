import { graphql } from '../../support/admin-client';
import { dashboard, signUpSeller } from '../../support/dashboard-client';
import { useTestService } from '../../support/test-service';

/**
 * Dashboard sessions are limited as API keys are (RATE_LIMIT_PER_MINUTE per seller), and every GraphQL document
 * costs at least 1 of the cost budget, so nothing is free to send without end (docs/reference.md, "Rate limits").
 */
describe('a session has the request budget of a key', () => {
  const service = useTestService({ RATE_LIMIT_PER_MINUTE: '5' });

  test('the sixth request of a minute is 429 with Retry-After; another seller is not held back', async () => {
    const seller = await signUpSeller(service.url);
    const other = await signUpSeller(service.url);
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await dashboard(service.url, 'CurrentSeller', {}, seller.session));
    expect(answers.slice(0, 5).map((a) => [a.status, a.headers['x-ratelimit-limit'], a.body.errors])).toEqual(Array(5).fill([200, '5', undefined]));
    const refused = answers[5];
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await dashboard(service.url, 'CurrentSeller', {}, other.session)).status).toBe(200);
  });
});

describe('a document of cost 0 is charged 1', () => {
  const service = useTestService({ RATE_LIMIT_PER_MINUTE: '1000', GRAPHQL_COST_PER_MINUTE: '10' });

  test('a key sending `{ __typename }` runs out of its cost budget after 10 documents', async () => {
    const { apiKey } = await service.createShop();
    const codes = [];
    for (let i = 0; i < 11; i++) codes.push((await graphql(service.url, `Bearer ${apiKey}`, '{ __typename }')).errors?.[0]?.extensions?.code ?? 'ok');
    expect(codes).toEqual([...Array(10).fill('ok'), 'QUERY_COST_BUDGET_EXCEEDED']);
  });
});

describe("a seller's dashboard spends a cost budget of its own", () => {
  const service = useTestService({ RATE_LIMIT_PER_MINUTE: '1000', GRAPHQL_COST_PER_MINUTE: '10' });

  test('its refusal names the dashboard, not an API key it never used; the shop key keeps its own budget and wording', async () => {
    const seller = await signUpSeller(service.url);
    let refused;
    for (let i = 0; i < 11 && !refused; i++) {
      const answer = await dashboard(service.url, 'CurrentSeller', {}, seller.session);
      if (answer.body.errors) refused = answer;
    }
    expect(refused?.status).toBe(429);
    expect(refused?.body.errors[0]).toMatchObject({
      message: expect.stringMatching(/^Query cost budget exceeded: at most 10 per minute for each seller's dashboard\. Try again in \d+ seconds\.$/),
      extensions: { code: 'QUERY_COST_BUDGET_EXCEEDED' },
    });
    const codes = [];
    for (let i = 0; i < 11; i++) codes.push((await graphql(service.url, `Bearer ${seller.apiKey}`, '{ __typename }')).errors?.[0]?.message ?? 'ok');
    expect(codes.slice(0, 10)).toEqual(Array(10).fill('ok'));
    expect(codes[10]).toMatch(/^Query cost budget exceeded: at most 10 per minute for each API key\. Try again in \d+ seconds\.$/);
  });
});
