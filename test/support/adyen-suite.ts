import { Payment } from '../../src/modules/payments/payment.entity';
import { AdyenStandIn } from './adyen-stand-in';
import { startTestService, type TestService } from './test-service';

/** What an Adyen suite shares: the stand-in, the service pointed at it, and two helpers every such suite uses. */
export interface AdyenSuite {
  adyen: AdyenStandIn;
  service: TestService;
  /** A payment as it is now in the database. */
  reload(id: string): Promise<Payment>;
  /** Applies every notification accepted so far (the inbox also does it on its own, a moment later). */
  applyNotifications(): Promise<number>;
}

/**
 * Registers, for the calling test file, one Adyen stand-in and one service on it (started before all tests,
 * stopped after), and fails any test that sent a request or notification breaking Adyen's published
 * definitions. The returned object is filled in before the first test runs.
 */
export function adyenSuite(name: string, env: Record<string, string> = {}): AdyenSuite {
  const suite = {
    reload: (id: string) => suite.service.em().findOneOrFail(Payment, { id }, { refresh: true }),
    applyNotifications: () => suite.service.services.acquirerNotifications!.inbox.drain(),
  } as AdyenSuite;
  beforeAll(async () => {
    suite.adyen = await new AdyenStandIn().start();
    suite.service = await startTestService({ ...suite.adyen.env(), ...env }, name);
    suite.adyen.serviceUrl = suite.service.url;
  });
  afterAll(async () => {
    await suite.service?.stop();
    await suite.adyen?.close();
  });
  afterEach(() => expect(suite.adyen.violations).toEqual([]));
  return suite;
}
