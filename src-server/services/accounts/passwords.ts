import { hash, type Options, verify } from '@node-rs/argon2';

/**
 * argon2id with OWASP's minimum recommended parameters: 19 MiB of memory, 2 iterations, 1 lane.
 * (`2` is argon2's id variant; the package's const enum cannot be imported under isolatedModules.)
 */
export const ARGON2_OPTIONS: Options = {
  algorithm: 2,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash is a failed check, not a crash.
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same time as checking a real password, for sign-ins to unknown e-mails and to accounts
 * without a password, so response time does not reveal whether an account exists.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('jalsa-timing-equaliser');
  await verifyPassword(await dummyHash, password);
  return false;
}
