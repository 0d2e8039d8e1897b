// Where the admin API is mounted; its own file so that app.ts can route to
// the admin API before loading it (http/lazy-mount.ts).

/** The admin API root. */
export const ADMIN_PREFIX = '/admin/api';
