import { lookup } from 'node:dns/promises';
import { checkWebhookUrl, parseWebhookUrl } from '../../src/modules/webhooks/webhook-url';
import { WEBHOOK_URL_MAX_LENGTH } from '../../src/shared/limits';

/**
 * The system resolver used when a webhook URL is set. DNS is outside the service, so it is replaced here
 * by a resolver the test controls (answering, or never answering to exercise the 3-second time-out).
 */
jest.mock('node:dns/promises', () => ({ lookup: jest.fn() }));
const resolve = lookup as unknown as jest.Mock;

const production = { allowPrivateNetworks: false };
const development = { allowPrivateNetworks: true };

afterEach(() => {
  jest.useRealTimers();
  resolve.mockReset();
});

describe('setting a webhook URL, with the system resolver', () => {
  test('every address of the name is asked for, as the resolver gives them', async () => {
    resolve.mockResolvedValue([{ address: '93.184.216.34', family: 4 }]);
    await expect(checkWebhookUrl('https://hooks.example.com/h', production)).resolves.toBe('https://hooks.example.com/h');
    expect(resolve).toHaveBeenCalledWith('hooks.example.com', { all: true, verbatim: true });
  });

  test('a name with one internal address among its answers is forbidden', async () => {
    resolve.mockResolvedValue([{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.7', family: 4 }]);
    await expect(checkWebhookUrl('https://rebind.example.com/h', production)).rejects.toMatchObject({ code: 'WEBHOOK_URL_FORBIDDEN' });
  });

  test('a resolver that does not answer within 3 seconds counts as a name that does not resolve yet: accepted', async () => {
    jest.useFakeTimers();
    resolve.mockReturnValue(new Promise(() => undefined));
    let outcome: string | undefined;
    const checked = checkWebhookUrl('https://slow.example.com/h', production).then((url) => (outcome = url));
    await jest.advanceTimersByTimeAsync(2999);
    expect(outcome).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    await checked;
    expect(outcome).toBe('https://slow.example.com/h');
  });

  test('an answer in time leaves no time-out running', async () => {
    jest.useFakeTimers();
    resolve.mockResolvedValue([{ address: '93.184.216.34', family: 4 }]);
    await checkWebhookUrl('https://hooks.example.com/h', production);
    expect(jest.getTimerCount()).toBe(0);
  });

  test('addresses are not looked up for an IP address, nor when private networks are allowed', async () => {
    await expect(checkWebhookUrl('https://8.8.8.8/h', production)).resolves.toBe('https://8.8.8.8/h');
    await expect(checkWebhookUrl('https://[2606:4700:4700::1111]/h', production)).resolves.toBe('https://[2606:4700:4700::1111]/h');
    await expect(checkWebhookUrl('http://internal.example/h', development)).resolves.toBe('http://internal.example/h');
    expect(resolve).not.toHaveBeenCalled();
  });
});

describe('webhook URL length', () => {
  const urlOfLength = (length: number) => {
    const root = 'https://hooks.example.com/';
    return root + 'x'.repeat(length - root.length);
  };

  test('2048 characters are accepted, 2049 are not', () => {
    expect(WEBHOOK_URL_MAX_LENGTH).toBe(2048);
    expect(parseWebhookUrl(urlOfLength(2048), production).href).toHaveLength(2048);
    expect(() => parseWebhookUrl(urlOfLength(2049), production)).toThrow(expect.objectContaining({ code: 'WEBHOOK_URL_INVALID' }));
  });
});
