// What the embedded shell shows for an error response: our own refusals ({ error: sentence }, such as the
// 503 when Shopify cannot be reached) as text a merchant can read; the library's HTML answers as they are.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EmbeddedShellError } from "~/ui/shared/embedded-error";

const errorResponse = (status: number, data: unknown) => ({ status, statusText: "", internal: false, data });

describe("EmbeddedShellError", () => {
  it("shows the sentence of a JSON refusal, escaped as text", () => {
    const html = renderToStaticMarkup(
      createElement(EmbeddedShellError, { error: errorResponse(503, { error: "Shopify could not be reached <now>." }) }),
    );
    expect(html).toContain("Shopify could not be reached &lt;now&gt;.");
  });

  it("renders the library's HTML answers as they are", () => {
    const html = renderToStaticMarkup(createElement(EmbeddedShellError, { error: errorResponse(401, "<script>bounce()</script>") }));
    expect(html).toContain("<script>bounce()</script>");
  });
});
