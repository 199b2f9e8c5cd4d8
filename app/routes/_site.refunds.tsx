import type { MetaFunction } from "@remix-run/node";
import { RefundsPage } from "~/ui/shared/legal-pages";

export const meta: MetaFunction = () => [{ title: "Refund Policy · Winning Products" }];

export default function Route() {
  return <RefundsPage />;
}
