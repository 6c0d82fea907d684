import type { EntityManager } from '@mikro-orm/postgresql';
import { Shop } from '../../src/modules/identity/shop.entity';
import { WebhookEvent } from '../../src/modules/webhooks/webhook-event.entity';
import { DomainError } from '../../src/shared/errors';
import { eventStreamPage, STREAM_FROM_FIRST } from '../../src/modules/webhooks/event-stream';
import { emit } from '../../src/modules/webhooks/outbox';
import { useModuleDatabase } from '../support/module-database';

/**
 * The event stream over the outbox (src/modules/webhooks/event-stream.ts, docs/decisions/0022-event-stream.md): a
 * shop's events in the order written, after the last one read, never another shop's, and never one before an event
 * already read, however the writing transactions commit.
 */
const db = useModuleDatabase({ poolSize: 4 });

/** A triggered test event of the shop, written in `em`'s transaction (or its own). */
async function writeEvent(em: EntityManager, shop: Shop, type: 'payment.completed' | 'payment.failed' = 'payment.completed'): Promise<string> {
  const event = await emit(em, { triggeredFor: shop, type, subjects: () => ({ payment: { id: 'pay_TEST' } }) });
  await em.flush();
  return event.id;
}

async function liveShop(label: string): Promise<Shop> {
  const { shop } = await db.newShop(label);
  return db.em().findOneOrFail(Shop, { id: shop.id });
}

/** Pages from `after` until `count` events came (other suites' transactions may hold the horizon back a moment). */
async function readUntil(shopId: string, after: string, count: number): Promise<{ ids: string[]; cursor: string }> {
  const ids: string[] = [];
  let cursor = after;
  const deadline = Date.now() + 10_000;
  while (ids.length < count && Date.now() < deadline) {
    const page = await eventStreamPage(db.em(), shopId, cursor, 2);
    ids.push(...page.events.map((e) => e.id));
    cursor = page.cursor;
    if (page.events.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { ids, cursor };
}

test('without a cursor: no event, and where the stream stands (its latest event, or 0 for a shop without events)', async () => {
  const shop = await liveShop('stream-head');
  expect(await eventStreamPage(db.em(), shop.id, null, null)).toEqual({ cursor: STREAM_FROM_FIRST, events: [] });
  const id = await writeEvent(db.em(), shop);
  const deadline = Date.now() + 10_000;
  let head = await eventStreamPage(db.em(), shop.id, null, null);
  while (head.cursor !== id && Date.now() < deadline) head = await eventStreamPage(db.em(), shop.id, null, null);
  expect(head).toEqual({ cursor: id, events: [] });
});

test('events come in the order written, a page at a time, each after the cursor, with the exact bodies and the test mark', async () => {
  const shop = await liveShop('stream-order');
  const written = [await writeEvent(db.em(), shop), await writeEvent(db.em(), shop, 'payment.failed'), await writeEvent(db.em(), shop)];
  const { ids, cursor } = await readUntil(shop.id, STREAM_FROM_FIRST, 3);
  expect(ids).toEqual(written);
  expect(cursor).toBe(written[2]);
  expect((await eventStreamPage(db.em(), shop.id, cursor, null)).events).toEqual([]);
  const [first] = (await eventStreamPage(db.em(), shop.id, STREAM_FROM_FIRST, 1)).events;
  const stored = await db.em().findOneOrFail(WebhookEvent, { id: written[0] });
  expect(first).toMatchObject({ id: written[0], type: 'payment.completed', test: true, body: stored.body });
});

test("another shop's event id, a malformed one and a bad limit are refused; nothing says whether the event exists", async () => {
  const mine = await liveShop('stream-mine');
  const theirs = await liveShop('stream-theirs');
  const theirEvent = await writeEvent(db.em(), theirs);
  for (const after of [theirEvent, 'evt_000000000000000000000000', 'not-an-id', "' or 1=1 --"]) {
    const error = await eventStreamPage(db.em(), mine.id, after, null).catch((e: unknown) => e);
    expect(error instanceof DomainError && error.code).toBe('EVENT_STREAM_CURSOR_INVALID');
  }
  for (const limit of [0, 101]) {
    const error = await eventStreamPage(db.em(), mine.id, STREAM_FROM_FIRST, limit).catch((e: unknown) => e);
    expect(error instanceof DomainError && error.code).toBe('LIMIT_INVALID');
  }
  await readUntil(theirs.id, STREAM_FROM_FIRST, 1);
  expect((await eventStreamPage(db.em(), mine.id, STREAM_FROM_FIRST, null)).events).toEqual([]);
});

test('an event written in a transaction still open holds back the events after it: read in order once it commits, none skipped', async () => {
  const shop = await liveShop('stream-open');
  const before = await writeEvent(db.em(), shop);
  const { cursor: start } = await readUntil(shop.id, STREAM_FROM_FIRST, 1);
  expect(start).toBe(before);

  const slow = db.em();
  await slow.begin();
  const early = await writeEvent(slow, shop); // its transaction began first and is still open
  const late = await writeEvent(db.em(), shop); // committed at once, after it
  await new Promise((resolve) => setTimeout(resolve, 300));
  // Reading `late` now and `early` later would lose `early` for a reader already past `late`.
  expect((await eventStreamPage(db.em(), shop.id, start, null)).events.map((e) => e.id)).toEqual([]);
  await slow.commit();
  const { ids } = await readUntil(shop.id, start, 2);
  expect(ids).toEqual([early, late]);
});
