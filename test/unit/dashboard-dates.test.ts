import { dayRange, monthsBetween, when, whenExact } from '../../dashboard-ui/src/format';

/**
 * Every time the dashboard shows names its time zone (docs/dashboard.md, "Dates and times"): the browser's, by its
 * short name, or its offset where the zone has none. The statements' months run from the account's first month.
 */
const AT = '2026-11-28T14:05:03.000Z';

describe('a time says its zone', () => {
  test.each([
    ['UTC', 'Nov 28, 2026, 2:05 PM UTC'],
    ['America/New_York', 'Nov 28, 2026, 9:05 AM EST'],
    ['America/Los_Angeles', 'Nov 28, 2026, 6:05 AM PST'],
    ['Europe/Paris', 'Nov 28, 2026, 3:05 PM GMT+1'],
    ['Asia/Kolkata', 'Nov 28, 2026, 7:35 PM GMT+5:30'],
    ['Australia/Sydney', 'Nov 29, 2026, 1:05 AM GMT+11'],
  ])('in %s: %s', (zone, text) => expect(when(AT, zone)).toBe(text));

  test('summer time is named too', () => expect(when('2026-07-01T12:00:00Z', 'America/New_York')).toBe('Jul 1, 2026, 8:00 AM EDT'));

  test('the request log adds the seconds, with the zone', () => {
    expect(whenExact(AT, 'UTC')).toBe('Nov 28, 2026, 2:05:03 PM UTC');
    expect(whenExact(AT, 'Europe/Paris')).toBe('Nov 28, 2026, 3:05:03 PM GMT+1');
  });

  test('without a zone given, the browser’s own (here the process’s), still named', () => {
    expect(when(AT)).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M (?:[A-Z]{2,5}|GMT[+-]\d{1,2}(?::\d{2})?)$/);
  });

  test('no time is a dash', () => {
    expect(when(null)).toBe('—');
    expect(whenExact(undefined)).toBe('—');
  });
});

describe('the statement months offered', () => {
  test('from the first month to the last, newest first, across years', () => {
    expect(monthsBetween('2025-11', '2026-02')).toEqual(['2026-02', '2026-01', '2025-12', '2025-11']);
  });
  test('an account opened this month has this month only', () => expect(monthsBetween('2026-11', '2026-11')).toEqual(['2026-11']));
});

describe('the From and To filters are whole calendar days of the browser\'s zone', () => {
  const hours = (range: { createdFrom?: string; createdTo?: string }) => (Date.parse(range.createdTo!) - Date.parse(range.createdFrom!)) / 3_600_000;

  test('in UTC, from the first midnight to the midnight after the last day, across a year end', () => {
    expect(dayRange('2026-12-01', '2026-12-31', 'UTC')).toEqual({ createdFrom: '2026-12-01T00:00:00.000Z', createdTo: '2027-01-01T00:00:00.000Z' });
  });

  test('in a zone ahead of or behind UTC, that zone\'s midnights', () => {
    expect(dayRange('2026-11-28', '2026-11-28', 'Asia/Kolkata')).toEqual({ createdFrom: '2026-11-27T18:30:00.000Z', createdTo: '2026-11-28T18:30:00.000Z' });
    expect(dayRange('2026-11-28', '2026-11-28', 'America/Los_Angeles')).toEqual({ createdFrom: '2026-11-28T08:00:00.000Z', createdTo: '2026-11-29T08:00:00.000Z' });
  });

  test('the day the clocks go back lasts 25 hours, the day they go forward 23: To ends at the next midnight', () => {
    const autumn = dayRange('2026-10-25', '2026-10-25', 'Europe/Berlin');
    expect(autumn).toEqual({ createdFrom: '2026-10-24T22:00:00.000Z', createdTo: '2026-10-25T23:00:00.000Z' });
    expect(hours(autumn)).toBe(25);
    const spring = dayRange('2026-03-29', '2026-03-29', 'Europe/Berlin');
    expect(spring).toEqual({ createdFrom: '2026-03-28T23:00:00.000Z', createdTo: '2026-03-29T22:00:00.000Z' });
    expect(hours(spring)).toBe(23);
    expect(hours(dayRange('2026-11-01', '2026-11-01', 'America/New_York'))).toBe(25);
    // Sydney's clocks go back at 03:00 on 5 April 2026: UTC's midnight that day is already after the change.
    expect(dayRange('2026-04-05', '2026-04-05', 'Australia/Sydney')).toEqual({ createdFrom: '2026-04-04T13:00:00.000Z', createdTo: '2026-04-05T14:00:00.000Z' });
  });

  test('where the clocks skip midnight, the day starts at the first time it has', () => {
    // Chile moves from 00:00 straight to 01:00 on 6 September 2026.
    expect(dayRange('2026-09-06', '2026-09-05', 'America/Santiago')).toEqual({ createdFrom: '2026-09-06T04:00:00.000Z', createdTo: '2026-09-06T04:00:00.000Z' });
  });

  test('either field alone, or neither', () => {
    expect(dayRange('2026-11-28', '', 'UTC')).toEqual({ createdFrom: '2026-11-28T00:00:00.000Z' });
    expect(dayRange('', '2026-11-28', 'UTC')).toEqual({ createdTo: '2026-11-29T00:00:00.000Z' });
    expect(dayRange('', '', 'UTC')).toEqual({});
  });

  test('what is not a date (an address edited by hand) filters nothing instead of breaking the screen', () => {
    expect(dayRange('yesterday', '2026-02-30', 'UTC')).toEqual({});
    expect(dayRange('2026-1-5', '2026-11-28T00:00', 'UTC')).toEqual({});
  });

  test('without a zone given, the browser\'s own (here the process\'s)', () => {
    const { createdFrom } = dayRange('2026-11-28', '');
    expect(new Date(createdFrom!).getTime()).toBe(new Date(2026, 10, 28).getTime());
  });
});
