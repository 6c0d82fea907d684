import { suiteFixture } from '../support/suite-fixture';

/**
 * The order suite fixtures start and stop in (test/support/suite-fixture.ts): a fixture started with what an
 * earlier one answers (a service on an SMTP sink) must stop before it, though Jest runs afterAll hooks in the order
 * they were declared. The order is checked last, by an afterAll declared after every fixture.
 */
const events: string[] = [];

function fixture(name: string, start: () => string = () => '') {
  return suiteFixture(
    name,
    async () => {
      events.push(`start ${name}${start()}`);
      return { url: `${name}-url` };
    },
    async () => void events.push(`stop ${name}`),
  );
}

class Counter {
  private count = 0;
  add(): number {
    return ++this.count;
  }
}

const sink = fixture('sink');
const service = fixture('service', () => ` on ${sink.url}`);
const counter = suiteFixture('counter', async () => new Counter(), async () => undefined);
const settable = suiteFixture('settable', async () => ({ behaviour: 'accept' }), async () => undefined) as { behaviour: string };
const early = suiteFixture('early', async () => ({ url: '' }), async () => undefined);
const readTooEarly = (() => {
  try {
    return early.url;
  } catch (error) {
    return error;
  }
})();

describe('a fixture of a describe', () => {
  fixture('rival', () => ` on ${sink.url}`);
  test('starts after the file\'s and stops at the end of its describe', () => {
    expect(events.at(-1)).toBe('start rival on sink-url');
  });
});

describe('a later describe', () => {
  fixture('later');
  test('runs after the earlier describe\'s fixtures stopped', () => {
    expect(events.slice(-2)).toEqual(['stop rival', 'start later']);
  });
});

test('fields are read when used, methods run on the started object, and fields can be set', () => {
  expect(service.url).toBe('service-url');
  expect([counter.add(), counter.add()]).toEqual([1, 2]);
  settable.behaviour = 'defer';
  expect(settable.behaviour).toBe('defer');
});

test('a field read before the start says so', () => {
  expect(readTooEarly).toEqual(new Error('early.url is read before the suite started: read it inside a hook or test'));
});

afterAll(() => {
  expect(events).toEqual([
    'start sink',
    'start service on sink-url',
    'start rival on sink-url',
    'stop rival',
    'start later',
    'stop later',
    'stop service',
    'stop sink',
  ]);
});
