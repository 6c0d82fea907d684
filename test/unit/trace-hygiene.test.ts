import { cleanMessage, cleanSpan, cleanUrl, maskSqlLiterals, type CleanableSpan } from '../../src/platform/observability/trace-hygiene';

/** The rules every exported span goes through (src/platform/observability/trace-hygiene.ts). */
describe('SQL keeps its shape, never its values', () => {
  test.each([
    [`insert into "sellers" ("id", "email", "password_hash") values ('sel_1', 'ann@example.com', '$scrypt$n=16384$abc')`, `insert into "sellers" ("id", "email", "password_hash") values (?, ?, ?)`],
    [`select "p"."id" from "payments" as "p" where "p"."amount" >= 1250 and "p"."customer_name" = 'O''Brien' limit 10`, `select "p"."id" from "payments" as "p" where "p"."amount" >= ? and "p"."customer_name" = ? limit ?`],
    [`update "mail_outbox" set "body" = E'Hi\\'there\\n' , "meta" = $json\${"a":1}$json$ where "id" = $1`, `update "mail_outbox" set "body" = ? , "meta" = ? where "id" = $1`],
    [`select e0.* from "t" as e0 where e0."x" = -42.5e3 and col_2 = 3`, `select e0.* from "t" as e0 where e0."x" = ? and col_2 = ?`],
  ])('%s', (sql, masked) => expect(maskSqlLiterals(sql)).toBe(masked));
});

test('URLs lose their query and fragment; a refund tracking path is masked however it is cased', () => {
  expect(cleanUrl('/admin?setup=tok_secret')).toBe('/admin');
  expect(cleanUrl('https://pay.example/dashboard/reset-password?token=abc#x')).toBe('https://pay.example/dashboard/reset-password');
  expect(cleanUrl('/REFUNDS/rtk_secret')).toBe('/REFUNDS/:token');
  expect(cleanUrl('//Refunds/rtk_secret/x?y=1')).toBe('//Refunds/:token/x');
});

test('messages lose quoted values and URL queries', () => {
  expect(cleanMessage(`insert into "sellers" ("email") values ('ann@example.com') - duplicate key value`)).toBe(`insert into "?" ("?") values (?) - duplicate key value`);
  expect(cleanMessage('invalid input syntax for type uuid: "rtk_secret"')).toBe('invalid input syntax for type uuid: "?"');
  expect(cleanMessage('GET https://x.example/a?token=abc failed')).toBe('GET https://x.example/a failed');
});

test('a whole span: values dropped, URLs, statements, events and status cleaned', () => {
  const span: CleanableSpan = {
    name: 'GET /refunds/rtk_secret',
    attributes: {
      'url.query': 'setup=tok_secret',
      'http.target': '/admin?setup=tok_secret',
      'url.full': 'https://pay.example/dashboard/verify-email?token=tok_secret',
      'db.statement': `select 1 from "admins" where "email" = 'ann@example.com'`,
      'db.statement.parameters': '["tok_secret"]',
      'db.query.parameter.0': 'tok_secret',
      'http.route': '/refunds/:token',
      'http.status_code': 200,
    },
    events: [{ name: 'exception', attributes: { 'exception.message': `select * from "t" where "x" = 'tok_secret'`, 'exception.stacktrace': `Error: where "x" = 'tok_secret'\n    at f (/a.js:1:1)` } }],
    status: { code: 2, message: `update "t" set "x" = 'tok_secret'` },
  };
  cleanSpan(span);
  expect(JSON.stringify(span)).not.toContain('tok_secret');
  expect(JSON.stringify(span)).not.toContain('rtk_secret');
  expect(JSON.stringify(span)).not.toContain('ann@example.com');
  expect(span.attributes).toEqual({
    'http.target': '/admin',
    'url.full': 'https://pay.example/dashboard/verify-email',
    'db.statement': `select ? from "admins" where "email" = ?`,
    'http.route': '/refunds/:token',
    'http.status_code': 200,
  });
  expect(span.name).toBe('GET /refunds/:token');
});
