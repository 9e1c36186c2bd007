import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src-server/db/client.ts';
import { runStatements } from '../../src-server/db/engine/reads.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import type { AppDeps } from '../../src-server/deps.ts';
import { loadEnv } from '../../src-server/env.ts';
import { DomainError } from '../../src-server/errors.ts';
import { getAccount } from '../../src-server/services/accounts/account.ts';
import { pruneExpiredAccountRows } from '../../src-server/services/accounts/cleanup.ts';
import {
  resendVerificationMail,
  verifyEmail,
} from '../../src-server/services/accounts/email-verification.ts';
import { signInWithGoogle } from '../../src-server/services/accounts/google.ts';
import { MAX_FAILURES_PER_ACCOUNT } from '../../src-server/services/accounts/login-throttle.ts';
import { markEmailVerified } from '../../src-server/services/accounts/mark-email-verified.ts';
import {
  changePassword,
  requestPasswordReset,
  resetPassword,
} from '../../src-server/services/accounts/password-reset.ts';
import { updateProfile } from '../../src-server/services/accounts/profile.ts';
import { isResetLinkUsable } from '../../src-server/services/accounts/reset-link-status.ts';
import { invalidateSession, validateSessionSteps } from '../../src-server/services/accounts/sessions.ts';
import { signIn } from '../../src-server/services/accounts/sign-in.ts';
import { isUniqueViolation, signUp } from '../../src-server/services/accounts/sign-up.ts';
import {
  DEMO_ADMIN,
  ensureDemoOrganiser,
  ensureDemoSignIns,
} from '../../src-server/services/roles/ensure-demo-accounts.ts';
import { getAccountRole } from '../../src-server/services/roles/get-account-role.ts';
import { grantOrganiserRole } from '../../src-server/services/roles/grant-organiser-role.ts';
import { setAccountRoleByEmail } from '../../src-server/services/roles/set-account-role.ts';
import { acceptInvitation } from '../../src-server/services/team/accept-invitation.ts';
import { cancelInvitation } from '../../src-server/services/team/cancel-invitation.ts';
import { describeInvitation } from '../../src-server/services/team/find-invitation.ts';
import { inviteTeamMember } from '../../src-server/services/team/invite-team-member.ts';
import { listEventTeam } from '../../src-server/services/team/list-event-team.ts';
import { loadEventAccess } from '../../src-server/services/team/load-event-access.ts';
import { removeTeamMember } from '../../src-server/services/team/remove-team-member.ts';
import {
  accountMayOnEvent,
  requireEventPermission,
} from '../../src-server/services/team/require-event-permission.ts';
import { createTestApp, type TestClock, testClock } from '../helpers/test-app.ts';
import { freshPostgresDatabase, testPostgresUrl } from '../helpers/test-postgres.ts';

// Issue 38: the accounts, roles and team services written once (ADR 0045). The same functions, given
// each engine's database, sign up, sign in (and throttle), keep sessions, reset passwords, verify
// addresses, grant roles and build an event's team; the races a second server process makes possible
// (a reset link used twice at once, an invitation accepted twice at once) end the same on both.

type Deps = Pick<AppDeps, 'db' | 'clock' | 'env'>;

const serverUrl = testPostgresUrl('engine-accounts.test.ts');
const engines: [string, () => Promise<{ db: Db; close: () => Promise<void> }>][] = [
  [
    'SQLite',
    async () => {
      const t = createTestApp();
      return { db: t.deps.db, close: async () => t.close() };
    },
  ],
];
if (serverUrl) {
  engines.push([
    'PostgreSQL',
    async () => {
      const fresh = await freshPostgresDatabase(serverUrl, { poolSize: 8 });
      return { db: fresh.db as unknown as Db, close: fresh.drop };
    },
  ]);
}

const ORIGIN = 'http://localhost:3000';
const PASSWORD = 'correct horse battery';

describe.each(engines)('accounts, roles and the team, written once, on %s', (_name, open) => {
  let db: Db;
  let close: () => Promise<void>;
  let clock: TestClock;
  let deps: Deps;
  let ip = 0;
  /** A client address of its own per sign-up, so the per-address limits stay out of the way. */
  const nextIp = () => `10.0.0.${++ip}`;

  beforeAll(async () => {
    ({ db, close } = await open());
    clock = testClock();
    deps = { db, clock, env: loadEnv({ NODE_ENV: 'development' }) };
  }, 30_000);
  afterAll(() => close?.());

  const signUpAs = (email: string, name = 'Asha Verma') =>
    signUp(
      deps,
      { name, email, password: PASSWORD, confirmPassword: PASSWORD, mobile: '', acceptTerms: true },
      ORIGIN,
      nextIp(),
    );

  /** The link token the last mail to `to` carries after `marker` (the outbox is the only copy). */
  async function tokenMailedTo(to: string, marker: string): Promise<string> {
    const { outbox } = tablesOf(db);
    const mails = await db.select({ text: outbox.text, id: outbox.id }).from(outbox).where(eq(outbox.to, to));
    const last = mails.sort((a, b) => a.id - b.id).at(-1)?.text ?? '';
    const token = new RegExp(`${marker}([a-z0-9]+)`).exec(last)?.[1];
    if (!token) throw new Error(`no ${marker} link mailed to ${to}`);
    return token;
  }

  async function codeOf(work: Promise<unknown>): Promise<string | undefined> {
    try {
      await work;
      return undefined;
    } catch (error) {
      if (error instanceof DomainError) return error.code;
      throw error;
    }
  }

  it('signs up, opens a session that the per-request lookup finds, and refuses a second account for the address', async () => {
    const session = await signUpAs('asha@example.com');
    const found = await runStatements(db, (d) => validateSessionSteps(d, session.token, clock.now()));
    expect(found?.user).toEqual({ id: session.userId, name: 'Asha Verma', email: 'asha@example.com' });
    expect(await getAccount(db, session.userId)).toMatchObject({
      email: 'asha@example.com',
      isEmailVerified: false,
      hasPassword: true,
    });
    expect(await codeOf(signUpAs('asha@example.com'))).toBe('CONFLICT');

    await invalidateSession(db, found!.sessionId);
    expect(await runStatements(db, (d) => validateSessionSteps(d, session.token, clock.now()))).toBeNull();
  });

  it('signs in with the right password only, ends the planted session, and throttles after the allowed failures', async () => {
    const { userId, token: planted } = await signUpAs('ravi@example.com', 'Ravi');
    const plantedId = (await runStatements(db, (d) => validateSessionSteps(d, planted, clock.now())))!
      .sessionId;
    const client = { ip: nextIp(), previousSessionId: null };
    expect(
      await codeOf(signIn(deps, { email: 'ravi@example.com', password: 'wrong password!' }, client)),
    ).toBe('UNAUTHORIZED');
    const session = await signIn(
      deps,
      { email: 'ravi@example.com', password: PASSWORD },
      { ip: client.ip, previousSessionId: plantedId },
    );
    expect(session.userId).toBe(userId);
    expect(await runStatements(db, (d) => validateSessionSteps(d, planted, clock.now()))).toBeNull();

    const wrong = () => signIn(deps, { email: 'ravi@example.com', password: 'wrong password!' }, client);
    const answers = [];
    for (let i = 0; i <= MAX_FAILURES_PER_ACCOUNT; i++) answers.push(await codeOf(wrong()));
    expect(answers).toEqual([...Array(MAX_FAILURES_PER_ACCOUNT).fill('UNAUTHORIZED'), 'TOO_MANY_REQUESTS']);
    // Even the right password waits for the window to pass.
    expect(await codeOf(signIn(deps, { email: 'ravi@example.com', password: PASSWORD }, client))).toBe(
      'TOO_MANY_REQUESTS',
    );
    clock.advance(16 * 60_000);
    await pruneExpiredAccountRows(deps);
    expect((await signIn(deps, { email: 'ravi@example.com', password: PASSWORD }, client)).userId).toBe(
      userId,
    );
  });

  it('of three sign-ups for one address at once, one makes the account and the others are told it is taken', async () => {
    const attempts = await Promise.all([1, 2, 3].map(() => codeOf(signUpAs('twin@example.com', 'Twin'))));
    expect(attempts.sort()).toEqual(['CONFLICT', 'CONFLICT', undefined]);
    // Where both checks pass before either commits, the unique index refuses the second on either
    // engine, and sign-up tells that refusal apart from any other failure.
    const { users } = tablesOf(db);
    const at = clock.now().toISOString();
    const duplicate = await db
      .insert(users)
      .values({ id: 'twin-2', email: 'twin@example.com', createdAt: at, updatedAt: at })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(isUniqueViolation(duplicate)).toBe(true);
  });

  it('checks at most the allowed passwords when many wrong ones for one account arrive at once', async () => {
    await signUpAs('target@example.com', 'Target');
    const attempts = await Promise.all(
      Array.from({ length: 12 }, () =>
        codeOf(
          signIn(
            deps,
            { email: 'target@example.com', password: 'guess guess guess' },
            { ip: nextIp(), previousSessionId: null },
          ),
        ),
      ),
    );
    expect(attempts.filter((a) => a === 'UNAUTHORIZED')).toHaveLength(MAX_FAILURES_PER_ACCOUNT);
    expect(attempts.filter((a) => a === 'TOO_MANY_REQUESTS')).toHaveLength(12 - MAX_FAILURES_PER_ACCOUNT);
  });

  it('verifies the address from the mailed link, and sends another link only while unverified', async () => {
    const { userId } = await signUpAs('meera@example.com', 'Meera');
    const token = await tokenMailedTo('meera@example.com', 'verify-email\\?token=');
    await resendVerificationMail(deps, userId, ORIGIN, nextIp());
    expect(await tokenMailedTo('meera@example.com', 'verify-email\\?token=')).not.toBe(token);
    await verifyEmail(deps, token);
    expect((await getAccount(db, userId))?.isEmailVerified).toBe(true);
    expect(await codeOf(verifyEmail(deps, 'not-a-token'))).toBe('BAD_REQUEST');
    expect(await markEmailVerified(db, ' MEERA@example.com ', clock.now())).toEqual({
      alreadyVerified: true,
    });
    expect(await markEmailVerified(db, 'nobody@example.com', clock.now())).toBeNull();

    const profile = await updateProfile(deps, userId, {
      name: 'Meera K',
      phone: '9876543210',
      gender: 'female',
      country: 'india',
      state: 'Goa',
      about: '',
    });
    expect(profile).toMatchObject({ name: 'Meera K', state: 'Goa', about: null });
  });

  it('uses a reset link once: of two uses at once exactly one sets the password, and every session ends', async () => {
    const { token: before } = await signUpAs('kabir@example.com', 'Kabir');
    await requestPasswordReset(deps, 'kabir@example.com', ORIGIN, nextIp());
    const token = await tokenMailedTo('kabir@example.com', 'reset-password\\?token=');
    expect(await isResetLinkUsable(deps, token)).toBe(true);

    const uses = await Promise.allSettled([
      resetPassword(deps, { token, password: 'first new password', confirmPassword: 'first new password' }),
      resetPassword(deps, { token, password: 'second new password', confirmPassword: 'second new password' }),
    ]);
    expect(uses.filter((u) => u.status === 'fulfilled')).toHaveLength(1);
    expect(await isResetLinkUsable(deps, token)).toBe(false);
    expect(await runStatements(db, (d) => validateSessionSteps(d, before, clock.now()))).toBeNull();
    const won = uses[0]!.status === 'fulfilled' ? 'first new password' : 'second new password';
    const session = await signIn(
      deps,
      { email: 'kabir@example.com', password: won },
      { ip: nextIp(), previousSessionId: null },
    );
    const changed = await changePassword(deps, session.userId, {
      currentPassword: won,
      password: 'third new password',
      confirmPassword: 'third new password',
    });
    expect(changed.userId).toBe(session.userId);
    expect(await runStatements(db, (d) => validateSessionSteps(d, session.token, clock.now()))).toBeNull();
  });

  it('signs in with Google: links the verified account of the same address, or makes one', async () => {
    const { userId } = await signUpAs('neha@example.com', 'Neha');
    const linked = await signInWithGoogle(deps, {
      sub: 'google-neha',
      email: 'Neha@example.com',
      emailVerified: true,
      name: 'Neha',
    });
    expect(linked.userId).toBe(userId);
    expect(await getAccount(db, userId)).toMatchObject({ googleLinked: true, hasPassword: false });
    const made = await signInWithGoogle(deps, {
      sub: 'google-new',
      email: 'new@example.com',
      emailVerified: true,
      name: null,
    });
    expect(made.userId).not.toBe(userId);
  });

  it('grants roles and reads them back', async () => {
    const { userId } = await signUpAs('org@example.com', 'Org');
    expect(await getAccountRole(db, userId)).toBe('none');
    expect(
      await setAccountRoleByEmail(
        db,
        { email: 'ORG@example.com', role: 'organiser', grantedBy: null },
        clock.now(),
      ),
    ).toEqual({
      userId,
      previous: 'none',
    });
    expect(await getAccountRole(db, userId)).toBe('organiser');
    expect(
      await grantOrganiserRole(db, { email: 'org@example.com', role: 'none', adminId: userId }, clock.now()),
    ).toEqual({
      userId,
      role: 'none',
    });
    expect(await getAccountRole(db, userId)).toBe('none');
    expect(
      await codeOf(
        grantOrganiserRole(
          db,
          { email: 'nobody@example.com', role: 'organiser', adminId: userId },
          clock.now(),
        ),
      ),
    ).toBe('NOT_FOUND');
    const demo = await ensureDemoOrganiser(db, clock.now());
    expect(await getAccountRole(db, demo)).toBe('organiser');
    const signIns = await ensureDemoSignIns(db, 'demo-secret-0123456789abcdef', clock.now());
    expect(await getAccountRole(db, DEMO_ADMIN.id)).toBe('admin');
    const admin = signIns.find((x) => x.role === 'admin')!;
    const asAdmin = await signIn(deps, admin, { ip: nextIp(), previousSessionId: null });
    expect(asAdmin.userId).toBe(DEMO_ADMIN.id);
  });

  it('an organiser invites a team member who accepts once, even ten times at once; access follows the team', async () => {
    const owner = await signUpAs('owner@example.com', 'Owner');
    await setAccountRoleByEmail(
      db,
      { email: 'owner@example.com', role: 'organiser', grantedBy: null },
      clock.now(),
    );
    const { events } = tablesOf(db);
    const at = clock.now().toISOString();
    await db.insert(events).values({
      id: 'ev-team',
      name: 'Team Night',
      category: 'concerts',
      city: 'Mumbai',
      startTime: '2027-01-10T18:00:00.000Z',
      ownerId: owner.userId,
      createdAt: at,
    });
    const event = (await loadEventAccess(db, 'ev-team', owner.userId, 'organiser'))!.event;
    expect(event).toEqual({ id: 'ev-team', name: 'Team Night', city: 'Mumbai', ownerId: owner.userId });

    const invite = (email: string) =>
      inviteTeamMember(
        db,
        { event, email, role: 'gate_staff', invitedBy: { id: owner.userId, name: 'Owner' } },
        clock.now(),
        { base: ORIGIN },
      );
    const dropped = await invite('later@example.com');
    expect(await cancelInvitation(db, 'ev-team', dropped.invitationId, clock.now())).toEqual({
      cancelled: true,
    });
    expect(await codeOf(cancelInvitation(db, 'ev-team', dropped.invitationId, clock.now()))).toBe(
      'NOT_FOUND',
    );

    await invite(' Gate@Example.com ');
    const token = await tokenMailedTo('gate@example.com', 'organiser/invitations/');
    expect(await describeInvitation(db, token, clock.now())).toEqual({
      eventName: 'Team Night',
      email: 'gate@example.com',
      role: 'gate_staff',
      accepted: false,
    });
    const gate = await signUpAs('gate@example.com', 'Gate');
    expect(await loadEventAccess(db, 'ev-team', gate.userId, 'none')).toBeNull();
    const user = { id: gate.userId, email: 'gate@example.com' };
    // Ten tabs accept at once: every one answers the team role, and the team gains one member.
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => acceptInvitation(db, token, user, clock.now())),
    );
    expect(answers).toEqual(Array(10).fill({ eventId: 'ev-team', role: 'gate_staff' }));
    const { eventTeamMembers } = tablesOf(db);
    expect(
      await db
        .select({ userId: eventTeamMembers.userId })
        .from(eventTeamMembers)
        .where(and(eq(eventTeamMembers.eventId, 'ev-team'))),
    ).toEqual([{ userId: gate.userId }]);
    expect((await getAccount(db, gate.userId))?.isEmailVerified).toBe(true);

    expect((await loadEventAccess(db, 'ev-team', gate.userId, 'none'))?.role).toBe('gate_staff');
    expect(await accountMayOnEvent(db, 'ev-team', gate.userId, 'checkIn')).toBe(true);
    expect((await requireEventPermission(db, 'ev-team', gate.userId, 'checkIn')).id).toBe('ev-team');
    expect(await codeOf(requireEventPermission(db, 'ev-team', gate.userId, 'edit'))).toBe('FORBIDDEN');
    const team = await listEventTeam(db, 'ev-team', clock.now());
    expect(team.members.map((m) => m.email)).toEqual(['gate@example.com']);
    expect(team.invitations).toEqual([]);

    expect(await removeTeamMember(db, 'ev-team', gate.userId, clock.now())).toEqual({ removed: true });
    expect(await codeOf(requireEventPermission(db, 'ev-team', gate.userId, 'checkIn'))).toBe('NOT_FOUND');
    expect(await codeOf(removeTeamMember(db, 'ev-team', gate.userId, clock.now()))).toBe('NOT_FOUND');
  });
});
