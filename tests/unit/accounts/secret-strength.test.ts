import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { estimateSecretBits, MIN_SECRET_BITS } from "~/domain/accounts/secret-strength";

describe("estimateSecretBits", () => {
  it.each([
    ["openssl rand -hex 32", () => randomBytes(32).toString("hex")],
    ["openssl rand -base64 32", () => randomBytes(32).toString("base64")],
    ["16 random bytes in hex", () => randomBytes(16).toString("hex")],
    ["32 random bytes", () => randomBytes(32).toString("latin1")],
  ])("passes %s", (_label, make) => {
    for (let i = 0; i < 20; i++) expect(estimateSecretBits(make())).toBeGreaterThanOrEqual(MIN_SECRET_BITS);
  });

  it.each([
    ["one character repeated", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"],
    ["two characters alternating", "abababababababababababababababab"],
    ["a counting run", "0123456789abcdef0123456789abcdef"],
    ["the alphabet", "abcdefghijklmnopqrstuvwxyz"],
    ["a short unit repeated", "Xk9#Xk9#Xk9#Xk9#Xk9#Xk9#Xk9#Xk9#"],
    ["a word and digits", "password1234567890"],
    ["short", "s3cr3t!"],
    ["one byte repeated", Buffer.alloc(32, 7).toString("latin1")],
    ["empty", ""],
  ])("fails %s", (_label, value) => {
    expect(estimateSecretBits(value)).toBeLessThan(MIN_SECRET_BITS);
  });
});
