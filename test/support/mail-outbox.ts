import type { TestService } from './test-service';

/**
 * Waits until the mail outbox holds no mail to any of `recipients` still to be sent (pending, or being sent), so
 * a test may count what its SMTP server received. A mail a request asked for is in the outbox before the answer
 * (account mails too), so after the answers this is every mail those requests made.
 */
export async function mailsSettled(service: Pick<TestService, 'em'>, recipients: string[], timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [{ n }] = await service.em().execute<{ n: number }[]>(
      `select count(*)::int as n from "mail_outbox" where "recipient" in (${recipients.map(() => '?').join(', ')}) and "status" in ('pending', 'sending')`,
      recipients,
    );
    if (n === 0) return;
    if (Date.now() > deadline) throw new Error(`${n} mails to ${recipients.join(', ')} still unsent after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The mails the outbox holds to `recipient`, oldest first: what was written, whether or not it went out. */
export function outboxMailsTo(service: Pick<TestService, 'em'>, recipient: string): Promise<{ id: string; kind: string; status: string }[]> {
  return service.em().execute(`select "id", "kind", "status" from "mail_outbox" where "recipient" = ? order by "created_at", "id"`, [recipient]);
}
