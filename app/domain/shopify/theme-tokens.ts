// What a theme token is made for: the theme, the store, the origins its block may be called from, and
// the words it shows (POST /api/theme-tokens; docs/decisions/014). Pure: the service mints and stores it.
import { z } from "zod";

const MAX_ORIGINS = 20;

/** The create-or-rotate body; each message completes "<field> ...". */
export const ThemeTokenInputSchema = z.object({
  themeId: z
    .string({ error: "is required" })
    .trim()
    .regex(/^[A-Za-z0-9_.-]{1,100}$/, "must be 1-100 letters, digits, dots, dashes or underscores (e.g. 123456789)"),
  selectedStore: z.string({ error: "is required" }).trim().toLowerCase().min(1, "is required"),
  whitelistedUrls: z
    .array(z.string({ error: "must be a list of URLs" }), { error: "must be a list of URLs" })
    .min(1, "must list at least one origin, e.g. https://your-store.com")
    .max(MAX_ORIGINS, `may list at most ${MAX_ORIGINS} origins`),
  version: z.string({ error: "is required" }).trim().min(1, "is required").max(40, "must be at most 40 characters"),
  /** What the theme block shows (optional; the merchant's own words). */
  blockMessage: z
    .string()
    .trim()
    .max(200, "must be at most 200 characters")
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type ThemeTokenInput = z.infer<typeof ThemeTokenInputSchema>;
