import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  EmailSchema,
  fieldErrors,
  GOOGLE_ERRORS,
  googleErrorCode,
  LoginSchema,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PasswordSchema,
  SignupSchema,
} from "~/domain/accounts/auth";

function messages(result: { success: boolean; error?: { issues: { message: string }[] } }) {
  return result.success ? [] : result.error!.issues.map((i) => i.message);
}

describe("EmailSchema", () => {
  it.each([
    ["you@example.com", "you@example.com"],
    ["  You@Example.COM  ", "you@example.com"],
    ["first.last+tag@sub.example.co.uk", "first.last+tag@sub.example.co.uk"],
    ["\tMIXED@case.io\n", "mixed@case.io"],
  ])("accepts %j as %j (trimmed, lowercased)", (input, stored) => {
    expect(EmailSchema.parse(input)).toBe(stored);
  });

  it.each([undefined, null, 42, "", "   "])("asks for an address when given %j", (input) => {
    expect(messages(EmailSchema.safeParse(input))).toEqual(["Enter your e-mail address."]);
  });

  it.each([
    "no-at-sign",
    "a@b",
    "@example.com",
    "you@",
    "you@@example.com",
    "two words@example.com",
    "you@exa mple.com",
  ])("rejects %j as not an e-mail address", (input) => {
    expect(messages(EmailSchema.safeParse(input))).toEqual(["Enter a valid e-mail address, like you@example.com."]);
  });

  it("accepts 254 characters and refuses 255 with its own message", () => {
    const at254 = `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(57)}.com`;
    expect(at254).toHaveLength(254);
    expect(EmailSchema.safeParse(at254).success).toBe(true);
    expect(messages(EmailSchema.safeParse(`x${at254}`))).toEqual(["That e-mail address is too long."]);
  });
});

describe("PasswordSchema (sign-up)", () => {
  it(`accepts exactly ${PASSWORD_MIN_LENGTH} and exactly ${PASSWORD_MAX_LENGTH} characters`, () => {
    expect(PasswordSchema.safeParse("x".repeat(PASSWORD_MIN_LENGTH)).success).toBe(true);
    expect(PasswordSchema.safeParse("x".repeat(PASSWORD_MAX_LENGTH)).success).toBe(true);
  });

  it.each(["", "1234567"])("refuses %j as too short", (input) => {
    expect(messages(PasswordSchema.safeParse(input))).toEqual([`Use at least ${PASSWORD_MIN_LENGTH} characters.`]);
  });

  it("refuses one character over the maximum", () => {
    expect(messages(PasswordSchema.safeParse("x".repeat(PASSWORD_MAX_LENGTH + 1)))).toEqual([
      `Use at most ${PASSWORD_MAX_LENGTH} characters.`,
    ]);
  });

  it("asks for a password when none is sent", () => {
    expect(messages(PasswordSchema.safeParse(undefined))).toEqual(["Enter a password."]);
  });

  it("keeps the password exactly as typed (no trimming)", () => {
    expect(PasswordSchema.parse("  spaced password  ")).toBe("  spaced password  ");
  });
});

describe("SignupSchema", () => {
  it("normalises the e-mail and drops blank plan and billing", () => {
    expect(SignupSchema.parse({ email: " New@Example.com", password: "long enough", plan: "  ", billing: "" })).toEqual(
      {
        email: "new@example.com",
        password: "long enough",
        plan: undefined,
        billing: undefined,
      },
    );
  });

  it("keeps a chosen plan and billing, trimmed", () => {
    const parsed = SignupSchema.parse({
      email: "a@example.com",
      password: "long enough",
      plan: " pro ",
      billing: "monthly ",
    });
    expect(parsed.plan).toBe("pro");
    expect(parsed.billing).toBe("monthly");
  });

  it("reports one message per field, for every bad field at once", () => {
    const result = SignupSchema.safeParse({ email: "nope", password: "short" });
    expect(result.success).toBe(false);
    expect(fieldErrors(result.error!)).toEqual({
      email: "Enter a valid e-mail address, like you@example.com.",
      password: `Use at least ${PASSWORD_MIN_LENGTH} characters.`,
    });
  });

  it("with nothing sent, asks for both fields", () => {
    const result = SignupSchema.safeParse({});
    expect(fieldErrors(result.error!)).toEqual({ email: "Enter your e-mail address.", password: "Enter a password." });
  });
});

describe("LoginSchema", () => {
  it("accepts any non-empty password (accounts may predate the length rule)", () => {
    expect(LoginSchema.parse({ email: "A@Example.com", password: "x" })).toEqual({
      email: "a@example.com",
      password: "x",
      innerCircle: false,
    });
  });

  it.each([
    ["1", true],
    ["true", true],
    ["on", true],
    ["0", false],
    ["false", false],
    ["", false],
    [undefined, false],
  ])("innerCircle %j -> %s", (value, expected) => {
    expect(LoginSchema.parse({ email: "a@example.com", password: "x", innerCircle: value }).innerCircle).toBe(expected);
  });

  it("asks for the password when it is empty or missing", () => {
    expect(fieldErrors(LoginSchema.safeParse({ email: "a@example.com", password: "" }).error!)).toEqual({
      password: "Enter your password.",
    });
    expect(fieldErrors(LoginSchema.safeParse({ email: "a@example.com" }).error!)).toEqual({
      password: "Enter your password.",
    });
  });

  it("says a too-long password is too long, not that it is missing", () => {
    const result = LoginSchema.safeParse({ email: "a@example.com", password: "x".repeat(PASSWORD_MAX_LENGTH + 1) });
    expect(fieldErrors(result.error!)).toEqual({ password: `Use at most ${PASSWORD_MAX_LENGTH} characters.` });
  });
});

describe("fieldErrors", () => {
  it("keeps the first message of each field", () => {
    const schema = z.object({
      name: z.string().min(5, "first").regex(/x/, "second"),
      other: z.string().min(1, "other"),
    });
    const result = schema.safeParse({ name: "ab", other: "" });
    expect(result.error!.issues).toHaveLength(3);
    expect(fieldErrors(result.error!)).toEqual({ name: "first", other: "other" });
  });

  it("files issues that belong to no field under form", () => {
    expect(fieldErrors(EmailSchema.safeParse("").error!)).toEqual({ form: "Enter your e-mail address." });
  });
});

describe("Google sign-in errors", () => {
  it.each([
    ["auth/popup-closed-by-user", "error_1"],
    ["auth/cancelled-popup-request", "error_2"],
    ["auth/popup-blocked", "error_3"],
    ["auth/network-request-failed", "error_3"],
    ["auth/internal-error", "error_3"],
    ["", "error_3"],
    [undefined, "error_3"],
  ] as const)("%j -> %s", (firebaseCode, expected) => {
    expect(googleErrorCode(firebaseCode)).toBe(expected);
  });

  it("has exactly the seed's three codes", () => {
    expect(Object.keys(GOOGLE_ERRORS).sort()).toEqual(["error_1", "error_2", "error_3"]);
  });

  it.each(Object.entries(GOOGLE_ERRORS))("%s is a human sentence, not a code", (_code, sentence) => {
    expect(sentence).toMatch(/^[A-Z][^]*[.!]$/);
    expect(sentence.split(" ").length).toBeGreaterThanOrEqual(6);
    expect(sentence).not.toMatch(/error_\d|auth\/|undefined|null/i);
  });

  it("says something different for each failure", () => {
    expect(new Set(Object.values(GOOGLE_ERRORS)).size).toBe(3);
  });
});
