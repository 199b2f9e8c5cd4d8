import type { MetaFunction } from "@remix-run/node";
import { PrivacyPage } from "~/ui/shared/legal-pages";

export const meta: MetaFunction = () => [{ title: "Privacy Policy · Winning Products" }];

export default function Route() {
  return <PrivacyPage />;
}
