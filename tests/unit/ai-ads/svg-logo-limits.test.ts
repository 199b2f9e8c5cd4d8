// The static limits on SVG logos (app/domain/ai-ads/svg-logo-limits.ts, decision 040), on documents read by the real
// parser (saxes): what ordinary exports contain passes; filters, markers, copies of copies, reference cycles,
// amplification through clip paths and style sheets, and too many elements, copies, images, characters or
// levels are refused with a sentence naming the limit.
import { describe, expect, it } from "vitest";
import { SVG_LOGO_LIMITS, svgLogoProblem } from "~/domain/ai-ads/svg-logo-limits";
import { parseSvgLogo } from "~/integrations/svg-parse.server";

const NS = `xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"`;
const svg = (body: string, attrs = `width="100" height="100"`) => `<svg ${NS} ${attrs}>${body}</svg>`;
const PNG_1x1 = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

function problem(text: string): string | null {
  const parsed = parseSvgLogo(text);
  return "problem" in parsed ? parsed.problem : svgLogoProblem(parsed.root);
}

describe("SVG logo limits: what passes", () => {
  it.each([
    ["plain shapes and text", svg(`<rect width="100" height="50" rx="8" fill="#e11d48"/><text x="50" y="32">Brand</text>`)],
    [
      "an Illustrator export (classes, a gradient through the style sheet, xml:space)",
      `<?xml version="1.0" encoding="utf-8"?>\n<!-- Generator: Adobe Illustrator 27.0.0 -->\n<svg version="1.1" id="Layer_1" ${NS} x="0px" y="0px" viewBox="0 0 200 100" style="enable-background:new 0 0 200 100;" xml:space="preserve"><style type="text/css">.st0{fill:url(#SVGID_1_);}.st1{fill:#FFFFFF;}</style><linearGradient id="SVGID_1_" gradientUnits="userSpaceOnUse" x1="0" y1="0" x2="200" y2="0"><stop offset="0" style="stop-color:#E11D48"/><stop offset="1" style="stop-color:#F59E0B"/></linearGradient>${'<path class="st0" d="M0 0h10v10H0z"/>'.repeat(300)}<path class="st1" d="M20 20h10v10H20z"/></svg>`,
    ],
    [
      "an Inkscape file (its own namespaces and metadata)",
      `<svg ${NS} xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:cc="http://creativecommons.org/ns#" width="210mm" height="297mm" viewBox="0 0 210 297" sodipodi:docname="logo.svg"><sodipodi:namedview inkscape:zoom="0.7"/><metadata><rdf:RDF><cc:Work rdf:about=""/></rdf:RDF></metadata><g inkscape:label="Layer 1" inkscape:groupmode="layer"><circle cx="100" cy="100" r="50" style="fill:#0b6e4f;stroke:none"/></g></svg>`,
    ],
    [
      "glyphs drawn with <use> (a PDF or cairo export), 200 copies",
      svg(`<defs><symbol id="g0" overflow="visible"><path d="M0 0h4v6H0z"/></symbol></defs>${Array.from({ length: 200 }, (_, i) => `<use xlink:href="#g0" x="${i % 20}" y="${Math.floor(i / 20)}"/>`).join("")}`),
    ],
    ["a clip path used a few times", svg(`<clipPath id="c"><circle cx="50" cy="50" r="40"/></clipPath>${'<rect width="100" height="100" clip-path="url(#c)"/>'.repeat(20)}`)],
    ["one embedded PNG drawn four times", svg(`<defs><image id="i" href="${PNG_1x1}" width="10" height="10"/></defs><use href="#i"/><use href="#i" x="10"/><use href="#i" x="20"/>`)],
  ])("%s", (_label, text) => {
    expect(problem(text)).toBeNull();
  });
});

describe("SVG logo limits: what is refused", () => {
  it.each([
    ["a <filter>", svg(`<filter id="f"><feGaussianBlur stdDeviation="4"/></filter><rect width="9" height="9" filter="url(#f)"/>`), /filter effects \(<filter>\)/],
    ["a filter primitive on its own", svg(`<feTurbulence baseFrequency="0.1"/>`), /filter effects \(<feTurbulence>\)/],
    ["a CSS filter function in an attribute", svg(`<rect width="9" height="9" filter="blur(5)"/>`), /filter effects \(a filter property\)/],
    ["a filter in a style attribute", svg(`<rect width="9" height="9" style="fill:red; filter: drop-shadow(2px 2px 4px black)"/>`), /filter property/],
    ["a filter in a style sheet", svg(`<style>rect{filter:blur(9px)}</style><rect width="9" height="9"/>`), /filter property/],
    ["a filter under another prefix", `<s:svg xmlns:s="http://www.w3.org/2000/svg" width="9" height="9"><s:filter id="f"/></s:svg>`, /filter effects/],
    ["a marker", svg(`<marker id="m"><circle r="2"/></marker><path d="M0 0L9 9" marker-mid="url(#m)"/>`), /markers/],
    ["a <use> of a group holding a <use>", svg(`<defs><rect id="a" width="1" height="1"/><g id="b"><use href="#a"/><use href="#a"/></g></defs><use href="#b"/>`), /<use> copies something that itself contains a <use>/],
    ["a <use> of a <use>", svg(`<defs><rect id="a" width="1" height="1"/><use id="b" href="#a"/></defs><use href="#b"/>`), /copies of copies multiply/],
    ["a group that copies itself", svg(`<g id="a"><rect width="1" height="1"/><use href="#a"/></g>`), /refers to itself/],
    ["masks that copy each other in a loop", svg(`<mask id="m1"><rect width="9" height="9" mask="url(#m2)"/></mask><mask id="m2"><rect width="9" height="9" mask="url(#m1)"/></mask><rect width="9" height="9" mask="url(#m1)"/>`), /refers to itself/],
    ["a clip path of 100 shapes used 100 times", svg(`<clipPath id="c">${'<rect width="1" height="1"/>'.repeat(100)}</clipPath>${'<rect width="9" height="9" clip-path="url(#c)"/>'.repeat(100)}`), /once its copies \(<use>, clip paths, masks, patterns\) are counted it draws more than 2,000 elements/],
    ["a style sheet that clips every element with a large clip path", svg(`<style>*{clip-path:url(#c)}</style><clipPath id="c">${'<rect width="1" height="1"/>'.repeat(20)}</clipPath>${'<rect width="9" height="9"/>'.repeat(100)}`), /draws more than 2,000 elements/],
    ["201 <use> copies", svg(`<defs><path id="p" d="M0 0h1v1z"/></defs>${'<use href="#p"/>'.repeat(201)}`), /201 <use> copies; a logo may have at most 200/],
    ["2,001 elements", svg('<rect width="1" height="1"/>'.repeat(2000)), /more than 2,000 elements/],
    ["33 levels of nesting", svg(`${"<g>".repeat(32)}<rect width="1" height="1"/>${"</g>".repeat(32)}`), /nested more than 32 deep/],
    ["1,001 characters of text", svg(`<text>${"W".repeat(1001)}</text>`), /1,001 characters of text; a logo may have at most 1,000/],
    ["five embedded images, copies counted", svg(`<defs><image id="i" href="${PNG_1x1}" width="10" height="10"/></defs>${'<use href="#i"/>'.repeat(5)}`), /draws 5 embedded images.*at most 4/],
    ["a width of a billion", svg(`<rect width="9" height="9"/>`, `width="1e9" height="10"`), /width, height or viewBox is larger than 100,000/],
    ["a huge viewBox", svg(`<rect width="9" height="9"/>`, `viewBox="0 0 1000000 10"`), /larger than 100,000/],
    ["a DOCTYPE", `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">]>${svg("<text>&a;</text>")}`, /DOCTYPE or entities/],
    ["an undeclared entity", svg("<text>&lol;</text>"), /not well-formed XML/],
    ["markup that is not XML", `<svg ${NS}><rect></svg>`, /not well-formed XML/],
    ["a root that is not <svg>", `<html xmlns="http://www.w3.org/1999/xhtml"><svg/></html>`, /outermost element is not <svg>/],
    ["a script", svg("<script>alert(1)</script>"), /contains a script/],
    ["a foreignObject", svg("<foreignObject><div/></foreignObject>"), /foreignObject/],
    ["an event handler", svg(`<rect width="9" height="9" onclick="x()"/>`), /event handler/],
    ["a <use> of another file", svg(`<use xlink:href="file:///etc/passwd#x"/>`), /outside the file \(file:\/\/\/etc\/passwd#x\)/],
    ["an href under an unusual prefix", `<svg xmlns="http://www.w3.org/2000/svg" xmlns:q="http://www.w3.org/1999/xlink" width="9" height="9"><image q:href="http://169.254.169.254/" width="9" height="9"/></svg>`, /outside the file/],
    ["two different hrefs on one element", svg(`<image href="${PNG_1x1}" xlink:href="/etc/hostname" width="9" height="9"/>`), /two different href attributes/],
    ["an SVG image inside", svg(`<image href="data:image/svg+xml;base64,PHN2Zy8+" width="9" height="9"/>`), /outside the file/],
    ["a remote url() in a style sheet", svg(`<style>rect{fill:url(https://evil.example/p.svg#x)}</style>`), /outside the file \(url\(https/],
    ["an @import", svg(`<style>@import "x.css";</style>`), /imports another file/],
  ])("%s", (_label, text, message) => {
    expect(problem(text)).toMatch(message);
  });

  it("keeps its limits small enough that copies cannot reach the 10^5 nodes of the report", () => {
    expect(SVG_LOGO_LIMITS.expandedElements).toBeLessThanOrEqual(2000);
    expect(SVG_LOGO_LIMITS.elements).toBeLessThanOrEqual(SVG_LOGO_LIMITS.expandedElements);
  });
});
