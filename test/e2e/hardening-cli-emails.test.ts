import { randomBytes } from 'node:crypto';
import { dashboard, STRONG_PASSWORD } from '../support/dashboard-client';
import { runNode } from '../support/processes';
import { useTestService } from '../support/test-service';

/**
 * A seller the operator creates with `create-shop` gets the address in the normal form sign-up stores (trimmed,
 * lower case): the same person cannot end up with two accounts differing only by case or spaces, and the
 * invitation's seller signs in however they type the address.
 */
const service = useTestService();

const cli = (args: string[]) => runNode('cli.js', args, { DATABASE_URL: service.database.orm.config.getClientUrl(), LOG_LEVEL: 'warn' });

test('create-shop stores " Ann.Case@Example.COM " as ann.case@…; the same address in another case is refused, by the CLI and by sign-up', async () => {
  const local = `Ann.Case.${randomBytes(3).toString('hex')}`;
  const created = await cli(['create-shop', '--email', `  ${local}@Example.COM `, '--name', 'Cased Kiosk']);
  expect(created.code).toBe(0);
  const { seller_id: sellerId, invitation_link: link } = JSON.parse(created.stdout);
  const [row] = await service.em().execute('select "email" from "sellers" where "id" = ?', [sellerId]);
  expect(row.email).toBe(`${local.toLowerCase()}@example.com`);

  const twin = await cli(['create-shop', '--email', `${local.toUpperCase()}@EXAMPLE.COM`, '--name', 'Twin Kiosk']);
  expect(twin.code).toBe(1);
  expect(twin.stderr).toMatch(/That email address is already registered/);
  const signUp = await dashboard(service.url, 'SignUp', { input: { email: `${local.toLowerCase()}@example.com`, password: STRONG_PASSWORD, shopName: 'Squatter' } });
  expect(signUp.body.errors?.[0]?.extensions?.code).toBe('EMAIL_TAKEN');

  // The invited seller chooses a password and signs in with the address as the operator typed it.
  const token = new URL(link).searchParams.get('token');
  expect((await dashboard(service.url, 'AcceptInvitation', { token, password: STRONG_PASSWORD })).body.data).toEqual({ acceptInvitation: true });
  const signIn = await dashboard(service.url, 'SignIn', { email: `${local}@Example.COM`, password: STRONG_PASSWORD });
  expect(signIn.body.data.signIn.seller.id).toBe(sellerId);
});
