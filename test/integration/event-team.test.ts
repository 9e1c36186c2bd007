import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { users } from '../../src-server/db/schema/accounts.ts';
import { eventTeamMembers } from '../../src-server/db/schema/roles.ts';
import { INVITATION_TTL_MS } from '../../src-server/services/team/invite-team-member.ts';
import {
  type ConsoleWorld,
  createAccount,
  createConsoleWorld,
  inviteThroughOwner,
} from '../helpers/console-world.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { signUpVia, uniqueEmail } from './auth-helpers.ts';

describe('event team: invite, accept, remove', () => {
  let t: TestApp;
  let w: ConsoleWorld;
  beforeEach(() => {
    t = createTestApp();
    w = createConsoleWorld(t);
  });
  afterEach(() => t.close());

  const roleOf = (userId: string) =>
    t.deps.db
      .select({ role: eventTeamMembers.role })
      .from(eventTeamMembers)
      .where(and(eq(eventTeamMembers.eventId, w.event.eventId), eq(eventTeamMembers.userId, userId)))
      .get()?.role ?? null;

  it('someone without an account is invited, signs up with that address, accepts from the link and joins the team', async () => {
    const email = uniqueEmail('gate');
    const { token, mail } = await inviteThroughOwner(t, w, email, 'gate_staff');
    expect(mail.subject).toBe(`You're invited to ${w.event.eventName} on Jalsa`);
    expect(mail.text).toContain('as gate staff');

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
    expect(roleOf(invitee.account.id)).toBe('gate_staff');
    // The mailed link proved the address.
    expect(
      t.deps.db.select().from(users).where(eq(users.id, invitee.account.id)).get()?.isEmailVerified,
    ).toBe(true);
    // Accepting again is harmless; the event now appears in their console with their role.
    expect(
      (await callProcedure(t, 'mutation', 'console.acceptInvitation', { token }, { cookie: invitee.cookie }))
        .status,
    ).toBe(200);
    const mine = await callProcedure(t, 'query', 'console.myEvents', undefined, { cookie: invitee.cookie });
    expect(mine.data).toMatchObject([{ id: w.event.eventId, myRole: 'gate_staff' }]);
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
    const member = createAccount(t);
    const { token } = await inviteThroughOwner(t, w, member.email, 'co_organiser');
    await callProcedure(t, 'mutation', 'console.acceptInvitation', { token }, { cookie: member.cookie });
    expect(roleOf(member.userId)).toBe('co_organiser');
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
    expect(roleOf(member.userId)).toBeNull();
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

  it('refuses a link used by another account, an expired link, a cancelled one, and inviting the owner or a member', async () => {
    const invitee = createAccount(t);
    const { token } = await inviteThroughOwner(t, w, invitee.email);
    const other = createAccount(t);
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
    expect(roleOf(invitee.userId)).toBeNull();

    const fresh = await inviteThroughOwner(t, w, invitee.email);
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
});
