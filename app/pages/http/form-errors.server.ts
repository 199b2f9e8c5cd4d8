// How a page's form answers an expected failure. Services throw AppError (~/domain/errors) and know
// nothing of HTTP; a page controller catches it here and answers the form with the error's status and
// sentence, so the page renders again with the message instead of an error page. Anything else is
// rethrown: it is a defect and reaches the error handler as a 500. JSON routes use handleServiceErrors
// (app/pages/http/http.server.ts) instead.
import { data } from "@remix-run/node";
import { AppError } from "~/domain/errors";
import { errorHeaders } from "~/pages/http/http.server";

/** The AppError a form should show; anything else is rethrown untouched. */
export function expectedFailure(error: unknown): AppError {
  if (error instanceof AppError) return error;
  throw error;
}

/** A form's answer for an expected failure: `{ error, ...details }` (never `cause`) with its status. */
export function formError(error: unknown) {
  const failure = expectedFailure(error);
  return data(failure.toJSON() as { error: string } & Record<string, unknown>, {
    status: failure.status,
    headers: errorHeaders(failure),
  });
}
