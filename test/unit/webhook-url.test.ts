import { checkWebhookUrl, isPublicAddress, parseWebhookUrl } from '../../src/modules/webhooks/webhook-url';

/** `a.b.c.d` as the two hex groups 6to4 puts after 2002:. */
const ipaddrHex = (ipv4: string) => {
  const [a, b, c, d] = ipv4.split('.').map(Number);
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
};
const production = { allowPrivateNetworks: false };
const development = { allowPrivateNetworks: true };
const code = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

describe('webhook URL rule', () => {
  test.each([
    ['https://127.0.0.1/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://10.0.0.1/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://172.16.5.4/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://192.168.1.1/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://[::1]/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://169.254.169.254/latest/meta-data/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://100.64.0.1/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://[fd12:3456::1]/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://[fe80::1]/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://[::ffff:127.0.0.1]/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://[::ffff:8.8.8.8]/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://0.0.0.0/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://2130706433/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://0x7f000001/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://0177.0.0.1/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://127.1/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://localhost/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://LOCALHOST./hook', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://api.localhost/', 'WEBHOOK_URL_FORBIDDEN'],
    ['http://x@127.0.0.1', 'WEBHOOK_URL_INVALID'],
    ['https://user:pw@hooks.example.com/', 'WEBHOOK_URL_INVALID'],
    ['http://hooks.example.com/', 'WEBHOOK_URL_INVALID'],
    ['ftp://hooks.example.com/', 'WEBHOOK_URL_INVALID'],
    ['not a url', 'WEBHOOK_URL_INVALID'],
    [`https://hooks.example.com/${'a'.repeat(2048)}`, 'WEBHOOK_URL_INVALID'],
    ['https://hooks.example.com/payments?x=1', 'ok'],
    ['https://8.8.8.8:8443/hook', 'ok'],
    ['https://[2606:4700:4700::1111]/hook', 'ok'],
  ])('production: %s -> %s', (url, expected) => {
    expect(code(() => parseWebhookUrl(url, production))).toBe(expected);
  });

  test.each([
    ['http://127.0.0.1:4000/hook', 'ok'],
    ['http://localhost:4000/hook', 'ok'],
    ['https://10.0.0.1/', 'ok'],
    ['http://x@127.0.0.1', 'WEBHOOK_URL_INVALID'],
    ['ftp://127.0.0.1/', 'WEBHOOK_URL_INVALID'],
  ])('WEBHOOK_ALLOW_PRIVATE_NETWORKS=1: %s -> %s', (url, expected) => {
    expect(code(() => parseWebhookUrl(url, development))).toBe(expected);
  });

  test('a name is refused when it resolves to an internal address, accepted when it does not resolve yet', async () => {
    const dns = (answers: Record<string, string[]>) => async (host: string) => {
      if (!answers[host]) throw new Error('ENOTFOUND');
      return answers[host];
    };
    const lookup = dns({ 'rebind.example.com': ['93.184.216.34', '127.0.0.1'], 'hooks.example.com': ['93.184.216.34'] });
    await expect(checkWebhookUrl('https://rebind.example.com/h', production, lookup)).rejects.toMatchObject({ code: 'WEBHOOK_URL_FORBIDDEN' });
    await expect(checkWebhookUrl('https://hooks.example.com/h', production, lookup)).resolves.toBe('https://hooks.example.com/h');
    await expect(checkWebhookUrl('https://not-yet.example.com/h', production, lookup)).resolves.toBe('https://not-yet.example.com/h');
    await expect(checkWebhookUrl('https://localhost:8443/h', production)).rejects.toMatchObject({ code: 'WEBHOOK_URL_FORBIDDEN' });
  });

  // RFC 6890 special-purpose IPv4 addresses written in each IPv6 spelling that embeds an IPv4 address.
  const teredo = (ipv4: string) => {
    const inverted = ipv4.split('.').map((octet) => 255 - Number(octet));
    const hex = (a: number, b: number) => ((a << 8) | b).toString(16);
    return `2001:0:4136:e378:8000:63bf:${hex(inverted[0], inverted[1])}:${hex(inverted[2], inverted[3])}`;
  };
  describe.each(['127.0.0.1', '10.0.0.1', '169.254.169.254', '192.168.1.1', '100.64.0.1', '0.0.0.0', '192.0.2.1'])('an IPv6 spelling of %s', (ipv4) => {
    test.each([
      ['IPv4-compatible ::/96', `::${ipv4}`],
      ['IPv4-mapped ::ffff:0:0/96', `::ffff:${ipv4}`],
      ['NAT64 64:ff9b::/96', `64:ff9b::${ipv4}`],
      ['local-use NAT64 64:ff9b:1::/48', `64:ff9b:1::${ipv4}`],
      ['6to4 2002::/16', `2002:${ipaddrHex(ipv4)}::1`],
      ['Teredo 2001::/32', teredo(ipv4)],
    ])('%s (%s) is refused by the URL rule and the address rule', (_range, address) => {
      expect(code(() => parseWebhookUrl(`https://[${address}]/hook`, production))).toBe('WEBHOOK_URL_FORBIDDEN');
      expect(isPublicAddress(address)).toBe(false);
    });
  });

  test('the embedding ranges are refused whatever IPv4 address they carry (a public one too)', () => {
    expect(['::8.8.8.8', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1', teredo('8.8.8.8')].some(isPublicAddress)).toBe(false);
  });

  test('other special-purpose IPv6 ranges ipaddr.js calls unicast are refused', () => {
    expect(['2001:db8::1', '2001:2::1', '3fff::1', '5f00::1', 'fec0::1', '100::1', '2001:1::1'].some(isPublicAddress)).toBe(false);
    expect(['2606:4700::1111', '2a00:1450:4001::1', '2001:4860:4860::8888'].every(isPublicAddress)).toBe(true);
  });

  test('public addresses', () => {
    expect(['8.8.8.8', '93.184.216.34', '2606:4700::1111'].every(isPublicAddress)).toBe(true);
    expect(['127.0.0.1', '10.1.2.3', '::1', '::ffff:7f00:1', '169.254.169.254', '100.100.100.100', 'fc00::1', '255.255.255.255', '224.0.0.1', 'nonsense'].some(isPublicAddress)).toBe(false);
  });
});
