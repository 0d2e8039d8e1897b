// What the in-process server writes on stderr while a test runs: its JSON log
// lines and anything else (a library printing a stack trace straight to
// stderr, as Koa does for stream errors without a listener of ours).
/** Captured stderr output, line by line. */
export interface StderrCapture {
  /** Every line written since the capture started or was last cleared. */
  lines(): string[];
  /** The lines that report a failure: JSON lines at level error, and any line that is not a JSON log line. */
  errorLines(): string[];
  clear(): void;
  /** Puts stderr back as it was. */
  stop(): void;
}

/** Starts capturing process.stderr (still passing everything through). */
export function captureStderr(): StderrCapture {
  const original = process.stderr.write;
  let text = '';
  process.stderr.write = function capture(this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    return (original as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof process.stderr.write;
  const lines = () => text.split('\n').filter((line) => line.trim() !== '');
  return {
    lines,
    errorLines: () => lines().filter((line) => !isQuietLogLine(line)),
    clear: () => {
      text = '';
    },
    stop: () => {
      process.stderr.write = original;
    },
  };
}

function isQuietLogLine(line: string): boolean {
  try {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === 'object' && parsed !== null && 'level' in parsed && parsed.level !== 'error';
  } catch {
    return false;
  }
}
