// A route module's page rendered on the server as Remix renders a document request: its loader (and for a POST
// its action first, then the loader again) runs on a real Request through React Router's static handler, and its
// default export renders inside a static data router and the site's Polaris provider, so useLoaderData,
// useActionData, useNavigation, useSearchParams, Form and useSubmit behave as on the first paint in a browser.
// It is what @remix-run/testing's createRemixStub does, without the package. `outline` reads back what a person
// sees and can submit: the text, the headings, the links, the buttons and each form's fields.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { createElement, type ComponentType } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { PolarisProvider } from "~/ui/shared/site-shell";
import { makeRequest, type CallOptions } from "./routes";

/** A loader or an action: both take the same arguments. */
type DataFunction = (args: LoaderFunctionArgs) => unknown;

export interface RouteModule {
  loader: DataFunction;
  action?: DataFunction;
  default: ComponentType;
}

/** The page's HTML, or the Response its loader or action answered with instead (a redirect, a 401). */
export type Rendered = { status: number; html: string } | { status: number; html: null; response: Response };

export async function renderRoute(module: RouteModule, pathAndQuery: string, options: CallOptions = {}): Promise<Rendered> {
  const request = makeRequest(pathAndQuery, options);
  // What a Remix loader or action returns (data, a Response, Remix's data()) is what React Router's handlers return.
  const run =
    (fn: DataFunction) =>
    async ({ request: r, params }: Pick<LoaderFunctionArgs, "request" | "params">) =>
      (await fn({ request: r, params, context: {} })) as object | null;
  const handler = createStaticHandler([
    {
      id: "page",
      path: new URL(request.url).pathname,
      loader: run(module.loader),
      action: module.action ? run(module.action) : undefined,
      Component: module.default,
    },
  ]);
  const context = await handler.query(request);
  if (context instanceof Response) return { status: context.status, html: null, response: context };
  if (context.errors) throw Object.values(context.errors)[0];
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToStaticMarkup(
    createElement(PolarisProvider, null, createElement(StaticRouterProvider, { router, context, hydrate: false })),
  );
  return { status: context.statusCode, html };
}

export interface FormOutline {
  method: string;
  action: string;
  /** The hidden fields a submit sends. */
  fields: Record<string, string>;
  /** The labels of its submit buttons. */
  submit: string[];
}

export interface PageOutline {
  /** Everything a person reads, tags removed, whitespace collapsed. */
  text: string;
  headings: string[];
  /** Each link's words (its aria-label when it has none) and where it goes. */
  links: { text: string; href: string }[];
  /** Buttons with words outside forms (their click runs script: a confirmation, a hand-off, a Shopify charge). */
  buttons: string[];
  forms: FormOutline[];
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#x27": "'", "#39": "'", nbsp: " " };

function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, " ")
    .replace(/&(amp|lt|gt|quot|#x27|#39|nbsp);/g, (_, name: string) => ENTITIES[name])
    .replace(/\s+/g, " ")
    .trim();
}

function attr(tag: string, name: string): string | null {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? textOf(m[1]) : null;
}

function buttonsIn(html: string, submitOnly: boolean): string[] {
  return [...html.matchAll(/(<button\b[^>]*>)([\s\S]*?)<\/button>/g)]
    .filter(([, open]) => (attr(open, "type") === "submit") === submitOnly)
    .map(([, , inner]) => textOf(inner));
}

export function outline(html: string): PageOutline {
  const forms = [...html.matchAll(/(<form\b[^>]*>)([\s\S]*?)<\/form>/g)].map(([, open, inner]) => ({
    method: attr(open, "method") ?? "get",
    action: attr(open, "action") ?? "",
    fields: Object.fromEntries(
      [...inner.matchAll(/<input\b[^>]*>/g)]
        .filter(([tag]) => attr(tag, "type") === "hidden")
        .map(([tag]) => [attr(tag, "name") ?? "", attr(tag, "value") ?? ""]),
    ),
    submit: buttonsIn(inner, true),
  }));
  const outsideForms = html.replace(/<form\b[\s\S]*?<\/form>/g, "");
  return {
    text: textOf(html),
    headings: [...html.matchAll(/<h2\b[^>]*>([\s\S]*?)<\/h2>/g)].map(([, inner]) => textOf(inner)),
    links: [...html.matchAll(/(<a\b[^>]*>)([\s\S]*?)<\/a>/g)].map(([, open, inner]) => ({
      text: textOf(inner) || (attr(open, "aria-label") ?? ""),
      href: attr(open, "href") ?? "",
    })),
    buttons: buttonsIn(outsideForms, false).filter(Boolean),
    forms,
  };
}
