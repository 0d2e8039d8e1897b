// Reading Node's system error codes without casts sprinkled through callers.

/**
 * Returns the `code` of a Node system error (`ENOENT`, `EEXIST`, …), or
 * undefined for anything else. Lets callers branch on the code, never the message.
 */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const code = error.code;
  return typeof code === 'string' ? code : undefined;
}

/** True when the error means "no such file" (including a missing parent folder). */
export function isNotFound(error: unknown): boolean {
  const code = errnoCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}
