// The dashboard's side navigation (the site's Frame `navigation`). It writes the markup and class names
// Polaris's <Navigation> writes for a flat list of links, so it looks and behaves the same (Frame's drawer on
// a phone, Polaris's styles), but as plain elements with the icons from one sprite: Polaris's Navigation.Item
// runs a dozen hooks and components per item and inlines each icon's paths, which made the navigation ~230
// elements and 20 KB on every dashboard page and a large share of a small page's render (docs/decisions/039).
import { AppLink } from "~/ui/shared/app-link";
import { useBreakpoints } from "@shopify/polaris";
import type { MouseEvent } from "react";
import { SpriteIcon } from "~/ui/shared/sprite-icon";
import type { SpriteIconName } from "~/ui/shared/sprite-icon-names";

export interface DashboardNavItem {
  label: string;
  icon: SpriteIconName;
  url: string;
  selected: boolean;
}

export function DashboardNav({
  items,
  pathname,
  onDismiss,
}: {
  items: DashboardNavItem[];
  /** The current path: a tap on the link to it does nothing but close the drawer, as in Polaris. */
  pathname: string;
  /** Closes the phone's drawer; called on every tap on an item. */
  onDismiss: () => void;
}) {
  const { mdDown } = useBreakpoints();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.currentTarget.getAttribute("href") === pathname) event.preventDefault();
    onDismiss();
  };
  return (
    <nav className="Polaris-Navigation">
      <div
        className="Polaris-Navigation__PrimaryNavigation Polaris-Scrollable Polaris-Scrollable--vertical Polaris-Scrollable--horizontal Polaris-Scrollable--scrollbarWidthThin"
        data-polaris-scrollable="true"
      >
        <ul className="Polaris-Navigation__Section">
          {items.map((item) => (
            <li className="Polaris-Navigation__ListItem" key={item.label}>
              <div className="Polaris-Navigation__ItemWrapper">
                <div
                  className={
                    item.selected
                      ? "Polaris-Navigation__ItemInnerWrapper Polaris-Navigation__ItemInnerWrapper--selected"
                      : "Polaris-Navigation__ItemInnerWrapper"
                  }
                >
                  <AppLink
                    data-polaris-unstyled="true"
                    className={
                      item.selected
                        ? "Polaris-Navigation__Item Polaris-Navigation__Item--selected Polaris-Navigation--subNavigationActive"
                        : "Polaris-Navigation__Item"
                    }
                    tabIndex={0}
                    to={item.url}
                    onClick={onClick}
                  >
                    <div className="Polaris-Navigation__Icon">
                      <SpriteIcon name={item.icon} mdDown={mdDown} />
                    </div>
                    <span className="Polaris-Navigation__Text">
                      <span
                        className={`Polaris-Text--root Polaris-Text--bodyMd ${item.selected ? "Polaris-Text--semibold" : "Polaris-Text--medium"}`}
                      >
                        {item.label}
                      </span>
                    </span>
                  </AppLink>
                </div>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </nav>
  );
}
