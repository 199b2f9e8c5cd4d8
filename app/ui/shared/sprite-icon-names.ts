// The icons of the sprite (app/ui/icons.svg), apart from the component so `npm run icons:sprite` can read the
// list without Vite's `?url` import.

/** The Polaris icons in the sprite, by their export name in @shopify/polaris-icons. */
export const SPRITE_ICONS = [
  "BookOpenIcon",
  "ChatIcon",
  "CreditCardIcon",
  "GiftCardIcon",
  "HeartIcon",
  "HomeIcon",
  "LogoTiktokIcon",
  "MagicIcon",
  "NoteIcon",
  "PageIcon",
  "PaintBrushFlatIcon",
  "PersonIcon",
  "PlayCircleIcon",
  "ProductIcon",
  "StoreIcon",
  "TargetIcon",
] as const;

export type SpriteIconName = (typeof SPRITE_ICONS)[number];
