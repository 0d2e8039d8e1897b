// Property schemas of the user fields that setup, login, user management and
// the own profile all accept, so their size limits cannot drift apart. Only
// shapes and sizes live here; the rules themselves are the domain's (user-fields.ts).

/** Username and password as required strings, for setup, login and new users. */
export const CREDENTIAL_PROPERTIES = {
  username: { type: 'string', maxLength: 200 },
  password: { type: 'string', maxLength: 1000 },
} as const;

/** Email and display name, where null means "not given". */
export const CONTACT_PROPERTIES = {
  email: { type: 'string', nullable: true, maxLength: 300 },
  display_name: { type: 'string', nullable: true, maxLength: 300 },
} as const;

/** A password that may be left out (null), for updates of an existing user. */
export const OPTIONAL_PASSWORD = { type: 'string', nullable: true, maxLength: 1000 } as const;
