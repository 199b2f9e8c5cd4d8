// Input rules for the standalone site's sign-up and log-in forms.
import { z } from "zod";

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 200;

export const EmailSchema = z
  .string({ error: "Enter your e-mail address." })
  .trim()
  .min(1, "Enter your e-mail address.")
  .max(254, "That e-mail address is too long.")
  .toLowerCase()
  .pipe(z.email({ error: "Enter a valid e-mail address, like you@example.com." }));

export const PasswordSchema = z
  .string({ error: "Enter a password." })
  .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(PASSWORD_MAX_LENGTH, `Use at most ${PASSWORD_MAX_LENGTH} characters.`)
  .refine(
    (v) => v.length < PASSWORD_MIN_LENGTH || v.trim().length >= PASSWORD_MIN_LENGTH,
    `Use at least ${PASSWORD_MIN_LENGTH} characters besides spaces.`,
  );

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== "" ? v.trim() : undefined));

export const SignupSchema = z.object({
  email: EmailSchema,
  password: PasswordSchema,
  plan: optionalText,
  billing: optionalText,
});

export const LoginSchema = z.object({
  email: EmailSchema,
  password: z
    .string({ error: "Enter your password." })
    .min(1, "Enter your password.")
    // Without its own message zod 4 would reuse "Enter your password." for a password that is too long.
    .max(PASSWORD_MAX_LENGTH, `Use at most ${PASSWORD_MAX_LENGTH} characters.`),
  innerCircle: z
    .string()
    .optional()
    .transform((v) => v === "1" || v === "true" || v === "on"),
});

export type FieldErrors = Partial<Record<string, string>>;

/** First message per field, for showing beside each input. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out;
}

/** Google sign-in popup failures (seed §8) and the sentence shown for each. */
export const GOOGLE_ERRORS = {
  error_1: "The Google window was closed before you finished signing in. Try again when you're ready.",
  error_2: "Another Google sign-in window was already open, so this one was cancelled. Try again.",
  error_3: "Google sign-in didn't work this time. Try again, or use your e-mail and password.",
} as const;
export type GoogleErrorCode = keyof typeof GOOGLE_ERRORS;

/** Maps a Firebase Auth error code from the popup to the seed's error_1/2/3. */
export function googleErrorCode(firebaseCode: string | undefined): GoogleErrorCode {
  if (firebaseCode === "auth/popup-closed-by-user") return "error_1";
  if (firebaseCode === "auth/cancelled-popup-request") return "error_2";
  return "error_3";
}
