import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestAppOn, type TestApp, tablesFor, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

describe('Contact Us mail', () => {
  const { contactMessages, outbox } = tablesFor(testEngine());
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine(), { SUPPORT_EMAIL: 'help@jalsa.example' });
  });
  afterEach(async () => {
    await t.close();
  });

  it('queues a mail to the support address with the message, in the same write', async () => {
    const res = await callProcedure(t, 'mutation', 'contact.send', {
      firstName: 'Asha',
      lastName: 'Verma',
      email: 'asha@example.com',
      mobile: '9876543210',
      message: 'Is there parking at the <venue>?',
    });
    expect(res.status).toBe(200);
    const mails = await t.deps.db.select().from(outbox);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.to).toBe('help@jalsa.example');
    expect(mail.subject).toBe('Contact Us: message from Asha Verma');
    expect(mail.text).toContain('Is there parking at the <venue>?');
    expect(mail.text).toContain('asha@example.com');
    expect(mail.html).toContain('Is there parking at the &#60;venue&#62;?');
    const saved = await t.deps.db.select().from(contactMessages);
    expect(mail.idempotencyKey).toBe(`contact-message:${saved[0]!.id}`);
  });

  it('queues nothing for a message that fails validation', async () => {
    const res = await callProcedure(t, 'mutation', 'contact.send', {
      firstName: '',
      email: 'x',
      message: '',
    });
    expect(res.status).toBe(400);
    expect(await t.deps.db.select().from(outbox)).toHaveLength(0);
  });
});
