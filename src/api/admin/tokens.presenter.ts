// The shape of an API token in admin responses: never the secret or its hash.
import type { Grant } from '../../domain/auth/principal.ts';
import type { TokenRecord } from '../../domain/auth/token-service.ts';

/** A token as the admin API lists it. */
export interface TokenView {
  id: string;
  name: string;
  description: string;
  permissions: Grant[];
  created_at: string;
  created_by: string | null;
  expires_at: string | null;
  last_used_at: string | null;
}

/** Shapes a stored token, leaving out its hash. */
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
