// A condition found while starting that stops the server, such as a content
// repository the server cannot write safely. Its message names the problem
// and what to do; the CLI prints it without a stack and exits with status 1.

/** Thrown by start-up checks; the message is a full sentence for the operator. */
export class StartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StartupError';
  }
}
