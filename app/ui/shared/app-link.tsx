// A link to a page of this app, as Remix's <Link> writes and follows it, for less server CPU (docs/decisions/072).
//
// Remix's Link resolves its path three times while a page renders on the server (its own useHref, React Router's
// Link's useHref and its click handler's useResolvedPath, each serialising the route matches), which cost ~0.1 ms a
// link: 5-8% of the product grid (~50 links: the navigation, two per card) and a quarter of the course page. For a
// plain path inside the app ("/dashboard/products?sort=trending") the resolved path is the path itself, so this
// writes the same <a> (same attributes, `data-discover` for lazy route discovery, the same href) and, on a click
// Remix's Link would take, navigates the same way: `navigate(to)`, replacing the history entry when the link points
// at the page already shown. Anything else (a relative path, an object, another site, or any of the options that
// change how the router navigates or prefetches) is Remix's own Link. tests/unit/products/app-link.test.ts holds the two
// to the same markup; tests/e2e/seller-nav.spec.ts clicks links and checks the page was not reloaded.
import { createPath, Link, resolvePath, useLocation, useNavigate, type LinkProps } from "@remix-run/react";
import { forwardRef, type MouseEvent } from "react";

/** Props that change how React Router navigates or Remix prefetches: a link with one is Remix's own. */
const ROUTER_OPTIONS = new Set([
  "reloadDocument",
  "replace",
  "state",
  "preventScrollReset",
  "relative",
  "viewTransition",
  "unstable_viewTransition",
]);

/** A path on this site written from its root: "/x", never "//host" or "https:" (React Router's external test). */
export function isPlainAppPath(to: unknown): to is string {
  return typeof to === "string" && to.startsWith("/") && !to.startsWith("//");
}

function needsRemixLink(props: LinkProps): boolean {
  if (!isPlainAppPath(props.to)) return true;
  if ((props.prefetch ?? "none") !== "none" || (props.discover ?? "render") !== "render") return true;
  for (const key in props) if (ROUTER_OPTIONS.has(key)) return true;
  return false;
}

/** React Router's test for a click it handles itself: the main button, no modifier, no other target. */
function followsInApp(event: MouseEvent<HTMLAnchorElement>, target: string | undefined): boolean {
  return (
    event.button === 0 &&
    (!target || target === "_self") &&
    !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey)
  );
}

export const AppLink = forwardRef<HTMLAnchorElement, LinkProps>(function AppLink(props, ref) {
  const navigate = useNavigate();
  const location = useLocation();
  if (needsRemixLink(props)) return <Link ref={ref} {...props} />;
  // `prefetch` and `discover` are Remix's defaults here ("none", "render"), written as `data-discover`.
  const { to, onClick, target, prefetch: _prefetch, discover: _discover, ...rest } = props;
  const href = createPath(resolvePath(to as string));
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || !followsInApp(event, target)) return;
    event.preventDefault();
    navigate(to, { replace: createPath(location) === href });
  };
  return <a {...rest} data-discover="true" href={href} onClick={follow} ref={ref} target={target} />;
});
