/** A full garbage collection when Node runs with --expose-gc (`npm start` does); nothing otherwise (tests, tsx). */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
