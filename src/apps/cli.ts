import './production-mode';
import 'reflect-metadata';
import { isEmailAddress } from '../shared/email';
import { parseArgs } from 'node:util';
import { ADMIN_ROLES, adminByEmail, parseAdminRole, createAdmin, revokeAdmin } from '../modules/admins';
import { loadConfig, publicBaseUrl, type Config } from '../shared/config';
import { adminSetupLink, inviteSeller, inviteSellerByEmail, reencryptSecrets, createSecretBox, createSellerWithShop } from '../modules/identity';
import { openDatabase } from '../platform/db/database';
import { checkLedger } from '../modules/ledger';
import { processLogger } from '../shared/logger';
import { exitOnStartupFailure } from '../shared/startup-error';
import { DomainError } from '../shared/errors';
import { checkWebhookUrl } from '../modules/webhooks';
import type { EntityManager } from '@mikro-orm/postgresql';
import { MAIL_CLI_USAGE, MailCliUsage, mailCli } from '../modules/notifications';
import { ENTITIES } from './entities';

/** Operations commands: `npm run cli -- <command> [options]`. Results are one JSON line on stdout. */
const COMMANDS: Record<
  string,
  // `positionals`: the command takes words after its name (`mail show <id>`), handed to `run` as `args`.
  { usage: string; options: Record<string, { type: 'string' }>; positionals?: true; run(em: EntityManager, o: Record<string, string | undefined>, config: Config, args: string[]): Promise<unknown> }
> = {
  'create-shop': {
    usage: 'create-shop --email <email> --name <shop name> [--webhook-url <https url>]',
    options: { email: { type: 'string' }, name: { type: 'string' }, 'webhook-url': { type: 'string' } },
    async run(em, o, config) {
      const email = required(o, 'email');
      const shopName = required(o, 'name');
      const webhookUrl = o['webhook-url'] === undefined ? undefined : await validWebhookUrl(o['webhook-url'], config);
      const created = await createSellerWithShop(em, { email, shopName, webhookUrl }, createSecretBox(config.accountSecretsKey, config.accountSecretsOldKeys));
      // The seller has no password: the operator hands them this single-use link (72 hours) to choose one.
      const { token } = await inviteSeller(em, created.seller.id);
      const invitationLink = `${publicBaseUrl(config, config.port)}/dashboard/accept-invitation?token=${token}`;
      return { seller_id: created.seller.id, shop_id: created.shop.id, api_key: created.apiKey, webhook_secret: created.webhookSecret, invitation_link: invitationLink };
    },
  },
  'seller-invitation-link': {
    usage: 'seller-invitation-link --email <email>   (a new single-use link, 72 hours, for a seller who has no password yet: the demo seller, or one an operator created)',
    options: { email: { type: 'string' } },
    async run(em, o, config) {
      const { seller, token } = await foundByEmail(o, 'seller', (email) => inviteSellerByEmail(em, email));
      return { seller_id: seller.id, invitation_link: `${publicBaseUrl(config, config.port)}/dashboard/accept-invitation?token=${token}` };
    },
  },
  'create-admin': {
    usage: 'create-admin --email <email> --role <support|finance|owner>',
    options: { email: { type: 'string' }, role: { type: 'string' } },
    async run(em, o, config) {
      const role = parseAdminRole(required(o, 'role'));
      if (!role) throw new UsageError(`--role must be one of ${ADMIN_ROLES.join(', ')}`);
      const { admin, token } = await createAdmin(em, { email: required(o, 'email'), role, tokenTtlDays: config.adminTokenTtlDays });
      // token: for scripts; setup_link: the admin sets a password and enrols TOTP to sign in at /admin.
      return { admin_id: admin.id, role, token, setup_link: await adminSetupLink(em, admin.id, publicBaseUrl(config, config.port)) };
    },
  },
  'admin-setup-link': {
    usage: 'admin-setup-link --email <email>   (a new single-use link: password and TOTP again, e.g. after a lost phone)',
    options: { email: { type: 'string' } },
    async run(em, o, config) {
      const admin = await foundByEmail(o, 'active admin', async (email) => {
        const found = await adminByEmail(em, email);
        return found?.revokedAt ? null : found;
      });
      return { admin_id: admin.id, setup_link: await adminSetupLink(em, admin.id, publicBaseUrl(config, config.port)) };
    },
  },
  'revoke-admin': {
    usage: 'revoke-admin --email <email>',
    options: { email: { type: 'string' } },
    async run(em, o) {
      const admin = await foundByEmail(o, 'admin', (email) => revokeAdmin(em, email));
      return { admin_id: admin.id, revoked: true };
    },
  },
  'reencrypt-secrets': {
    usage: 'reencrypt-secrets   (seals every stored secret again with ACCOUNT_SECRETS_KEY; after a rotation, once every instance has the new key)',
    options: {},
    async run(em, _o, config) {
      if (!config.accountSecretsKey) throw new UsageError('ACCOUNT_SECRETS_KEY is not set: there is no key to seal the secrets with');
      const report = await reencryptSecrets(em, createSecretBox(config.accountSecretsKey, config.accountSecretsOldKeys), config.accountSecretsKey);
      if (report.failed.length > 0) process.exitCode = 1;
      return report;
    },
  },
  'check-ledger': {
    usage: 'check-ledger   (exit status 1 when any money invariant is broken)',
    options: {},
    async run(em) {
      const check = await checkLedger(em);
      if (check.violations.length > 0) process.exitCode = 1;
      return check;
    },
  },
  mail: {
    usage: MAIL_CLI_USAGE,
    options: {},
    positionals: true,
    async run(em, _o, config, args) {
      try {
        return new Printed(await mailCli(em, args, createSecretBox(config.accountSecretsKey, config.accountSecretsOldKeys)));
      } catch (error) {
        if (error instanceof MailCliUsage) throw new UsageError(error.message);
        throw error;
      }
    },
  },
};

/** An answer for people (the mail commands): printed as it is, not as a JSON line. */
class Printed {
  constructor(readonly text: string) {}
}

class UsageError extends Error {}

/** Said to whoever runs the CLI, who can change the setting (a seller, refused through GraphQL, cannot: not said there). */
const PRIVATE_NETWORKS_HINT = ' For local development, WEBHOOK_ALLOW_PRIVATE_NETWORKS=1 allows http:// and private addresses.';

/** The same rule as the GraphQL settings (src/modules/webhooks/webhook-url.ts): HTTPS, no credentials, a public address. */
async function validWebhookUrl(raw: string, config: Config): Promise<string> {
  try {
    return await checkWebhookUrl(raw.trim(), { allowPrivateNetworks: config.webhooks.allowPrivateNetworks });
  } catch (error) {
    if (error instanceof DomainError) throw new UsageError(`--webhook-url must be an https URL with a public address: ${error.message}.${PRIVATE_NETWORKS_HINT}`);
    throw error;
  }
}

/** What `find` answers for the command's --email, or a usage error saying that no `who` (`seller`, `active admin`) has it. */
async function foundByEmail<T>(options: Record<string, string | undefined>, who: string, find: (email: string) => Promise<T | null | undefined>): Promise<T> {
  const email = required(options, 'email');
  const found = await find(email);
  if (!found) throw new UsageError(`No ${who} has the email address ${email}`);
  return found;
}

function required(options: Record<string, string | undefined>, name: string): string {
  const value = options[name]?.trim();
  if (!value) throw new UsageError(`--${name} is required`);
  if (name === 'email' && !isEmailAddress(value)) throw new UsageError('--email must be an email address');
  return value;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    process.stderr.write(`Usage: npm run cli -- <command>\n${Object.values(COMMANDS).map((c) => `  ${c.usage}`).join('\n')}\n`);
    return 2;
  }
  let options: Record<string, string | undefined>;
  let args: string[];
  try {
    const parsed = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: command.positionals ?? false });
    options = parsed.values as Record<string, string | undefined>;
    args = parsed.positionals;
    for (const key of Object.keys(command.options)) if (key !== 'webhook-url') required(options, key);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\nUsage: npm run cli -- ${command.usage}\n`);
    return 2;
  }
  const config = loadConfig();
  // Standard output carries only the answer; logs go to standard error.
  const database = await openDatabase(config, processLogger(config, 2), ENTITIES, 'cli');
  try {
    const result = await command.run(database.orm.em.fork(), options, config, args);
    process.stdout.write(result instanceof Printed ? result.text : `${JSON.stringify(result)}\n`);
    return Number(process.exitCode ?? 0);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    if ((error as { name?: string }).name === 'UniqueConstraintViolationException') {
      process.stderr.write('That email address is already registered\n');
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch(exitOnStartupFailure);
