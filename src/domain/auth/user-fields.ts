// Rules for the plain fields of a user record (username, email, display
// name), shared by user management, setup and the own-profile endpoint.
import { AppError } from '../../errors/app-error.ts';

const USERNAME = /^[A-Za-z0-9._@-]{1,64}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_EMAIL = 254;
const MAX_DISPLAY_NAME = 100;

/** A valid username (letters, digits, `._@-`, up to 64). Throws validation_failed (422). */
export function checkUsername(username: string): string {
  if (!USERNAME.test(username)) throw fieldError('username', 'Use 1 to 64 letters, digits, dots, hyphens, underscores or @.');
  return username;
}

/** A trimmed email address, or '' to have none. Throws validation_failed (422). */
export function checkEmail(email: string): string {
  const trimmed = email.trim();
  if (trimmed === '') return '';
  if (trimmed.length > MAX_EMAIL || !EMAIL.test(trimmed)) throw fieldError('email', 'Use a valid email address.');
  return trimmed;
}

/** A trimmed display name; empty means "use the username". Throws validation_failed (422). */
export function checkDisplayName(displayName: string, username: string): string {
  const trimmed = displayName.trim();
  if (trimmed.length > MAX_DISPLAY_NAME) throw fieldError('display_name', `Use at most ${MAX_DISPLAY_NAME} characters.`);
  return trimmed === '' ? username : trimmed;
}

/**
 * The email and display name after an update: given values checked, missing
 * ones kept. Shared by user management and the own profile so both apply the
 * same rules. Throws validation_failed (422).
 */
export function updatedContactFields(
  user: { username: string; email: string; display_name: string },
  input: { email?: string; display_name?: string },
): { email: string; display_name: string } {
  return {
    email: input.email === undefined ? user.email : checkEmail(input.email),
    display_name: input.display_name === undefined ? user.display_name : checkDisplayName(input.display_name, user.username),
  };
}

function fieldError(field: string, message: string): AppError {
  return new AppError('validation_failed', `The ${field.replace('_', ' ')} is not valid.`, { fields: { [field]: message } });
}
