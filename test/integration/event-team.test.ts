import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { setAccountRoleByEmail } from '../../src-server/services/roles/set-account-role.ts';
import {
  INVITATION_TTL_MS,
  INVITATIONS_PER_ADDRESS,
  INVITATIONS_PER_EVENT_PER_HOUR,
  INVITATIONS_PER_SENDER,
  TOO_MANY_INVITATIONS,
  TOO_MANY_INVITATIONS_FROM_SENDER,
  TOO_MANY_INVITATIONS_TO_ADDRESS,
} from '../../src-server/services/team/invite-team-member.ts';
import type { ConsoleWorld } from '../helpers/console-world.ts';
import {
  account,
  consoleWorld,
  invitation,
  invitationMailedTo,
  invitedThroughOwner,
  ownedEvent,
} from '../helpers/engine-fixtures.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { signUpVia, uniqueEmail } from './auth-helpers.ts';

describe('event team: invite, accept, remove', () => {
  let t: TestApp;
  let w: ConsoleWorld;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
    w = await consoleWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const roleOf = async (userId: string) => {
    const { eventTeamMembers } = tablesOf(t.deps.db);
    const [row] = await t.deps.db
      .select({ role: eventTeamMembers.role })
      .from(eventTeamMembers)
      .where(and(eq(eventTeamMembers.eventId, w.event.eventId), eq(eventTeamMembers.userId, userId)));
    return row?.role ?? null;
  };

  it('someone without an account is invited, signs up with that address, accepts from the link and joins the team', async () => {
    const email = uniqueEmail('gate');
    const { token, mail } = await invitedThroughOwner(t, w, email, 'gate_staff');
    expect(mail.subject).toBe(`You're invited to ${w.event.eventName} on Jalsa`);
    expect(mail.text).toContain('as gate staff');
    // Gate staff are told where the scanner is (issue 35): the mail names /gate, not only the console.
    expect(mail.text).toMatch(
      /open the gate scanner on your phone, signed in with this address: http\S*\/gate\b/,
    );

    // The link's page works signed out: it names the event, the role and the address.
    const shown = await callProcedure(t, 'query', 'console.invitation', { token });
    expect(shown.data).toEqual({ eventName: w.event.eventName, email, role: 'gate_staff', accepted: false });
    // The owner sees it waiting.
    const team = await callProcedure(
      t,
      'query',
      'console.team',
      { eventId: w.event.eventId },
      {
        cookie: w.people.owner.cookie,
      },
    );
    expect((team.data as { invitations: { email: string }[] }).invitations.map((i) => i.email)).toEqual([
      email,
    ]);

    const invitee = await signUpVia(t, { email: email.toUpperCase() });
    const accepted = await callProcedure(
      t,
      'mutation',
      'console.acceptInvitation',
      { token },
      {
        cookie: invitee.cookie,
      },
    );
    expect(accepted.data).toEqual({ eventId: w.event.eventId, role: 'gate_staff' });
    expect(await roleOf(invitee.account.id)).toBe('gate_staff');
    // The mailed link proved the address.
    const { users } = tablesOf(t.deps.db);
    const [verified] = await t.deps.db.select().from(users).where(eq(users.id, invitee.account.id));
    expect(verified?.isEmailVerified).toBe(true);
    // Accepting again is harmless; the event now appears in their console with their role.
    expect(
      (await callProcedure(t, 'mutation', 'console.acceptInvitation', { token }, { cookie: invitee.cookie }))
        .status,
    ).toBe(200);
    const mine = await callProcedure(t, 'query', 'console.myEvents', undefined, { cookie: invitee.cookie });
    expect(mine.data).toMatchObject([{ id: w.event.eventId, myRole: 'gate_staff' }]);
    // …without the takings: the event's gross is the organisers' business, not the gate's (issue 35).
    const row = (mine.data as { ticketRevenuePaise: unknown; payablePaise: unknown }[])[0]!;
    expect([row.ticketRevenuePaise, row.payablePaise]).toEqual([null, null]);
    const view = await callProcedure(
      t,
      'query',
      'console.event',
      { eventId: w.event.eventId },
      {
        cookie: invitee.cookie,
      },
    );
    expect(view.data).toMatchObject({ myRole: 'gate_staff' });
  });

  it('the owner removes a member, whose access ends with their next request', async () => {
    const member = await account(t);
    const { token } = await invitedThroughOwner(t, w, member.email, 'co_organiser');
    await callProcedure(t, 'mutation', 'console.acceptInvitation', { token }, { cookie: member.cookie });
    expect(await roleOf(member.userId)).toBe('co_organiser');
    const view = () =>
      callProcedure(t, 'query', 'console.event', { eventId: w.event.eventId }, { cookie: member.cookie });
    expect((await view()).status).toBe(200);

    const removed = await callProcedure(
      t,
      'mutation',
      'console.removeMember',
      { eventId: w.event.eventId, memberUserId: member.userId },
      { cookie: w.people.owner.cookie },
    );
    expect(removed.data).toEqual({ removed: true });
    expect(await roleOf(member.userId)).toBeNull();
    expect((await view()).status).toBe(404);
    // A member of another event cannot be removed through this one.
    const elsewhere = await callProcedure(
      t,
      'mutation',
      'console.removeMember',
      { eventId: w.event.eventId, memberUserId: w.people['organiser of another event'].userId },
      { cookie: w.people.owner.cookie },
    );
    expect(elsewhere.status).toBe(404);
  });

  it('a co-organiser manages the team like the owner (invites, removes gate staff and co-organisers), never the owner', async () => {
    const co = { cookie: w.people['co-organiser'].cookie };
    const eventId = w.event.eventId;
    const invitee = await account(t);
    const invited = await callProcedure(
      t,
      'mutation',
      'console.invite',
      { eventId, email: invitee.email, role: 'co_organiser' },
      co,
    );
    expect(invited.status).toBe(200);
    const { token } = await invitationMailedTo(t, invitee.email);
    await callProcedure(t, 'mutation', 'console.acceptInvitation', { token }, { cookie: invitee.cookie });
    expect(await roleOf(invitee.userId)).toBe('co_organiser');

    for (const memberUserId of [w.people['gate staff'].userId, invitee.userId]) {
      const removed = await callProcedure(
        t,
        'mutation',
        'console.removeMember',
        { eventId, memberUserId },
        co,
      );
      expect(removed.data).toEqual({ removed: true });
      expect(await roleOf(memberUserId)).toBeNull();
    }

    // The owner is not on the team: neither invited nor removed, by anyone.
    const owner = w.people.owner;
    const inviteOwner = await callProcedure(
      t,
      'mutation',
      'console.invite',
      { eventId, email: owner.email, role: 'gate_staff' },
      co,
    );
    expect(inviteOwner.status).toBe(409);
    const removeOwner = await callProcedure(
      t,
      'mutation',
      'console.removeMember',
      { eventId, memberUserId: owner.userId },
      co,
    );
    expect(removeOwner.status).toBe(404);
    const { events } = tablesOf(t.deps.db);
    expect(
      await t.deps.db.select({ ownerId: events.ownerId }).from(events).where(eq(events.id, eventId)),
    ).toEqual([{ ownerId: owner.userId }]);
    // Cancelling the whole event stays the owner's (and admins').
    const cancel = await callProcedure(t, 'mutation', 'organiser.cancelEvent', { eventId, version: 1 }, co);
    expect(cancel.status).toBe(403);
  });

  it('a removed co-organiser’s waiting invitations die with their role: the link no longer lets anyone in', async () => {
    const eventId = w.event.eventId;
    const co = w.people['co-organiser'];
    // The attack (issue 35, item 4): before being removed, the co-organiser invites an address they control.
    const accomplice = await account(t);
    const invited = await callProcedure(
      t,
      'mutation',
      'console.invite',
      { eventId, email: accomplice.email, role: 'co_organiser' },
      { cookie: co.cookie },
    );
    expect(invited.status).toBe(200);
    const { token } = await invitationMailedTo(t, accomplice.email);
    // The owner's own invitation, waiting too, is not the removed member's and stays.
    const kept = await invitedThroughOwner(t, w, uniqueEmail('kept'), 'gate_staff');

    const removed = await callProcedure(
      t,
      'mutation',
      'console.removeMember',
      { eventId, memberUserId: co.userId },
      { cookie: w.people.owner.cookie },
    );
    expect(removed.status).toBe(200);

    // The refusal: the link is dead, the page says so, and nobody joined.
    const shown = await callProcedure(t, 'query', 'console.invitation', { token });
    expect(shown.status).toBe(404);
    const accepted = await callProcedure(
      t,
      'mutation',
      'console.acceptInvitation',
      { token },
      { cookie: accomplice.cookie },
    );
    expect(accepted.status).toBe(404);
    expect(accepted.body.error?.message).toBe('This invitation link is invalid or has expired.');
    expect(await roleOf(accomplice.userId)).toBeNull();
    const editor = await callProcedure(t, 'query', 'organiser.editableEvent', { eventId }, accomplice);
    expect(editor.status).toBe(404);
    // The team page no longer lists it as waiting; the owner's invitation still works.
    const team = await callProcedure(
      t,
      'query',
      'console.team',
      { eventId },
      { cookie: w.people.owner.cookie },
    );
    expect((team.data as { invitations: { email: string }[] }).invitations.map((i) => i.email)).toEqual([
      kept.mail.to,
    ]);
    expect((await callProcedure(t, 'query', 'console.invitation', { token: kept.token })).status).toBe(200);
  });

  it('an admin whose admin role is taken away leaves no invitation behind that still works', async () => {
    const eventId = w.event.eventId;
    const admin = w.people.admin;
    const invitee = await account(t);
    const invited = await callProcedure(
      t,
      'mutation',
      'console.invite',
      { eventId, email: invitee.email, role: 'co_organiser' },
      { cookie: admin.cookie },
    );
    expect(invited.status).toBe(200);
    const { token } = await invitationMailedTo(t, invitee.email);
    // `npm run user:role -- <admin> none`: the role change voids what the admin issued.
    expect(
      await setAccountRoleByEmail(
        t.deps.db,
        { email: admin.email, role: 'none', grantedBy: null },
        t.clock.now(),
      ),
    ).toMatchObject({ previous: 'admin' });
    const accepted = await callProcedure(
      t,
      'mutation',
      'console.acceptInvitation',
      { token },
      { cookie: invitee.cookie },
    );
    expect(accepted.status).toBe(404);
    expect(await roleOf(invitee.userId)).toBeNull();
  });

  it('an invitation is only as good as its sender’s right to invite, whichever way that right ended', async () => {
    const eventId = w.event.eventId;
    const co = w.people['co-organiser'];
    const invitee = await account(t);
    const { token } = await invitation(t, { eventId, invitedBy: co.userId, email: invitee.email });
    // The member row goes by a path that does not void anything (a direct database change): accepting
    // still checks that the sender may invite to this event today.
    const { eventTeamMembers } = tablesOf(t.deps.db);
    await t.deps.db
      .delete(eventTeamMembers)
      .where(and(eq(eventTeamMembers.eventId, eventId), eq(eventTeamMembers.userId, co.userId)));
    const accepted = await callProcedure(
      t,
      'mutation',
      'console.acceptInvitation',
      { token },
      { cookie: invitee.cookie },
    );
    expect(accepted.status).toBe(404);
    expect(await roleOf(invitee.userId)).toBeNull();
  });

  it('refuses a link used by another account, an expired link, a cancelled one, and inviting the owner or a member', async () => {
    const invitee = await account(t);
    const { token } = await invitedThroughOwner(t, w, invitee.email);
    const other = await account(t);
    const wrong = await callProcedure(
      t,
      'mutation',
      'console.acceptInvitation',
      { token },
      { cookie: other.cookie },
    );
    expect(wrong.status).toBe(403);
    expect(wrong.body.error?.message).toBe(
      'This invitation was sent to another e-mail address. Sign in with that address to accept it.',
    );

    t.clock.advance(INVITATION_TTL_MS + 1);
    const expired = await callProcedure(
      t,
      'mutation',
      'console.acceptInvitation',
      { token },
      {
        cookie: invitee.cookie,
      },
    );
    expect(expired.status).toBe(404);
    expect(expired.body.error?.message).toBe('This invitation link is invalid or has expired.');
    expect(await roleOf(invitee.userId)).toBeNull();

    const fresh = await invitedThroughOwner(t, w, invitee.email);
    const team = await callProcedure(
      t,
      'query',
      'console.team',
      { eventId: w.event.eventId },
      {
        cookie: w.people.owner.cookie,
      },
    );
    const [waiting] = (team.data as { invitations: { id: string }[] }).invitations;
    await callProcedure(
      t,
      'mutation',
      'console.cancelInvitation',
      { eventId: w.event.eventId, invitationId: waiting!.id },
      { cookie: w.people.owner.cookie },
    );
    expect(
      (
        await callProcedure(
          t,
          'mutation',
          'console.acceptInvitation',
          { token: fresh.token },
          { cookie: invitee.cookie },
        )
      ).status,
    ).toBe(404);

    const invite = (email: string) =>
      callProcedure(
        t,
        'mutation',
        'console.invite',
        { eventId: w.event.eventId, email, role: 'gate_staff' },
        {
          cookie: w.people.admin.cookie,
        },
      );
    expect((await invite(w.people.owner.email)).body.error?.message).toBe(
      'The owner is already in charge of this event.',
    );
    expect((await invite(w.people['gate staff'].email)).body.error?.message).toBe(
      'That person is already on this event’s team.',
    );
    const bad = await invite('not-an-email');
    expect(bad.status).toBe(400);
    expect(bad.body.error?.data.fieldErrors?.email).toBeDefined();
  });

  it('a new invitation to the same address replaces the old one, whose link stops working', async () => {
    const invitee = await account(t);
    const first = await invitedThroughOwner(t, w, invitee.email, 'co_organiser');
    t.clock.advance(1000);
    const second = await inviteThroughOwnerAgain(invitee.email, 'gate_staff');
    const old = await callProcedure(
      t,
      'mutation',
      'console.acceptInvitation',
      { token: first.token },
      {
        cookie: invitee.cookie,
      },
    );
    expect(old.status).toBe(404);
    const accepted = await callProcedure(
      t,
      'mutation',
      'console.acceptInvitation',
      { token: second },
      {
        cookie: invitee.cookie,
      },
    );
    expect(accepted.data).toMatchObject({ role: 'gate_staff' });
  });

  it(`sends at most ${INVITATIONS_PER_EVENT_PER_HOUR} invitations per event an hour, re-sends and cancelled ones included`, async () => {
    const invite = (email: string) =>
      callProcedure(
        t,
        'mutation',
        'console.invite',
        { eventId: w.event.eventId, email, role: 'gate_staff' },
        {
          cookie: w.people.owner.cookie,
        },
      );
    for (let i = 0; i < INVITATIONS_PER_EVENT_PER_HOUR; i++) {
      // A few of them re-send to one address: replacing does not reset the count.
      expect((await invite(i < 3 ? 'same@example.com' : `p${i}@example.com`)).status).toBe(200);
    }
    const refused = await invite('one-more@example.com');
    expect(refused.status).toBe(429);
    expect(refused.body.error?.message).toBe(TOO_MANY_INVITATIONS);
    // Another event's limit is its own; and an hour later this one may invite again.
    const other = await callProcedure(
      t,
      'mutation',
      'console.invite',
      { eventId: w.otherEvent.eventId, email: 'x@example.com', role: 'gate_staff' },
      { cookie: w.people['organiser of another event'].cookie },
    );
    expect(other.status).toBe(200);
    t.clock.advance(60 * 60 * 1000);
    expect((await invite('one-more@example.com')).status).toBe(200);
  });

  it(`mails one address at most ${INVITATIONS_PER_ADDRESS.max} invitations a day, whoever sends them and for whichever event`, async () => {
    // The attack (issue 35, item 11): one organiser's invitations, re-sent as fast as possible, flood one
    // mailbox with the organiser's own text (event name, inviter name).
    const owner = w.people.owner;
    const second = await ownedEvent(t, owner.userId, 'Second Night');
    const victim = 'victim@example.com';
    const invite = (eventId: string, email: string, cookie = owner.cookie) =>
      callProcedure(t, 'mutation', 'console.invite', { eventId, email, role: 'gate_staff' }, { cookie });
    const { outbox } = tablesOf(t.deps.db);
    const mailsTo = async (to: string) =>
      (await t.deps.db.select().from(outbox).where(eq(outbox.to, to))).length;

    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => invite(i % 2 ? second.eventId : w.event.eventId, victim)),
    );
    // The refusal: only the first few go out; the rest are told why, and nothing more is mailed.
    expect(answers.filter((a) => a.status === 200)).toHaveLength(INVITATIONS_PER_ADDRESS.max);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.map((a) => a.status)).toEqual(refused.map(() => 429));
    expect(refused[0]!.body.error?.message).toBe(TOO_MANY_INVITATIONS_TO_ADDRESS);
    expect(await mailsTo(victim)).toBe(INVITATIONS_PER_ADDRESS.max);
    // Another sender cannot go on where this one stopped; another address is not affected.
    const other = w.people['organiser of another event'];
    expect((await invite(w.otherEvent.eventId, victim, other.cookie)).status).toBe(429);
    expect((await invite(w.event.eventId, 'someone-else@example.com')).status).toBe(200);
    // A day later the address may be invited again.
    t.clock.advance(INVITATIONS_PER_ADDRESS.windowMs);
    expect((await invite(w.event.eventId, victim)).status).toBe(200);
  });

  it(`lets one person send at most ${INVITATIONS_PER_SENDER.max} invitations an hour, across all their events`, async () => {
    const owner = w.people.owner;
    const events = [w.event.eventId, (await ownedEvent(t, owner.userId, 'Second Night')).eventId];
    events.push((await ownedEvent(t, owner.userId, 'Third Night')).eventId);
    const invite = (i: number) =>
      callProcedure(
        t,
        'mutation',
        'console.invite',
        { eventId: events[i % events.length], email: `guest${i}@example.com`, role: 'gate_staff' },
        { cookie: owner.cookie },
      );
    for (let i = 0; i < INVITATIONS_PER_SENDER.max; i++) expect((await invite(i)).status).toBe(200);
    const refused = await invite(INVITATIONS_PER_SENDER.max);
    expect(refused.status).toBe(429);
    expect(refused.body.error?.message).toBe(TOO_MANY_INVITATIONS_FROM_SENDER);
    // The sender's limit is theirs: a co-organiser of the same event may still invite.
    const co = await callProcedure(
      t,
      'mutation',
      'console.invite',
      { eventId: w.event.eventId, email: 'co-guest@example.com', role: 'gate_staff' },
      { cookie: w.people['co-organiser'].cookie },
    );
    expect(co.status).toBe(200);
    t.clock.advance(INVITATIONS_PER_SENDER.windowMs);
    expect((await invite(INVITATIONS_PER_SENDER.max + 1)).status).toBe(200);
  });

  async function inviteThroughOwnerAgain(email: string, role: string): Promise<string> {
    const res = await callProcedure(
      t,
      'mutation',
      'console.invite',
      { eventId: w.event.eventId, email, role },
      {
        cookie: w.people.owner.cookie,
      },
    );
    expect(res.status).toBe(200);
    return (await invitationMailedTo(t, email)).token;
  }
});
