// A rival store's product picture on the competitor pages: it comes from the other store's CDN, which may refuse
// it, move it or be unreachable, so a picture that fails to load becomes a grey placeholder of the same size that
// says so to screen readers, never the browser's broken-image icon with the alt text spilling out of the row
// (issue 35). A failure before the page's scripts ran is caught on mount (the image is complete with no width).
import { useEffect, useRef, useState } from "react";

export function RivalPicture({ src, title, size = 56 }: { src: string | null; title: string; size?: number }) {
  const [failed, setFailed] = useState(false);
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const img = ref.current;
    if (img && img.complete && img.naturalWidth === 0) setFailed(true);
  }, [src]);
  const box = {
    display: "block",
    width: size,
    height: size,
    borderRadius: "var(--p-border-radius-200)",
    background: "var(--p-color-bg-surface-secondary)",
    overflow: "hidden",
  } as const;
  if (!src || failed) {
    return (
      <div role="img" aria-label={`${title} (picture not available)`} style={{ ...box, display: "grid", placeItems: "center" }}>
        <svg aria-hidden width={size / 2} height={size / 2} viewBox="0 0 24 24" fill="none" stroke="var(--p-color-icon-secondary)" strokeWidth="1.5">
          <rect x="3" y="4" width="18" height="16" rx="2" />
          <circle cx="9" cy="10" r="2" />
          <path d="M21 17l-5-5-9 8" />
        </svg>
      </div>
    );
  }
  // Font size 0 keeps the alt text inside the box even for the moment before a failure is noticed.
  return <img ref={ref} src={src} alt={title} width={size} height={size} loading="lazy" onError={() => setFailed(true)} style={{ ...box, objectFit: "cover", fontSize: 0 }} />;
}
