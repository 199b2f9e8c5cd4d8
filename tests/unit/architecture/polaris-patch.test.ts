// The patch to @shopify/polaris (patches/, applied by `npm install`'s postinstall; docs/decisions/076): in the
// CommonJS build the server renders with, class names and custom properties are built without the arrays and
// objects the upstream one-liners make, a one-token responsive prop's properties and useBreakpoints' default
// matches are kept, and Text reads NODE_ENV once. The markup must be exactly the upstream's: the ES module build
// (which the patch leaves as published, and which the browser runs) renders the same trees for comparison.
import { createRequire } from "node:module";
import { createElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
// The files the server's render loads (Vite's server build leaves @shopify/polaris to Node, which takes `main`).
const css = require("@shopify/polaris/build/cjs/utilities/css.js") as {
  classNames: (...classes: unknown[]) => string;
  sanitizeCustomProperties: (styles: Record<string, unknown>) => Record<string, unknown> | undefined;
  getResponsiveProps: (component: string, prop: string, tokens: string, value: unknown) => Record<string, string>;
};
const breakpoints = require("@shopify/polaris/build/cjs/utilities/breakpoints.js") as {
  getDefaultMatches?: (defaults?: unknown) => Record<string, boolean>;
  useBreakpoints: unknown;
};
const patched = require("@shopify/polaris") as typeof import("@shopify/polaris");
// Loosely typed: the trees pass the same props to two builds' components.
const h = createElement as unknown as (type: unknown, props?: object | null, ...children: ReactNode[]) => ReactNode;

/** The upstream definitions (Polaris 13.9, utilities/css.js), as the reference. */
const upstream = {
  classNames: (...classes: unknown[]) => classes.filter(Boolean).join(" "),
  sanitizeCustomProperties(styles: Record<string, unknown>) {
    const nonNull = Object.entries(styles).filter(([, value]) => value != null);
    return nonNull.length ? Object.fromEntries(nonNull) : undefined;
  },
};

/** A small deterministic generator, so a failure names the same case on every run. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s / 2 ** 32;
  };
}

describe("the patched class names and custom properties", () => {
  const next = random(76);
  const values = ["", "a", "Polaris-Text--root", 0, 1, null, undefined, false, true, "b c"];
  const pick = () => values[Math.floor(next() * values.length)];

  it("joins the same classes as upstream", () => {
    for (let i = 0; i < 2000; i++) {
      const classes = Array.from({ length: Math.floor(next() * 8) }, pick);
      expect(css.classNames(...classes), JSON.stringify(classes)).toBe(upstream.classNames(...classes));
    }
  });

  it("keeps the same properties, in the same order, as upstream", () => {
    for (let i = 0; i < 2000; i++) {
      const styles = Object.fromEntries(Array.from({ length: Math.floor(next() * 6) }, (_, k) => [`--pc-${k}`, pick()]));
      const ours = css.sanitizeCustomProperties(styles);
      const theirs = upstream.sanitizeCustomProperties(styles);
      expect(ours).toEqual(theirs);
      expect(ours === undefined ? undefined : Object.keys(ours)).toEqual(theirs === undefined ? undefined : Object.keys(theirs));
    }
  });

  it("gives one kept, frozen object per component, prop and token, and a new one for a responsive object", () => {
    const once = css.getResponsiveProps("block-stack", "gap", "space", "400");
    expect(once).toEqual({ "--pc-block-stack-gap-xs": "var(--p-space-400)" });
    expect(css.getResponsiveProps("block-stack", "gap", "space", "400")).toBe(once);
    expect(Object.isFrozen(once)).toBe(true);
    expect(css.getResponsiveProps("inline-stack", "gap", "space", "400")).toEqual({ "--pc-inline-stack-gap-xs": "var(--p-space-400)" });
    expect(css.getResponsiveProps("block-stack", "gap", "space", undefined)).toEqual({});
    const responsive = { xs: "400", md: "600" };
    expect(css.getResponsiveProps("box", "padding-block-start", "space", responsive)).toEqual({
      "--pc-box-padding-block-start-xs": "var(--p-space-400)",
      "--pc-box-padding-block-start-md": "var(--p-space-600)",
    });
    expect(css.getResponsiveProps("box", "padding-block-start", "space", responsive)).not.toBe(
      css.getResponsiveProps("box", "padding-block-start", "space", responsive),
    );
  });

  it("is the file the patch changed (the patch is applied)", () => {
    expect(css.getResponsiveProps("box", "gap", "space", "100")).toBe(css.getResponsiveProps("box", "gap", "space", "100"));
  });
});

describe("the patched build renders what the published one does", () => {
  /** A tree of the components the pages use most, built from one build's exports. */
  function tree(p: typeof import("@shopify/polaris")): ReactNode {
    const { AppProvider, Badge, Banner, BlockStack, Box, Button, Card, Icon, InlineStack, Link, List, Text, TextField, Checkbox, Select } = p;
    const texts = (["headingMd", "headingSm", "bodySm", "bodyMd", undefined] as const).flatMap((variant) =>
      (["subdued", "critical", "success", undefined] as const).map((tone) =>
        h(Text, { key: `${variant}-${tone}`, as: "p", variant, tone, fontWeight: tone ? "semibold" : undefined, truncate: tone === "critical", alignment: tone === "success" ? "end" : undefined }, `${variant} ${tone}`),
      ),
    );
    const icon = (props: { fill?: string }) => h("svg", { viewBox: "0 0 20 20" }, h("path", { d: "M1 1h18v18H1z", ...props }));
    return h(
      AppProvider,
      { i18n: {} },
      h(
        Card,
        { padding: "300" },
        h(BlockStack, { gap: "300", align: "center", inlineAlign: "start" }, ...texts),
        h(BlockStack, { gap: { xs: "200", md: "400" }, as: "ul" }, h("li", null, "one")),
        h(
          InlineStack,
          { gap: "100", align: "space-between", blockAlign: "center", wrap: false },
          h(Badge, { tone: "success" }, "New"),
          h(Badge, null, "Tracked"),
          h(Button, { variant: "primary", url: "/choose-plan" }, "Choose a plan"),
          h(Button, { icon, accessibilityLabel: "Save" }),
          h(Icon, { source: icon, tone: "subdued" }),
        ),
        h(Box, { padding: "400", paddingInline: { xs: "400", sm: "0" }, background: "bg-surface-secondary", borderRadius: "200" }, "boxed"),
        h(Link, { url: "/dashboard", monochrome: true, removeUnderline: true }, "A link"),
        h(List, { type: "bullet" }, h(List.Item, null, "A reason")),
        h(Banner, { tone: "warning", title: "Heads up" }, h("p", null, "Something to know")),
        h(TextField, { label: "Min price", value: "10", onChange: () => {}, autoComplete: "off", prefix: "$", type: "number" }),
        h(Checkbox, { label: "Audio", checked: true, onChange: () => {} }),
        h(Select, { label: "Sort", options: ["a", "b"], value: "a", onChange: () => {} }),
      ),
    );
  }

  it("gives the same markup from the patched CommonJS build and the published ES module build", async () => {
    // @ts-expect-error the package declares types for its entry only; this is the same API's ES module build
    const published = (await import("@shopify/polaris/build/esm/index.js")) as typeof import("@shopify/polaris");
    expect(published.Text).not.toBe(patched.Text);
    const html = renderToStaticMarkup(tree(patched));
    expect(html).toContain("--pc-block-stack-gap-xs:var(--p-space-300)");
    expect(html).toBe(renderToStaticMarkup(tree(published)));
    // Twice: a kept object must come out the same the second time.
    expect(renderToStaticMarkup(tree(patched))).toBe(html);
  });

  it("gives useBreakpoints' first state the same matches as upstream", () => {
    const seen: Record<string, boolean>[] = [];
    const Probe = ({ defaults }: { defaults?: boolean | Record<string, boolean> }) => {
      seen.push((breakpoints.useBreakpoints as (o?: object) => Record<string, boolean>)(defaults === undefined ? undefined : { defaults }));
      return null;
    };
    for (const defaults of [undefined, true, false, { mdUp: true }]) renderToStaticMarkup(h(Probe, { defaults }));
    const aliases = Object.keys(seen[0]);
    expect(aliases.length).toBeGreaterThan(10);
    expect(seen[0]).toEqual(Object.fromEntries(aliases.map((a) => [a, false])));
    expect(seen[1]).toEqual(Object.fromEntries(aliases.map((a) => [a, true])));
    expect(seen[2]).toEqual(Object.fromEntries(aliases.map((a) => [a, false])));
    expect(seen[3]).toEqual(Object.fromEntries(aliases.map((a) => [a, a === "mdUp"])));
  });
});
