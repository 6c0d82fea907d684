import { fromThisMachine, linked, mailViewerOn } from '../../src/modules/notifications/mail-viewer-page';

/**
 * The local mail viewer's rules (src/modules/notifications/mail-viewer-page.ts): where it exists at all, which
 * requests it answers, and how a mail's text becomes HTML. Mails carry text a shop or a customer chose.
 */
describe('where the viewer exists', () => {
  test.each([
    [undefined, 'http://localhost:3000', true],
    [undefined, 'http://127.0.0.1:8080', true],
    [undefined, 'http://[::1]:3000', true],
    ['smtp://mail.example:25', 'http://localhost:3000', false],
    [undefined, 'https://pay.example.com', false],
    [undefined, 'http://10.0.0.5:3000', false],
  ])('SMTP_URL %s, BASE_URL %s: %s', (smtpUrl, baseUrl, on) => {
    expect(mailViewerOn({ smtpUrl }, baseUrl)).toBe(on);
  });
});

describe('who may open it', () => {
  const request = (remoteAddress: string | undefined, headers: Record<string, string>) => ({ socket: { remoteAddress }, headers });
  test.each([
    ['127.0.0.1', { host: 'localhost:3000' }, true],
    ['::1', { host: '[::1]:3000' }, true],
    ['::ffff:127.0.0.1', { host: '127.0.0.1:3000' }, true],
    ['127.0.0.1', { host: 'localhost' }, true],
    // Another machine, or no address at all.
    ['192.168.1.20', { host: 'localhost:3000' }, false],
    ['::ffff:10.1.2.3', { host: 'localhost:3000' }, false],
    [undefined, { host: 'localhost:3000' }, false],
    // DNS rebinding: another site's name pointed at 127.0.0.1 arrives with that name.
    ['127.0.0.1', { host: 'evil.example:3000' }, false],
    ['127.0.0.1', { host: 'localhost.evil.example' }, false],
    ['127.0.0.1', { host: '127.0.0.1.evil.example' }, false],
    ['127.0.0.1', {}, false],
    // A proxy on this machine relaying someone else.
    ['127.0.0.1', { host: 'localhost:3000', 'x-forwarded-for': '203.0.113.7' }, false],
    ['127.0.0.1', { host: 'localhost:3000', forwarded: 'for=203.0.113.7' }, false],
    ['127.0.0.1', { host: 'localhost:3000', 'x-real-ip': '203.0.113.7' }, false],
  ])('from %s with %j: %s', (address, headers, allowed) => {
    expect(fromThisMachine(request(address, headers))).toBe(allowed);
  });
});

describe('a mail text as HTML', () => {
  const base = 'http://localhost:3000';
  test('every character that means something in HTML is escaped', () => {
    expect(linked(`Shop “<script>alert(1)</script>” & <img src=x onerror="alert('x')">`, base)).toBe(
      'Shop “&#60;script&#62;alert(1)&#60;/script&#62;” &#38; &#60;img src=x onerror=&#34;alert(&#39;x&#39;)&#34;&#62;',
    );
  });

  test("links to this service become links, any other address stays text (a shop's name may look like a link)", () => {
    expect(linked(`Verify: ${base}/dashboard/verify-email?token=abc_DEF-1\n\nBye`, base)).toBe(
      `Verify: <a href="${base}/dashboard/verify-email?token=abc_DEF-1">${base}/dashboard/verify-email?token=abc_DEF-1</a>\n\nBye`,
    );
    expect(linked('See https://evil.example/login and http://localhost:3001/x and javascript:alert(1)', base)).toBe('See https://evil.example/login and http://localhost:3001/x and javascript:alert(1)');
    expect(linked(`${base}.evil.example/x ${base}@evil.example/`, base)).not.toContain('<a');
  });

  test('a link cannot break out of its attribute', () => {
    const html = linked(`${base}/dashboard/x?a='b'&c=<d>`, base);
    expect(html).toBe(`<a href="${base}/dashboard/x?a=&#39;b&#39;&#38;c=">${base}/dashboard/x?a=&#39;b&#39;&#38;c=</a>&#60;d&#62;`);
  });
});
