// Live updates for the admin app: every event of the bus goes to the open
// streams of signed-in users who may see it (event-visibility.ts). What a
// stream is (server-sent events over HTTP) is the API layer's business.
import type { Principal } from '../auth/principal.ts';
import type { ContentIndex } from '../content/content-index.ts';
import type { DomainEvent } from '../model/events.ts';
import { mayReceive } from './event-visibility.ts';

/** One open stream of one signed-in user. */
export interface LiveSubscription {
  userId: string;
  /** Whether the session behind the stream is still signed in (not logged out, not expired). */
  isSignedIn(): boolean;
  send(event: DomainEvent): void;
  /** Ends the stream (resolving once it is closed); called when the session or the user is gone or the server stops. */
  end(): Promise<void>;
}

/** What the feed looks users and entries up in. */
export interface LiveFeedDeps {
  /** The user's current principal (grants read now, so role edits apply at once); undefined once deleted. */
  principalFor(userId: string): Principal | undefined;
  content: ContentIndex;
}

/** The open live streams; services.ts feeds it from the event bus. */
export class LiveFeed {
  private readonly subscriptions = new Set<LiveSubscription>();
  private closed = false;

  constructor(private readonly deps: LiveFeedDeps) {}

  /** Adds a stream; returns the function that removes it. After close(), the stream is ended at once. */
  subscribe(subscription: LiveSubscription): () => void {
    if (this.closed) {
      void subscription.end();
      return () => undefined;
    }
    this.subscriptions.add(subscription);
    return () => {
      this.subscriptions.delete(subscription);
    };
  }

  /** Whether the stream may go on: its session is signed in and its user exists; ends it otherwise. */
  check(subscription: LiveSubscription): boolean {
    return this.principalOf(subscription) !== undefined;
  }

  /** Sends `event` to every stream whose user may see it, ending the streams whose session is over. */
  publish(event: DomainEvent): void {
    for (const subscription of this.subscriptions) {
      const principal = this.principalOf(subscription);
      if (principal && mayReceive(principal, event, this.deps.content)) subscription.send(event);
    }
  }

  /** Ends every stream and refuses new ones (server shutdown); resolves once they are closed. */
  async close(): Promise<void> {
    this.closed = true;
    const ending = [...this.subscriptions].map((subscription) => this.endOne(subscription));
    await Promise.all(ending);
  }

  private principalOf(subscription: LiveSubscription): Principal | undefined {
    const principal = subscription.isSignedIn() ? this.deps.principalFor(subscription.userId) : undefined;
    if (!principal) void this.endOne(subscription);
    return principal;
  }

  private endOne(subscription: LiveSubscription): Promise<void> {
    this.subscriptions.delete(subscription);
    return subscription.end();
  }
}
