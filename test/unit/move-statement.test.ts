import { UndeclaredEffectError } from '../../src/platform/lifecycle/lifecycle';
import type { Lifecycle } from '../../src/platform/lifecycle/lifecycle';
import { moveStatement, type SqlPart } from '../../src/platform/lifecycle/move-statement';

/** The move engine's one-statement form on a made-up table: what it declares is what the statement holds. */
const TABLE = {
  name: 'parcel',
  title: 'Parcel',
  table: 'parcels',
  column: 'status',
  initial: 'packed',
  states: { packed: {}, sent: {}, lost: { final: true }, back: { final: true } },
  side: { column: 'leg', property: 'leg', states: { road: {}, air: {} }, initial: 'road' },
  moves: {
    send: { from: ['packed'], to: 'sent', stage: { from: ['road'], to: 'air' }, on: 'picked up', journal: 'postage', event: 'parcel.sent', receipt: 'label' },
    lose: { from: ['packed', 'sent'], to: 'lost', on: 'gone', audit: 'parcel.lost' },
    returnIt: { from: ['sent'], to: 'back', on: 'refused', notByRequester: true, audit: 'parcel.back' },
  },
} as unknown as Lifecycle;

const part = (sql: string, ...params: unknown[]): SqlPart => ({ sql, params });
const placeholders = (sql: string) => (sql.match(/\?/g) ?? []).length;

test('the UPDATE takes its states and stage from the table, then each declared effect follows in order, and nothing else', () => {
  const { sql, params } = moveStatement(TABLE, 'send', {
    id: 'p1',
    before: { owner: part('select 1 where ? = ?', 'a', 'b') },
    set: { sent_at: part('?', 'now') },
    condition: part('select true from owner'),
    effects: {
      journal: (journal) => part('insert into j select ? from moved', journal),
      event: (type) => ({ ...part('insert into e select ? from moved', type), follows: { delivery: part('select 1 from event') } }),
      receipt: (kind) => part('insert into r select ? from moved', kind),
    },
    select: part('select count(*) from moved'),
  });
  expect(sql).toBe(
    'with owner as (select 1 where ? = ?), moved as (update "parcels" set "status" = ?, "leg" = ?, "sent_at" = ? where "id" = ? and "status" in (?) and "leg" in (?) and (select true from owner) returning "id"), ' +
      'journal as (insert into j select ? from moved), event as (insert into e select ? from moved), delivery as (select 1 from event), receipt as (insert into r select ? from moved) select count(*) from moved',
  );
  expect(params).toEqual(['a', 'b', 'sent', 'air', 'now', 'p1', 'packed', 'road', 'postage', 'parcel.sent', 'label']);
  expect(placeholders(sql)).toBe(params.length);
});

test('a declared audit entry is written by the engine, with the actor the caller names and the action the table names', () => {
  const { sql, params } = moveStatement(TABLE, 'lose', { id: 'p2', auditActor: 'system', select: part('select 1') });
  expect(sql).toContain('"status" in (?, ?)');
  expect(sql).toContain('audit as (insert into "audit_log" ("actor", "action", "target_type", "target_id") select ?, ?, ?, m."id" from moved m returning "id")');
  expect(params).toEqual(['lost', 'p2', 'packed', 'sent', 'system', 'parcel.lost', 'parcel']);
});

test('an effect the table declares but the caller leaves out, or the other way round, throws before any SQL exists', () => {
  const select = part('select 1');
  expect(() => moveStatement(TABLE, 'send', { id: 'p', effects: { journal: () => select }, select })).toThrow('parcel.send: the table declares an event, the statement does not build one');
  expect(() => moveStatement(TABLE, 'lose', { id: 'p', auditActor: 'system', effects: { notice: () => select }, select })).toThrow('parcel.lose: the table does not declare a notice, the statement builds one');
  expect(() => moveStatement(TABLE, 'lose', { id: 'p', select })).toThrow('parcel.lose: the table declares an audit entry, the statement does not name an actor');
  expect(() => moveStatement(TABLE, 'send', { id: 'p', effects: { journal: () => select, event: () => select }, select })).toThrow('parcel.send: the table declares a receipt, the statement does not build one');
  expect(() => moveStatement(TABLE, 'lose', { id: 'p', auditActor: 'system', effects: { receipt: () => select }, select })).toThrow('parcel.lose: the table does not declare a receipt, the statement builds one');
  const sent = { journal: () => select, event: () => select, receipt: () => select };
  expect(() => moveStatement(TABLE, 'send', { id: 'p', auditActor: 'system', effects: sent, select })).toThrow(UndeclaredEffectError);
  expect(() => moveStatement(TABLE, 'send', { id: 'p', auditActor: 'system', effects: sent, select })).toThrow(
    'parcel.send: the table does not declare an audit entry, the statement names an actor',
  );
});

test('a four-eyes move is never one statement: it needs the admin and applyMove', () => {
  expect(() => moveStatement(TABLE, 'returnIt', { id: 'p', auditActor: 'system', select: part('select 1') })).toThrow('parcel.returnIt: four eyes need applyMove');
});

test('a move the table does not hold throws', () => {
  expect(() => moveStatement(TABLE, 'teleport', { id: 'p', select: part('select 1') })).toThrow('no move "teleport"');
});

test('the moved row returns the columns the caller reads, as the move left them', () => {
  const { sql } = moveStatement(TABLE, 'lose', { id: 'p', auditActor: 'system', returning: ['status', 'leg'], select: part('select "status" from moved') });
  expect(sql).toContain('returning "id", "status", "leg"), audit as (');
});

test('several moves to one state are one UPDATE: the row moves by whichever its state allows, each under its own condition', () => {
  const claims = { ...TABLE, moves: { ...TABLE.moves, take: { from: ['packed'], to: 'sent', on: 'taken' }, retake: { from: ['sent'], to: 'sent', on: 'taken again' } } } as unknown as Lifecycle;
  const { sql, params } = moveStatement(claims, ['take', 'retake'], {
    id: 'p',
    set: { taken_by: part('?', 'w1') },
    when: { take: part('"due_at" <= now()'), retake: part('"lease" < ?', 'now') },
    returning: ['taken_by'],
    select: part('select * from moved'),
  });
  expect(sql).toBe(
    'with moved as (update "parcels" set "status" = ?, "taken_by" = ? where "id" = ? and ("status" in (?) and ("due_at" <= now()) or "status" in (?) and ("lease" < ?)) returning "id", "taken_by") select * from moved',
  );
  expect(params).toEqual(['sent', 'w1', 'p', 'packed', 'sent', 'now']);
  expect(() => moveStatement(claims, ['take', 'lose'], { id: 'p', select: part('select 1') })).toThrow('parcel.lose: the table declares an audit entry');
  expect(() => moveStatement(claims, ['take', 'retake', 'lose'], { id: 'p', auditActor: 'system', select: part('select 1') })).toThrow('parcel.take: the table does not declare an audit entry');
});

test('moves to different states, or with different effects, are never one statement', () => {
  const claims = { ...TABLE, moves: { ...TABLE.moves, take: { from: ['packed'], to: 'sent', on: 'taken' }, drop: { from: ['sent'], to: 'lost', on: 'dropped' } } } as unknown as Lifecycle;
  expect(() => moveStatement(claims, ['take', 'drop'], { id: 'p', select: part('select 1') })).toThrow('parcel.take, drop: one statement moves a row to one state, with one set of effects');
});
