// Reads GET /admin/api/events like a browser would: a fetch whose body is
// parsed into server-sent events as they arrive, with a wait for the next one
// of a given name and a promise that settles when the server ends the stream.
import type { AdminSession } from './auth.ts';
import type { TestServer } from './server.ts';

/** One received event: its name and parsed JSON data (comments are counted, not kept). */
export interface ReceivedEvent {
  event: string;
  data: any;
}

/** An open stream. */
export interface EventStreamReader {
  status: number;
  contentType: string | null;
  /** Everything received so far, in order. */
  events: ReceivedEvent[];
  /** How many heartbeat comments arrived. */
  heartbeats(): number;
  /** Resolves with the first event named `name` not yet taken, waiting up to `timeoutMs`; rejects after that. */
  next(name: string, timeoutMs?: number): Promise<ReceivedEvent>;
  /** Settles when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens the stream for `session` (or without one). */
export async function openEventStream(server: TestServer, session?: AdminSession): Promise<EventStreamReader> {
  const abort = new AbortController();
  const response = await fetch(`${server.baseUrl}/admin/api/events`, { headers: session ? { cookie: session.cookie } : {}, signal: abort.signal });
  const events: ReceivedEvent[] = [];
  const taken = new Set<ReceivedEvent>();
  let heartbeats = 0;
  let wake = () => undefined as void;
  const ended = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(':')) heartbeats += 1;
          const name = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (name !== undefined && data !== undefined) events.push({ event: name, data: JSON.parse(data) });
          wake();
        }
      }
    } catch (error) {
      if (!abort.signal.aborted) throw error;
    }
    wake();
  })();
  let isEnded = false;
  void ended.then(() => (isEnded = true));
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    events,
    heartbeats: () => heartbeats,
    ended,
    close: () => abort.abort(),
    next: async (name, timeoutMs = 5000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find((event) => event.event === name && !taken.has(event));
        if (found) {
          taken.add(found);
          return found;
        }
        if (isEnded || Date.now() > deadline) throw new Error(`no "${name}" event; received ${events.map((event) => event.event).join(', ') || 'nothing'}`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 50);
        });
      }
    },
  };
}
