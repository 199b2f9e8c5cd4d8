// "Create AI ad" on a product's page (both surfaces): opens the AI ads page with the product chosen,
// where the script is written. Also where the AI ads page lives on each surface.
import { Button } from "@shopify/polaris";
import { researchPaths, type Surface } from "~/ui/research/research-paths";

/** /dashboard/ai-ads on the site, its twin /app/ai-ads inside Shopify admin. */
export function aiAdsPath(surface: Surface): string {
  return researchPaths(surface).aiAds;
}

export function AiAdButton({ objectID, surface }: { objectID: string; surface: Surface }) {
  return (
    <Button url={`${aiAdsPath(surface)}?product=${encodeURIComponent(objectID)}`} fullWidth>
      Create AI video ad
    </Button>
  );
}
