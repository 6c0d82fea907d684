import { acceptInvitation } from '../../src/modules/identity/accounts.service';
import { verifyPassword } from '../../src/modules/identity/password';
import { Seller } from '../../src/modules/identity/seller.entity';
import { createDemoShopIfEmpty, demoShopNotice } from '../../src/modules/identity/demo-shop';
import { createSecretBox } from '../../src/modules/identity/secret-box';
import { useEmptyDatabase } from '../support/databases';
import { useModuleDatabase } from '../support/module-database';

/**
 * The first start on an empty embedded database (src/apps/main.ts): a demo shop whose seller chooses a password for
 * the dashboard with the printed link, so the README's payments show there. Only on an empty database.
 */
const empty = useEmptyDatabase('payments_demo');
const db = useModuleDatabase({ databaseUrl: () => empty.url });

test('the demo seller chooses a password with the printed link; a second start creates nothing', async () => {
  const demo = await createDemoShopIfEmpty(db.em(), createSecretBox(undefined), 'http://localhost:3000');
  expect(demo).not.toBeNull();
  const notice = demoShopNotice(demo!);
  expect(notice).toContain(`API key:        ${demo!.apiKey}`);
  const link = /dashboard: +(\S+)/.exec(notice)![1];
  expect(link).toBe(demo!.invitationLink);
  const token = new URL(link).searchParams.get('token')!;
  expect(new URL(link).origin + new URL(link).pathname).toBe('http://localhost:3000/dashboard/accept-invitation');

  await acceptInvitation(db.em(), token, 'Plum-orchard-at-dawn-42');
  const seller = await db.em().findOneOrFail(Seller, { email: 'demo@example.com' });
  expect(await verifyPassword('Plum-orchard-at-dawn-42', seller.passwordHash)).toBe(true);
  // The link works once.
  await expect(acceptInvitation(db.em(), token, 'Second-plum-orchard-43')).rejects.toMatchObject({ code: 'LINK_INVALID' });

  expect(await createDemoShopIfEmpty(db.em(), createSecretBox(undefined), 'http://localhost:3000')).toBeNull();
});
