import { defineLifecycle } from '../../platform/lifecycle/lifecycle';

/**
 * One mail of the mail outbox (src/modules/notifications/): a receipt, a refund notice, a seller notification, written
 * in the transaction of what it tells of, or an account mail, written once identity's work committed; then claimed and handed to the SMTP server by the mail workers
 * (docs/decisions/0001-mail-outbox.md: when a mail may go twice, and when it is not resent); a customer mail past
 * its mailbox's daily cap is suppressed instead.
 */
export const MAIL_LIFECYCLE = defineLifecycle({
  name: 'mail',
  title: 'Mail (the mail outbox)',
  table: 'mail_outbox',
  column: 'status',
  initial: 'pending',
  states: {
    pending: { meaning: 'due at next_attempt_at: its first attempt, or the next one after a failure that left it unsent' },
    sending: { meaning: 'a worker claimed it and is handing it to the SMTP server, under a lease' },
    sent: { meaning: 'the SMTP server accepted it (250 after the message)', final: true },
    kept: { meaning: 'SMTP_URL is unset: kept in the database, read with `npm run cli -- mail show`', final: true },
    unknown: { meaning: 'the whole message went out and the server never answered: it may have been delivered, so it is not resent by itself' },
    failed: { meaning: 'refused for good (5xx, a bad address), or still not sent after MAIL_GIVE_UP_AFTER_MS' },
    suppressed: { meaning: 'a customer mail not sent: its mailbox had MAIL_CUSTOMER_MAILS_PER_DAY customer mails in 24 hours', final: true },
  },
  moves: {
    claim: { from: ['pending'], to: 'sending', on: 'a worker took it when due (the attempt is counted; its lease, 8 x MAIL_TIMEOUT_MS + 10 s, outlasts one try)' },
    reclaim: { from: ['sending'], to: 'sending', on: 'its lease ran out: the worker died mid-send; sent again, same bytes and Message-ID' },
    send: { from: ['sending'], to: 'sent', on: 'the SMTP server answered 2xx to the message (only the claim that holds it)' },
    keep: { from: ['sending'], to: 'kept', on: 'SMTP_URL is unset' },
    retry: { from: ['sending'], to: 'pending', on: 'the server could not be reached, or answered 4xx, before it had the whole message (next_attempt_at moves on)' },
    lose: { from: ['sending'], to: 'unknown', on: 'the connection dropped or timed out after the whole message was handed over, before the answer' },
    suppress: { from: ['sending'], to: 'suppressed', on: 'at its first claim, a customer mail whose mailbox reached the daily cap (nothing is sent)' },
    giveUp: { from: ['sending'], to: 'failed', on: 'a 5xx answer or an address that cannot be used, or the next try would be past MAIL_GIVE_UP_AFTER_MS' },
    resend: { from: ['failed', 'unknown'], to: 'pending', on: 'a support or owner admin sent it again, with a reason', audit: 'mail.resent' },
  },
  stays: {
    'outcome unknown': { in: ['sending'], then: 'a worker died mid-send: its lease runs out and another worker sends it again (reclaim)' },
  },
});
