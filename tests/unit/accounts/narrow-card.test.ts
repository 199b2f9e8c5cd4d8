// The narrow-card shell of the site's single-task pages (decision 099): one centred column, one card, the page's
// only h1 first, an optional badge on the title's line; a form's own refusal as a critical banner, nothing without.
import { AppProvider, Badge } from "@shopify/polaris";
import enTranslations from "@shopify/polaris/locales/en.json";
import { createElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FormErrorBanner, NarrowCard } from "~/ui/shared/narrow-card";

const render = (node: ReactNode) => renderToStaticMarkup(createElement(AppProvider, { i18n: enTranslations }, node));

describe("NarrowCard", () => {
  it("is the narrow column holding one card headed by the page's h1, then its content", () => {
    const html = render(createElement(NarrowCard, { title: "Log in", children: createElement("p", null, "the form") }));
    expect(html).toMatch(/^<div class="narrow"><div class="Polaris-ShadowBevel"[^>]*>.*<h1 class="[^"]*headingLg[^"]*">Log in<\/h1><p>the form<\/p>/);
    expect(html.match(/<h1/g)).toHaveLength(1);
  });

  it("puts a badge at the end of the title's line", () => {
    const html = render(createElement(NarrowCard, { title: "Pro", aside: createElement(Badge, { tone: "info" }, "7-day free trial"), children: "x" }));
    expect(html).toMatch(/Polaris-InlineStack.*<h1[^>]*>Pro<\/h1>.*7-day free trial/);
  });
});

describe("FormErrorBanner", () => {
  it("shows the form's refusal as a critical banner, and nothing without one", () => {
    expect(render(createElement(FormErrorBanner, { message: "Wrong e-mail or password." }))).toMatch(/Polaris-Banner.*critical|critical.*Polaris-Banner/s);
    expect(render(createElement(FormErrorBanner, { message: "Wrong e-mail or password." }))).toContain("Wrong e-mail or password.");
    expect(render(createElement(FormErrorBanner, { message: null }))).not.toContain("Polaris-Banner");
  });
});
