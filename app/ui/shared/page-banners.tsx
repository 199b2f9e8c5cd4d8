// Banners the feature pages share: the warning a loader or action leaves for the user (full width, above the
// page's content), and the banner that says why a feature is locked on the user's plan with a way to choose one.
import { Banner, Layout } from "@shopify/polaris";

export function NoticeSection({ notice }: { notice: string | null | undefined }) {
  if (!notice) return null;
  return (
    <Layout.Section variant="fullWidth">
      <Banner tone="warning">
        <p>{notice}</p>
      </Banner>
    </Layout.Section>
  );
}

export function ChoosePlanBanner({ title, reason, upgradeUrl }: { title: string; reason: string | null; upgradeUrl: string }) {
  return (
    <Banner tone="info" title={title} action={{ content: "Choose a plan", url: upgradeUrl }}>
      <p>{reason}</p>
    </Banner>
  );
}
