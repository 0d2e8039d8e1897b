// A Logger that keeps its lines, for tests that check what was logged.
import type { Logger } from '../../src/lib/logger.ts';

export interface LoggedLine {
  level: string;
  message: string;
  details?: Record<string, unknown>;
}

/** A logger whose `lines` are everything logged, in order. */
export function collectingLogger(): Logger & { lines: LoggedLine[] } {
  const lines: LoggedLine[] = [];
  return {
    lines,
    info: (message, details) => lines.push({ level: 'info', message, details }),
    error: (message, details) => lines.push({ level: 'error', message, details }),
  };
}
