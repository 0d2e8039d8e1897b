// The closed list of error codes the API can return (API.md "Error codes").
// Adding a code here forces http/error-handler.ts to give it a status and the
// README's error table to document it (a unit test checks both).
/** Every error code the API can return (API.md "Error codes"). */
export const ERROR_CODES = [
  'invalid_request',
  'workspace_required',
  'unauthorized',
  'unauthenticated',
  'invalid_credentials',
  'forbidden',
  'csrf_failed',
  'not_found',
  'method_not_allowed',
  'conflict',
  'already_set_up',
  'precondition_failed',
  'payload_too_large',
  'unsupported_media_type',
  'validation_failed',
  'file_type_not_allowed',
  'rate_limited',
  'internal_error',
  'not_set_up',
  'git_unavailable',
  'primary_unavailable',
] as const;

/** One of ERROR_CODES. */
export type ErrorCode = (typeof ERROR_CODES)[number];
