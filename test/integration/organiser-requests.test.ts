import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { getAccountRole } from '../../src-server/services/roles/get-account-role.ts';
import { account } from '../helpers/engine-fixtures.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

const REQUEST = {
  organisationName: 'Sur Sangam Events',
  contactPhone: '+91 98765 43210',
  city: 'Bangalore',
  whatTheyRun: 'Carnatic concerts twice a month',
  gstin: '27aapfu0939f1zv',
};

describe('List your Event: organiser requests', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterEach(async () => {
    await t.close();
  });

  const mailsTo = (to: string) => {
    const { outbox } = tablesOf(t.deps.db);
    return t.deps.db.select().from(outbox).where(eq(outbox.to, to)).orderBy(outbox.id);
  };
  const requests = () => t.deps.db.select().from(tablesOf(t.deps.db).organiserRequests);

  it('reaches every admin by mail and on the admin page; approving makes the requester an organiser and mails them', async () => {
    const requester = await account(t, 'none', { name: 'Meera Iyer' });
    const admins = [await account(t, 'admin'), await account(t, 'admin')];

    const sent = await callProcedure(t, 'mutation', 'organiserRequests.submit', REQUEST, {
      cookie: requester.cookie,
    });
    expect(sent.status).toBe(200);
    // Stored normalised: the phone's +91 and spaces gone, the city's alias resolved, the GSTIN upper-cased.
    expect(await requests()).toHaveLength(1);
    expect((await requests())[0]).toMatchObject({
      contactPhone: '9876543210',
      city: 'Bengaluru',
      gstin: '27AAPFU0939F1ZV',
      status: 'pending',
    });
    for (const admin of admins) {
      const [mail] = await mailsTo(admin.email);
      expect(mail?.subject).toBe('List your Event: Sur Sangam Events asks to sell tickets');
      expect(mail?.text).toContain('http://localhost/admin');
      expect(mail?.text).toContain(requester.email);
    }

    const list = await callProcedure(t, 'query', 'admin.organiserRequests', undefined, {
      cookie: admins[0]!.cookie,
    });
    const [row] = list.data as { id: string; requesterEmail: string; status: string }[];
    expect(row).toMatchObject({ requesterEmail: requester.email, status: 'pending' });

    const mine = await callProcedure(t, 'query', 'organiserRequests.mine', undefined, {
      cookie: requester.cookie,
    });
    expect(mine.data).toMatchObject({ status: 'pending', organisationName: 'Sur Sangam Events' });
    // One request waits at a time.
    const again = await callProcedure(t, 'mutation', 'organiserRequests.submit', REQUEST, {
      cookie: requester.cookie,
    });
    expect(again.status).toBe(409);
    expect(again.body.error?.message).toBe('Your request is already waiting for an admin.');

    const approved = await callProcedure(
      t,
      'mutation',
      'admin.approveRequest',
      { requestId: row!.id },
      {
        cookie: admins[1]!.cookie,
      },
    );
    expect(approved.data).toEqual({ status: 'approved' });
    expect(await getAccountRole(t.deps.db, requester.userId)).toBe('organiser');
    const [decidedMail] = await mailsTo(requester.email);
    expect(decidedMail?.subject).toBe('Your Jalsa organiser request was approved');
    expect(decidedMail?.text).toContain('http://localhost/organiser');

    // The other admin's click comes second: decided once, and said so.
    const late = await callProcedure(
      t,
      'mutation',
      'admin.declineRequest',
      { requestId: row!.id },
      {
        cookie: admins[0]!.cookie,
      },
    );
    expect(late.status).toBe(409);
    expect(late.body.error?.message).toBe('This request has already been decided.');
    expect(await getAccountRole(t.deps.db, requester.userId)).toBe('organiser');
    expect(await mailsTo(requester.email)).toHaveLength(1);
  });

  it('declining keeps the requester a buyer, mails them, and lets them ask again', async () => {
    const requester = await account(t);
    const admin = await account(t, 'admin');
    await callProcedure(t, 'mutation', 'organiserRequests.submit', REQUEST, { cookie: requester.cookie });
    const id = (await requests())[0]!.id;
    const declined = await callProcedure(
      t,
      'mutation',
      'admin.declineRequest',
      { requestId: id },
      {
        cookie: admin.cookie,
      },
    );
    expect(declined.data).toEqual({ status: 'declined' });
    expect(await getAccountRole(t.deps.db, requester.userId)).toBe('none');
    expect((await mailsTo(requester.email)).map((m) => m.subject)).toEqual([
      'Your Jalsa organiser request was declined',
    ]);
    const again = await callProcedure(t, 'mutation', 'organiserRequests.submit', REQUEST, {
      cookie: requester.cookie,
    });
    expect(again.status).toBe(200);
  });

  it('goes to the support address while the installation has no admin', async () => {
    const requester = await account(t);
    await callProcedure(t, 'mutation', 'organiserRequests.submit', REQUEST, { cookie: requester.cookie });
    expect(await mailsTo(t.deps.env.SUPPORT_EMAIL)).toHaveLength(1);
  });

  it('answers each bad field with its message beside the field', async () => {
    const requester = await account(t);
    const res = await callProcedure(
      t,
      'mutation',
      'organiserRequests.submit',
      {
        organisationName: ' ',
        contactPhone: '12345',
        city: 'Atlantis',
        whatTheyRun: 'x'.repeat(1001),
        gstin: '27AAPFU0939F1ZW',
      },
      { cookie: requester.cookie },
    );
    expect(res.status).toBe(400);
    expect(res.body.error?.data.fieldErrors).toEqual({
      organisationName: 'Organisation name is required',
      contactPhone: 'Please enter a valid 10-digit mobile number',
      city: 'Please choose a city',
      whatTheyRun: 'Please keep this under 1000 characters',
      gstin: 'Please enter a valid 15-character GSTIN (e.g. 27AAPFU0939F1ZV)',
    });
    expect(await requests()).toEqual([]);
  });

  it('lets an admin grant and take away organiser rights directly, but not change an admin', async () => {
    const admin = await account(t, 'admin');
    const other = await account(t, 'admin');
    const person = await account(t);
    const grant = (email: string, role: string) =>
      callProcedure(t, 'mutation', 'admin.setOrganiser', { email, role }, { cookie: admin.cookie });
    expect((await grant(person.email.toUpperCase(), 'organiser')).status).toBe(200);
    expect(await getAccountRole(t.deps.db, person.userId)).toBe('organiser');
    expect((await grant(person.email, 'none')).status).toBe(200);
    expect(await getAccountRole(t.deps.db, person.userId)).toBe('none');
    const admins = await grant(other.email, 'none');
    expect(admins.status).toBe(409);
    expect(await getAccountRole(t.deps.db, other.userId)).toBe('admin');
    const nobody = await grant('nobody@example.com', 'organiser');
    expect(nobody.status).toBe(404);
    expect(nobody.body.error?.message).toBe('No account has that e-mail address. Ask them to sign up first.');
  });
});
