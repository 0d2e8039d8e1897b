// The secret that signs session cookies: generated once, kept in the state
// folder (never in the content repo, never logged), so cookies stay valid
// across restarts and a tampered cookie is recognised.
import { randomBytes } from 'node:crypto';
import type { JsonState } from '../state/state-file.ts';

interface StoredKeys {
  keys: string[];
}

/**
 * The cookie-signing keys (newest first), created on first start. A second
 * key may be prepended by hand to rotate secrets. Throws what the state store throws.
 */
export async function loadSessionKeys(state: JsonState): Promise<string[]> {
  const stored = await state.read<StoredKeys>('session-keys', { keys: [] });
  const keys = Array.isArray(stored.keys) ? stored.keys.filter((key: unknown): key is string => typeof key === 'string' && key.length >= 32) : [];
  if (keys.length > 0) return keys;
  const fresh = { keys: [randomBytes(32).toString('base64url')] };
  await state.write('session-keys', fresh);
  return fresh.keys;
}
