// The Terms, Privacy and Refund pages (/terms, /privacy, /refunds; decision 051) and the links every surface
// shows to them: the site's footer, sign-up, the checkout, the dashboard's footer and the embedded settings.
// Plain prose in one place, so the three pages and what the checkout promises cannot drift apart.
import { AppLink } from "~/ui/shared/app-link";
import { BlockStack, Card, FooterHelp, Text } from "@shopify/polaris";
import type { ReactNode } from "react";
import { formatUsd, OFFERS, PLANS } from "~/domain/billing/plans";

export const LEGAL_PAGES = [
  { path: "/terms", label: "Terms" },
  { path: "/privacy", label: "Privacy" },
  { path: "/refunds", label: "Refunds" },
] as const;

const UPDATED = "November 26, 2026";

/** The three links in a row, for footers and under forms. */
export function LegalLinks({ prefix }: { prefix?: string }) {
  return (
    <nav aria-label="Legal" className="legal-links">
      {prefix ? <span>{prefix} </span> : null}
      {LEGAL_PAGES.map((page, i) => (
        <span key={page.path}>
          {i > 0 ? " · " : ""}
          <AppLink to={page.path}>{page.label}</AppLink>
        </span>
      ))}
    </nav>
  );
}

/** The dashboard's footer (the site's own footer is in site-shell.tsx). */
export function LegalFooter() {
  return (
    <footer className="dashboard-footer">
      <LegalLinks />
    </footer>
  );
}

/** Inside Shopify admin: the site's pages open in a new tab, outside the admin's frame. */
export function EmbeddedLegalFooter() {
  return (
    <FooterHelp>
      {LEGAL_PAGES.map((page, i) => (
        <span key={page.path}>
          {i > 0 ? " · " : ""}
          <a href={page.path} target="_blank" rel="noopener">
            {page.label}
          </a>
        </span>
      ))}
    </FooterHelp>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <BlockStack gap="200">
      <Text as="h2" variant="headingMd">
        {title}
      </Text>
      {children}
    </BlockStack>
  );
}

function LegalPage({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  return (
    <div className="legal-page">
      <Card>
        <BlockStack gap="500">
          <BlockStack gap="200">
            <Text as="h1" variant="headingXl">
              {title}
            </Text>
            <Text as="p" tone="subdued">
              Last updated {UPDATED}. {intro}
            </Text>
          </BlockStack>
          {children}
          <LegalLinks prefix="Also read:" />
        </BlockStack>
      </Card>
    </div>
  );
}

const monthlyPlans = PLANS.filter((p) => p.billing === "monthly");
const planPrices = monthlyPlans.map((p) => `${p.name} ${formatUsd(p.priceCents)} a month`).join(", ");
const trialDays = monthlyPlans[0]?.trialDays ?? 7;

export function TermsPage() {
  return (
    <LegalPage
      title="Terms of Service"
      intro="These terms are the agreement between you and Winning Products (Ontario, Canada) for the website, the dashboard and the Shopify app. By creating an account or installing the app you accept them."
    >
      <Section title="What we provide">
        <p>
          Winning Products is research software for e-commerce and dropshipping sellers: a product database with trend
          figures and the evidence behind them, competitor store tracking, AI-written product pages and video ads,
          weekly product drops, a course and a community. Figures are estimates from public and sample data; pages
          that show sample data say so. Nothing here is financial advice or a promise of sales.
        </p>
      </Section>
      <Section title="Your account">
        <p>
          You need a valid e-mail address you can receive mail at, and you keep your password to yourself. One account
          is for one person or business; you may link several Shopify stores to it. You are responsible for what
          happens under your account. Tell us at once if you think someone else used it; you can sign out every device
          from the Account page.
        </p>
      </Section>
      <Section title="Plans, trials and credits">
        <p>
          Monthly plans ({planPrices}, before tax) start with a {trialDays}-day free trial. Unless you cancel before the
          trial ends, the plan&apos;s price is charged on the day the trial ends and then every month on that day. A
          plan includes monthly credits for AI features (AI ads, product pages, glitch mode, automatic mode); credits
          renew each billing month, do not carry over and have no cash value. The trial includes a smaller number of
          trial credits. One-time purchases (such as the Inner Circle) are charged once and do not renew. You can
          cancel any time on Billing &amp; credits: you keep access until the end of the period you paid for.
        </p>
      </Section>
      <Section title="Payments: Paddle is the merchant of record">
        <p>
          Our order process is conducted by our online reseller Paddle.com. Paddle.com is the Merchant of Record for
          all our orders: Paddle takes the payment, charges the sales tax or VAT that applies, issues the invoice and
          handles refunds and billing questions, under Paddle&apos;s buyer terms. Inside Shopify admin, a plan may
          instead be billed by Shopify on your Shopify invoice. We never see or store your card number.
        </p>
      </Section>
      <Section title="Your store is yours">
        <p>
          You are the seller in your own store. You alone are responsible for the products you choose to sell, their
          safety and legality, your listings and claims (including text and videos we generate for you, which you
          should review before publishing), your suppliers, shipping, customer service, returns, taxes and compliance
          with the rules of Shopify, TikTok and any ad platform you use. When you push a product page to your store,
          we act on your instruction with the access you granted, and you can remove it there at any time.
        </p>
      </Section>
      <Section title="Fair use">
        <p>
          Do not resell or scrape the product database, share your login, attack or overload the service, get around
          credit limits or plan restrictions, or use generated content to mislead buyers or infringe anyone&apos;s
          rights. We may suspend an account that does, after telling you why where we can.
        </p>
      </Section>
      <Section title="Availability, liability and changes">
        <p>
          We work to keep the service available and correct, but provide it as it is. To the extent the law allows,
          our total liability for any claim is limited to what you paid us in the 12 months before it, and we are not
          liable for lost profits or sales. Nothing in these terms limits rights you have as a consumer that cannot be
          limited. We may change these terms; for a material change we tell you by e-mail or in the dashboard at least
          30 days before it applies, and you may cancel before then. Ontario law applies.
        </p>
      </Section>
      <Section title="Ending">
        <p>
          You can delete your account at any time from the Account page; it ends any subscription and erases your data
          as the Privacy policy describes.
        </p>
      </Section>
    </LegalPage>
  );
}

export function PrivacyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      intro="What we keep about you, why, who processes it for us, and how you see, take away or erase it."
    >
      <Section title="What we keep">
        <ul>
          <li>Your account: e-mail address, a salted hash of your password (never the password), your Google account id if you sign in with Google, whether your address is confirmed, and when you last logged in.</li>
          <li>Sign-ins: a session per signed-in device with its browser name and IP address; failed log-in attempts and reset requests per address and IP, kept for the time limits only.</li>
          <li>Billing: your plan, subscription and transaction records as Paddle or Shopify report them (amounts, dates, status; no card numbers), and your credit balances and their history.</li>
          <li>What you make and save: saved and tracked products, saved searches, competitor stores you follow, notes, assistant conversations, brand kits and logos, AI product pages and video ads, TikTok links, course progress, feedback and bug reports.</li>
          <li>Linked Shopify stores: the shop address and the access token Shopify grants (encrypted), to push products you choose.</li>
          <li>Usage events: pages and features used, for product analytics and, if you arrived from an ad, attribution.</li>
        </ul>
      </Section>
      <Section title="Who processes it for us">
        <ul>
          <li>Paddle (payments, tax, invoices and refunds, as merchant of record) and Shopify (billing and store access inside Shopify admin).</li>
          <li>Google Firebase Authentication, only when you sign in with Google.</li>
          <li>Our e-mail provider (SMTP), to send password reset and confirmation messages.</li>
          <li>Klaviyo (e-mail marketing you can unsubscribe from), PostHog (product analytics), Hyros and AnyTrack (ad attribution).</li>
          <li>Sentry (error reports), Algolia (product search, product data only), Discord (only if you connect it to join the community), and the AI model provider we configure for AI-written text (product data and your brand kit, never your password or payment details).</li>
        </ul>
        <p>We do not sell your personal data. Each processor receives only what its job needs.</p>
      </Section>
      <Section title="How long we keep it">
        <p>
          As long as your account exists. Sessions end after their lifetime or when you sign out; reset and confirmation
          links expire within hours; failed log-in counts within minutes. Paddle and Shopify keep billing records as tax
          law requires them to.
        </p>
      </Section>
      <Section title="Your rights">
        <p>
          You can download everything we keep about you and delete your account from the Account page: deletion erases
          your data, ends your subscription and asks our marketing processors to erase your profile. You can also change
          your e-mail address and password there, or write to us through the Feedback page for anything else, including
          a correction or a complaint. Shopify merchants can also ask through Shopify&apos;s data request.
        </p>
      </Section>
      <Section title="Cookies">
        <p>
          One signed cookie keeps you signed in. Analytics run only with the keys we configure; nothing is used for
          advertising on other sites.
        </p>
      </Section>
    </LegalPage>
  );
}

export function RefundsPage() {
  return (
    <LegalPage
      title="Refund Policy"
      intro="When you can get your money back, and how. Paddle, our merchant of record, processes every refund."
    >
      <Section title="Free trial">
        <p>
          Monthly plans start with a {trialDays}-day free trial: nothing is charged when you start it. Cancel on Billing
          &amp; credits before the trial ends and you are never charged. The checkout shows the date of your first
          charge.
        </p>
      </Section>
      <Section title="Monthly plans">
        <p>
          If you are charged for a month you did not mean to keep, ask within 14 days of the charge: we refund that
          charge in full if you have not used that month&apos;s credits (AI ads, product pages, glitch mode, automatic
          mode). After that, or once credits were used, you can cancel at any time and keep access until the end of the
          month you paid for; the rest of a started month is not refunded.
        </p>
      </Section>
      <Section title="One-time purchases">
        <p>
          The Inner Circle and the case study ({formatUsd(OFFERS.caseStudy.priceCents)}) are refunded in full if you ask
          within 14 days and have not used what they unlock.
        </p>
      </Section>
      <Section title="How to ask">
        <p>
          Reply to the receipt Paddle e-mailed you, or ask through paddle.net, or write to us through the Feedback page
          with the e-mail address of your account. Refunds go back to the card or account you paid with, usually within
          5 to 10 business days. A plan billed by Shopify is refunded through Shopify. Your rights under consumer law (for
          example a 14-day right of withdrawal in the EU and UK) are not affected.
        </p>
      </Section>
    </LegalPage>
  );
}
