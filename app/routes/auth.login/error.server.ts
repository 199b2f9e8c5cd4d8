import type { LoginError } from "@shopify/shopify-app-remix/server";
import { LoginErrorType } from "@shopify/shopify-app-remix/server";

export function loginErrorMessage(loginErrors: LoginError): { shop?: string } {
  if (loginErrors?.shop === LoginErrorType.MissingShop) return { shop: "Enter your shop domain to log in." };
  if (loginErrors?.shop === LoginErrorType.InvalidShop) return { shop: "Enter a valid shop domain, like example.myshopify.com." };
  return {};
}
