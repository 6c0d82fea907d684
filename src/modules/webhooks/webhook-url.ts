import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { domainError } from '../../shared/errors';
import { WEBHOOK_URL_MAX_LENGTH } from '../../shared/limits';
import { withinTime } from '../../shared/within-time';

/**
 * The webhook URL rule (SSRF): an HTTPS URL without credentials whose host is a public address. It is
 * checked when a URL is set (here) and again at delivery time against the address actually connected
 * to (src/modules/webhooks/webhook-sender.ts), so a name that later resolves elsewhere (DNS rebinding) gets
 * nowhere. WEBHOOK_ALLOW_PRIVATE_NETWORKS=1 lifts the HTTPS and public-address parts, for local work only.
 */
export interface WebhookUrlPolicy {
  allowPrivateNetworks: boolean;
}


export type AddressLookup = (hostname: string) => Promise<string[]>;

/** How long setting a URL waits for DNS; past it the name counts as not resolving yet. */
const LOOKUP_TIMEOUT_MS = 3000;

const systemLookup: AddressLookup = async (hostname) =>
  (await withinTime(dnsLookup(hostname, { all: true, verbatim: true }), LOOKUP_TIMEOUT_MS, 'DNS timeout')).map((a) => a.address);

/**
 * IPv6 ranges ipaddr.js calls `unicast` that are not ordinary public addresses (IANA's special-purpose
 * registry, RFC 6890 and its updates). `::/96` holds the deprecated IPv4-compatible spelling
 * (`::127.0.0.1` is written `::7f00:1` by the URL parser) and `64:ff9b:1::/48` local-use NAT64: both
 * carry an IPv4 address a gateway may forward to.
 */
const SPECIAL_IPV6_RANGES = ['::/96', '64:ff9b:1::/48', '2001::/23', '3fff::/20', '5f00::/16', 'fec0::/10'].map((cidr) =>
  ipaddr.IPv6.parseCIDR(cidr),
);

/**
 * Only ordinary public unicast addresses pass. ipaddr.js names most special ranges, so this refuses
 * loopback, private (10/8, 172.16/12, 192.168/16), link-local (169.254/16 with 169.254.169.254, the
 * cloud metadata address; fe80::/10), carrier-grade NAT (100.64/10), unique-local IPv6 (fc00::/7),
 * unspecified, multicast, broadcast, documentation and reserved ranges; the list above adds the rest.
 * Every IPv6 range that embeds an IPv4 address is refused whatever that address is: IPv4-mapped
 * (::ffff:0:0/96), IPv4-compatible (::/96), NAT64 (64:ff9b::/96, 64:ff9b:1::/48), 6to4 (2002::/16) and
 * Teredo (2001::/32, whose client address is the inverted last 32 bits). A receiver has no reason to sit
 * behind a transition mechanism, and refusing the whole range cannot miss a spelling.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return false;
  const parsed = ipaddr.parse(bare);
  if (parsed.range() !== 'unicast') return false;
  return !(parsed instanceof ipaddr.IPv6 && SPECIAL_IPV6_RANGES.some((range) => parsed.match(range)));
}

/**
 * The rule without DNS: syntax, scheme, credentials, and the host when it is an address (the WHATWG
 * parser has already turned `2130706433`, `0x7f000001`, `0177.1` and the like into dotted quads).
 */
export function parseWebhookUrl(raw: string, policy: WebhookUrlPolicy): URL {
  if (raw.length > WEBHOOK_URL_MAX_LENGTH || !URL.canParse(raw)) throw domainError('WEBHOOK_URL_INVALID');
  const url = new URL(raw);
  const schemes = policy.allowPrivateNetworks ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol) || url.username || url.password || !url.hostname) throw domainError('WEBHOOK_URL_INVALID');
  if (policy.allowPrivateNetworks) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (ipaddr.isValid(host) ? !isPublicAddress(host) : host === 'localhost' || host.endsWith('.localhost')) {
    throw domainError('WEBHOOK_URL_FORBIDDEN');
  }
  return url;
}

/**
 * The rule as applied when a URL is set: `parseWebhookUrl` plus the addresses the name resolves to
 * now. A name that does not resolve yet is accepted; delivery checks the connected address anyway.
 */
export async function checkWebhookUrl(raw: string, policy: WebhookUrlPolicy, lookup: AddressLookup = systemLookup): Promise<string> {
  const url = parseWebhookUrl(raw, policy);
  if (!policy.allowPrivateNetworks && !ipaddr.isValid(url.hostname.replace(/^\[|\]$/g, ''))) {
    const addresses = await lookup(url.hostname).catch(() => [] as string[]);
    if (addresses.some((address) => !isPublicAddress(address))) throw domainError('WEBHOOK_URL_FORBIDDEN');
  }
  return url.toString();
}
