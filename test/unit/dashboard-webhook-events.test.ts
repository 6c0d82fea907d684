import { OPTIONAL_WEBHOOK_EVENTS } from '../../src/modules/identity/webhook-event-choice';
import { WEBHOOK_EVENT_CHOICES } from '../../dashboard-ui/src/webhook-events';

test("the Developers screen offers exactly the events a shop may choose, in the server's order, each with when it is sent", () => {
  expect(WEBHOOK_EVENT_CHOICES.map(([event]) => event)).toEqual([...OPTIONAL_WEBHOOK_EVENTS]);
  for (const [, when] of WEBHOOK_EVENT_CHOICES) expect(when).toMatch(/^[a-z].{10,}[a-z]$/);
});
