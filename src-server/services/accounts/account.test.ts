import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ScratchDatabase, scratchDatabase } from '../../../test/helpers/scratch-database.ts';
import { users } from '../../db/schema/accounts.ts';
import { getAccount } from './account.ts';

describe('getAccount (auth.me), prepared once per database', () => {
  let scratch: ScratchDatabase;
  beforeEach(() => {
    scratch = scratchDatabase('jalsa-account-');
  });
  afterEach(() => scratch.remove());

  it('returns exactly the owner-visible fields, never a secret, and what is stored now', async () => {
    const { db } = scratch.database;
    db.insert(users)
      .values([
        {
          id: 'u-password',
          email: 'asha.verma@example.com',
          name: 'Asha Verma',
          phone: '9876543210',
          passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$secret',
          isEmailVerified: true,
          bookingIdsList: ['b-1', 'b-2'],
          gender: 'female',
          country: 'india',
          state: 'Goa',
          about: 'Loves live music.',
          createdAt: '2026-11-01T00:00:00.000Z',
          updatedAt: '2026-11-02T00:00:00.000Z',
        },
        {
          id: 'u-google',
          email: 'ravi@example.com',
          googleId: 'google-sub-1',
          createdAt: '2026-11-01T00:00:00.000Z',
          updatedAt: '2026-11-01T00:00:00.000Z',
        },
      ])
      .run();

    expect(await getAccount(db, 'u-password')).toStrictEqual({
      id: 'u-password',
      name: 'Asha Verma',
      email: 'asha.verma@example.com',
      phone: '9876543210',
      imageUrl: null,
      isEmailVerified: true,
      gender: 'female',
      country: 'india',
      state: 'Goa',
      about: 'Loves live music.',
      bookingIdsList: ['b-1', 'b-2'],
      hasPassword: true,
      googleLinked: false,
      updatedAt: '2026-11-02T00:00:00.000Z',
    });
    expect(await getAccount(db, 'u-google')).toStrictEqual({
      id: 'u-google',
      name: null,
      email: 'ravi@example.com',
      phone: null,
      imageUrl: null,
      isEmailVerified: false,
      gender: null,
      country: null,
      state: null,
      about: null,
      bookingIdsList: [],
      hasPassword: false,
      googleLinked: true,
      updatedAt: '2026-11-01T00:00:00.000Z',
    });
    expect(await getAccount(db, 'nobody')).toBeNull();

    // The statement is reused, the answer is not: a change shows on the next call.
    db.update(users)
      .set({ name: 'Asha V.', bookingIdsList: ['b-1'] })
      .where(eq(users.id, 'u-password'))
      .run();
    expect(await getAccount(db, 'u-password')).toMatchObject({ name: 'Asha V.', bookingIdsList: ['b-1'] });
  });

  it('answers from each database its own rows', async () => {
    const other = scratchDatabase('jalsa-account-other-');
    try {
      const at = '2026-11-01T00:00:00.000Z';
      scratch.database.db
        .insert(users)
        .values({ id: 'u-1', email: 'one@example.com', createdAt: at, updatedAt: at })
        .run();
      other.database.db
        .insert(users)
        .values({ id: 'u-1', email: 'two@example.com', createdAt: at, updatedAt: at })
        .run();
      expect((await getAccount(scratch.database.db, 'u-1'))?.email).toBe('one@example.com');
      expect((await getAccount(other.database.db, 'u-1'))?.email).toBe('two@example.com');
    } finally {
      other.remove();
    }
  });
});
