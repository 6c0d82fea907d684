import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { useTestService } from '../../support/test-service';

/*
 * The README's five-minute walkthrough, run as written: its curl commands, taken from the README itself, go
 * to a running service. Only what the reader fills in is replaced: the key printed at start (`KEY=svc_live_...`),
 * the port (`localhost:3000`) and the payment id from the create answer (`pay_...`).
 */
const README = fs.readFileSync(path.join(__dirname, '../../../README.md'), 'utf8');

/** The walkthrough's commands: the shell block after "Five minutes", one command per comment line. */
function walkthrough(): { comment: string; command: string }[] {
  const section = README.slice(README.indexOf('## Five minutes'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1];
  const [assignment, ...rest] = block.split(/^(?=# )/m);
  expect(assignment.trim()).toMatch(/^KEY=svc_live_\.\.\. +# the key printed above$/);
  return rest.map((chunk) => {
    const [comment, ...lines] = chunk.split('\n');
    return { comment: comment.slice(2), command: lines.join('\n').trim() };
  });
}

function runShell(script: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('bash', ['-c', script], { timeout: 20_000 }, (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout))),
  );
}

describe('the README walkthrough runs as written', () => {
  const service = useTestService();
  let key: string;

  beforeAll(async () => {
    key = (await service.createShop({ shopName: 'Corner Bakery' })).apiKey;
  });

  test('check the key, create, retrieve, list: each command answers what the README says', async () => {
    const commands = walkthrough();
    expect(commands.map((c) => c.comment)).toEqual([
      'check the key',
      'create a payment',
      'retrieve it (use the id from the answer)',
      "list the shop's payments, newest first",
    ]);
    const port = new URL(service.url).port;
    let paymentId = 'pay_...';
    const answers: Record<string, any> = {};
    for (const { comment, command } of commands) {
      expect(command).toContain('localhost:3000');
      const filled = command.replaceAll('localhost:3000', `127.0.0.1:${port}`).replaceAll('pay_...', paymentId);
      const answer = JSON.parse(await runShell(`KEY='${key}'\n${filled}`));
      expect(answer).toMatchObject({ success: true });
      answers[comment] = answer;
      if (comment === 'create a payment') paymentId = answer.data.id;
    }

    expect(answers['check the key'].data).toEqual({ authenticated: true, mode: 'live', shop: { id: expect.stringMatching(/^shop_/), shop_name: 'Corner Bakery' } });
    const created = answers['create a payment'].data;
    expect(created).toMatchObject({ amount: 1234, currency: 'usd', status: 'pending', customer_email: 'ann@example.com', metadata: { order_id: '42' } });
    expect(created.checkout_url).toBe(`https://pay.example.test/checkout/${created.id}`);
    expect(answers['retrieve it (use the id from the answer)'].data).toMatchObject({ id: created.id, status: 'pending' });
    expect(answers["list the shop's payments, newest first"].data.map((p: { id: string }) => p.id)).toEqual([created.id]);
  });

  test('running the create command again is the same payment (its Idempotency-Key), as the docs promise', async () => {
    const create = walkthrough().find((c) => c.comment === 'create a payment')!.command.replaceAll('localhost:3000', service.url.replace(/^http:\/\//, ''));
    const first = JSON.parse(await runShell(`KEY='${key}'\n${create}`));
    const again = JSON.parse(await runShell(`KEY='${key}'\n${create}`));
    expect(again).toEqual(first);
  });

  test('without the key the same command is refused (the walkthrough really authenticates)', async () => {
    const check = walkthrough()[0].command.replaceAll('localhost:3000', service.url.replace(/^http:\/\//, ''));
    expect(JSON.parse(await runShell(`KEY=svc_live_${'0'.repeat(64)}\n${check}`))).toEqual({ success: false, error: 'Invalid API key' });
  });
});
