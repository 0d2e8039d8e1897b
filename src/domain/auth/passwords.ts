// Password hashing and the password policy. The only owner of bcryptjs
// (STYLE.md): nothing else hashes or compares passwords.
import bcrypt from 'bcryptjs';
import { AppError } from '../../errors/app-error.ts';

/** Shortest password accepted (API.md "Admin session"). */
export const MIN_PASSWORD_LENGTH = 8;

/** bcrypt cost factor; 10 is the floor the project agreed on. */
export const BCRYPT_COST = 10;

// bcrypt ignores everything after 72 bytes; refuse longer passwords rather
// than silently accepting a different one.
const MAX_PASSWORD_BYTES = 72;

// Compared against when the user does not exist, so a wrong username costs
// the same time as a wrong password and does not reveal which one was wrong.
// Made on first use so importing this module costs nothing at start-up.
let dummyHash: Promise<string> | undefined;

/** Why `password` is not acceptable, or undefined when it is. Throws nothing. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return `The password must have at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) return `The password must be at most ${MAX_PASSWORD_BYTES} bytes long.`;
  return undefined;
}

/**
 * Hashes a new password with bcrypt after checking the policy; `field` names
 * the body key in the error. Throws validation_failed (422) for a weak password.
 */
export async function hashPassword(password: string, field = 'password'): Promise<string> {
  const problem = passwordProblem(password);
  if (problem) throw new AppError('validation_failed', problem, { fields: { [field]: problem } });
  return bcrypt.hash(password, BCRYPT_COST);
}

/**
 * Whether `password` matches `hash`; with no hash (unknown user) it still
 * spends the time of one comparison and answers false. Throws nothing.
 */
export async function verifyPassword(password: string, hash: string | undefined): Promise<boolean> {
  if (hash === undefined) {
    dummyHash ??= bcrypt.hash('not-a-real-password', BCRYPT_COST);
    await bcrypt.compare(password, await dummyHash);
    return false;
  }
  return bcrypt.compare(password, hash);
}
