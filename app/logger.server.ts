// Structured logs (pino). One logger; modules take a child with their name.
import pino from "pino";
import { getEnv } from "~/env.server";

const env = getEnv();

export const logger = pino({
  level: env.LOG_LEVEL,
  base: { service: "winning-products" },
  redact: {
    paths: ["password", "*.password", "token", "*.token", "accessToken", "*.accessToken", "authToken", "authorization", "*.authorization", "*.headers.authorization", "apiKey", "*.apiKey"],
    censor: "[redacted]",
  },
});

export function childLogger(module: string) {
  return logger.child({ module });
}
