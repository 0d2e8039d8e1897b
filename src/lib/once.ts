// Work done on first use and shared by every later caller: loading a library
// only when a request first needs it keeps that cost out of every start.

/**
 * Returns a function that runs `load` on its first call and returns that same
 * promise ever after, unless it fails: the callers waiting on a failed load
 * get its error, and the next call runs `load` again, so a transient failure
 * (a module read, a build) does not answer every later request until a restart.
 */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
