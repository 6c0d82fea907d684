import { monthsBetween, when, whenExact } from '../../dashboard-ui/src/format';

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
