// Remix's <Scripts /> (its module preloads, the hydration data and the module script that hydrates the
// page), fetched only once the server-rendered page has been painted. The page is complete without its
// scripts, but when they arrived and ran before the first paint, Lighthouse's mobile simulation charged
// all of them (160-260 KB at phone speed) to the largest paint: 2.5-3.9 s instead of 1.1-1.5 s
// (docs/decisions/027). On the server the scripts are rendered inside an inert <template>; the inline
// script below moves a copy of them into the <template> element itself (where they load and run), the
// module ones after the next frame, or at once in a hidden tab (which paints no frames). React then
// hydrates the <template> against those very nodes, so the markup matches.
import { Scripts } from "@remix-run/react";

const TEMPLATE_ID = "remix-scripts";

// The classic script (window.__remixContext, which the data scripts streamed after the document feed)
// runs at once; the module preloads before it and the module script after it wait for the paint. Each
// node goes back to its place, so the <template>'s children match what <Scripts /> renders.
const LOAD_AFTER_PAINT = `(function(){var t=document.getElementById(${JSON.stringify(TEMPLATE_ID)});
var n=[].slice.call(document.importNode(t.content,true).childNodes),i=-1,done=false,k;
for(k=0;k<n.length;k++)if(n[k].nodeName==="SCRIPT"&&n[k].type!=="module"){i=k;break;}
if(i>=0)t.appendChild(n[i]);
function go(){if(done)return;done=true;for(var j=0;j<n.length;j++){if(j<i)t.insertBefore(n[j],n[i]);else if(j>i)t.appendChild(n[j]);}}
if(document.visibilityState==="hidden")go();else requestAnimationFrame(function(){setTimeout(go,0);});})();`;

export function ScriptsAfterFirstPaint() {
  return (
    <>
      <template id={TEMPLATE_ID}>
        <Scripts />
      </template>
      <script dangerouslySetInnerHTML={{ __html: LOAD_AFTER_PAINT }} />
    </>
  );
}
