// The shape of an API token in admin responses: never the secret or its hash.
import type { TokenRecord } from '../../domain/auth/token-service.ts';

/** A token as the admin API lists it: the stored record without its hash. */
export type TokenView = Omit<TokenRecord, 'hash'>;

/**
 * Shapes a stored token, leaving out its hash. Fields are copied one by one,
 * so a field added to the record fails to compile here until it is either
 * copied or added to TokenView's Omit: nothing reaches a response by accident.
 */
export function presentToken(token: TokenRecord): TokenView {
  return {
    id: token.id,
    name: token.name,
    description: token.description,
    permissions: token.permissions,
    created_at: token.created_at,
    created_by: token.created_by,
    expires_at: token.expires_at,
    last_used_at: token.last_used_at,
  };
}
