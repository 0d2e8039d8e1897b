// Work done on first use and shared by every later caller: loading a library
// only when a request first needs it keeps that cost out of every start.

/** Returns a function that runs `load` on its first call and returns that same promise ever after. */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= load());
}
