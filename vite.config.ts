import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * The framework (React, Remix, React Router) in one long-cached chunk instead of a dozen small ones:
 * a phone on a slow network pays a round trip per file before the page's largest paint. Polaris stays
 * split by component, so a page loads only the components it uses; one Polaris chunk measured worse
 * (docs/decisions/027). Only the client build; lazily imported packages (Firebase, Paddle) keep their own.
 */
function clientChunk(id: string): string | undefined {
  if (/\/node_modules\/(react|react-dom|scheduler|@remix-run|react-router|react-router-dom|turbo-stream)\//.test(id)) return "framework";
  return undefined;
}

export default defineConfig(({ isSsrBuild }) => ({
  server: { port: Number(process.env.PORT ?? 3000) },
  plugins: [
    remix({
      ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_lazyRouteDiscovery: true,
        v3_singleFetch: true,
      },
    }),
    tsconfigPaths(),
  ],
  build: { assetsInlineLimit: 0, rollupOptions: isSsrBuild ? {} : { output: { manualChunks: clientChunk } } },
  optimizeDeps: { include: ["@shopify/polaris"] },
}));
