// The one expected-failure type. A service throws an AppError when the caller asked for something that
// cannot be done (no credits, not yours, not found, already done, malformed); the page/API layer maps
// it to a status and a sentence (app/pages/http/http.server.ts: toErrorResponse for JSON, errorData for
// forms). Anything else thrown is a defect and reaches the error handler as a 500.

/** Statuses an expected failure may carry: client mistakes, plus 502/503 when an outside service failed. */
export type AppErrorStatus = 400 | 401 | 402 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 422 | 429 | 502 | 503;

export class AppError extends Error {
  constructor(
    readonly status: AppErrorStatus,
    /** A sentence a person understands; shown as it is. */
    message: string,
    /**
     * Extra fields for the JSON answer (field errors, balances, an upgrade path). A `cause` key is kept
     * for the log and never sent to the client.
     */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "AppError";
  }

  /** What a client may see: the sentence and the details without `cause`. */
  toJSON(): Record<string, unknown> {
    const { cause: _cause, ...details } = this.details;
    return { error: this.message, ...details };
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
