// The README's demo login (docs/decisions/042, 051): its published address and password, and how the pages
// recognise it to say "You are in the demo account".
export const DEMO_EMAIL = "demo@winningproducts.test";
export const DEMO_PASSWORD = "demo-password-2026";
/** The plan the demo account's trial is on: the one with every feature, so the demo shows the paid product. */
export const DEMO_PLAN_ID = "pro";

export function isDemoAccount(email: string): boolean {
  return email === DEMO_EMAIL;
}
