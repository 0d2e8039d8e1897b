// A minimal structured logger: one JSON line per event on stderr. Secrets are
// never passed to it; errors are reduced to name, message and stack.

/** How much is logged: nothing, errors, or errors and info. */
export type LogLevel = 'silent' | 'error' | 'info';

/** Where services and middleware report events; createLogger() makes the JSON-lines one. */
export interface Logger {
  info(message: string, details?: Record<string, unknown>): void;
  error(message: string, details?: Record<string, unknown>): void;
}

/** Creates a logger that writes lines at or above `level` to `write` (stderr by default). */
export function createLogger(level: LogLevel, write: (line: string) => void = (line) => process.stderr.write(line + '\n')): Logger {
  const emit = (lineLevel: 'info' | 'error', message: string, details?: Record<string, unknown>) => {
    if (level === 'silent' || (level === 'error' && lineLevel === 'info')) return;
    const { time: _time, level: _level, message: detail, ...rest } = serializeDetails(details);
    // A detail named `message` (a problem's own) would replace what the line says happened; it is kept as `reason`.
    write(JSON.stringify({ time: new Date().toISOString(), level: lineLevel, message, ...(detail !== undefined && { reason: detail }), ...rest }));
  };
  return {
    info: (message, details) => emit('info', message, details),
    error: (message, details) => emit('error', message, details),
  };
}

function serializeDetails(details: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!details) return {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(details)) {
    out[key] = value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;
  }
  return out;
}
