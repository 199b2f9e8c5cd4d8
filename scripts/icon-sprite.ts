// Writes app/ui/icons.svg, the sprite app/ui/shared/sprite-icon.tsx draws from: each icon of SPRITE_ICONS as a <g>
// with the paths @shopify/polaris-icons draws (rendered from the package, so an upgrade that changes an
// icon changes the sprite: tests/unit/icon-sprite.test.ts fails until this is run again).
//
//   npm run icons:sprite
import { writeFileSync } from "node:fs";
import path from "node:path";
import * as icons from "@shopify/polaris-icons";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { SPRITE_ICONS } from "../app/ui/shared/sprite-icon-names";

export const SPRITE_FILE = path.resolve(import.meta.dirname, "../app/ui/icons.svg");

/** The sprite's text. Every Polaris icon is drawn on a 20 × 20 viewBox; one that is not is refused. */
export function iconSprite(): string {
  const groups = SPRITE_ICONS.map((name) => {
    const svg = renderToStaticMarkup(createElement(icons[name]));
    const match = /^<svg viewBox="0 0 20 20">(.*)<\/svg>$/s.exec(svg);
    if (!match) throw new Error(`${name} is not a 20 × 20 Polaris icon: ${svg.slice(0, 80)}`);
    return `<g id="${name}">${match[1]}</g>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg"><defs>\n${groups.join("\n")}\n</defs></svg>\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(SPRITE_FILE, iconSprite());
  console.log(`wrote ${path.relative(process.cwd(), SPRITE_FILE)} (${SPRITE_ICONS.length} icons)`);
}
