// Icons drawn from one SVG sprite (app/ui/icons.svg, generated from @shopify/polaris-icons by
// `npm run icons:sprite`) instead of inline paths: the browser fetches the sprite once (a hashed asset,
// cached for a year) and each icon on a page is a one-line <use>. Polaris's icon components write every
// path on every page: the dashboard's navigation alone was 14 KB of them (docs/decisions/039).
//
// An icon here references a <g> of the sprite, not a <symbol>, so the paths land in the outer <svg>'s own
// coordinates and Polaris's phone viewBox ("1 1 18 18", which draws icons larger) applies as it does to
// an inline icon.
import spriteUrl from "~/ui/icons.svg?url";
import type { SpriteIconName } from "~/ui/shared/sprite-icon-names";

/**
 * Polaris's `<Icon source={…} />` markup (`span.Polaris-Icon > svg.Polaris-Icon__Svg`) for a sprite icon.
 * `mdDown` is Polaris's breakpoint (useBreakpoints), read once by the caller rather than once per icon.
 */
export function SpriteIcon({ name, mdDown }: { name: SpriteIconName; mdDown: boolean }) {
  return (
    <span className="Polaris-Icon">
      <svg
        viewBox={mdDown ? "1 1 18 18" : "0 0 20 20"}
        className="Polaris-Icon__Svg"
        focusable="false"
        aria-hidden="true"
      >
        <use href={`${spriteUrl}#${name}`} />
      </svg>
    </span>
  );
}
