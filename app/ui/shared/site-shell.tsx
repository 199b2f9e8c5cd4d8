// The standalone site's frame: Polaris provider, header and footer. The dashboard has its own frame.
import { Link, useSearchParams } from "@remix-run/react";
import { AppProvider } from "@shopify/polaris";
import enTranslations from "@shopify/polaris/locales/en.json";
import type { ReactNode } from "react";
import { loginPathFor, REDIRECT_TO_PARAM } from "~/domain/accounts/redirect-to";
import { AppLink } from "~/ui/shared/app-link";
import { LegalLinks } from "~/ui/shared/legal-pages";

export function PolarisProvider({ children }: { children: ReactNode }) {
  return (
    <AppProvider i18n={enTranslations} linkComponent={PolarisLink}>
      {children}
    </AppProvider>
  );
}

function PolarisLink({ url, children, external, ...rest }: { url: string; children?: ReactNode; external?: boolean }) {
  if (external || /^https?:/.test(url)) {
    return (
      <a href={url} target="_blank" rel="noopener noreferrer" {...rest}>
        {children}
      </a>
    );
  }
  return (
    <AppLink to={url} {...rest}>
      {children}
    </AppLink>
  );
}

export function SiteShell({ signedIn, children }: { signedIn: boolean; children: ReactNode }) {
  // The landing page carries the page an anonymous visitor asked for (seed §2) to the login form.
  const [params] = useSearchParams();
  const loginHref = loginPathFor(params.get(REDIRECT_TO_PARAM));
  return (
    <PolarisProvider>
      <header className="site-header">
        <Link to="/" className="brand">
          Winning Products
        </Link>
        <nav aria-label="Account">
          {signedIn ? (
            <>
              <Link to="/dashboard?location=dashboard">Dashboard</Link>
              <form method="post" action="/logout">
                <button type="submit" className="link-button">
                  Log out
                </button>
              </form>
            </>
          ) : (
            <>
              <Link to={loginHref}>Log in</Link>
              <Link to="/signup">Start free trial</Link>
            </>
          )}
        </nav>
      </header>
      <main className="site-main">{children}</main>
      <footer className="site-footer">
        <p>Winning Products · Serving sellers from Ontario, Canada · Every number shows where it comes from.</p>
        <LegalLinks />
      </footer>
    </PolarisProvider>
  );
}
