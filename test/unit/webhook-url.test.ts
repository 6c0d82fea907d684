import { checkWebhookUrl, isPublicAddress, parseWebhookUrl } from '../../src/webhooks/webhook-url';

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

  test('public addresses', () => {
    expect(['8.8.8.8', '93.184.216.34', '2606:4700::1111'].every(isPublicAddress)).toBe(true);
    expect(['127.0.0.1', '10.1.2.3', '::1', '::ffff:7f00:1', '169.254.169.254', '100.100.100.100', 'fc00::1', '255.255.255.255', '224.0.0.1', 'nonsense'].some(isPublicAddress)).toBe(false);
  });
});
