import type { MetaFunction } from "@remix-run/node";
import { TermsPage } from "~/ui/shared/legal-pages";

export const meta: MetaFunction = () => [{ title: "Terms of Service · Winning Products" }];

export default function Route() {
  return <TermsPage />;
}
