// The product card an assistant shows in its window (MCP Apps, docs/decisions/054): one HTML page served as the
// ui:// resource search_products and get_product link to. The host loads it in a sandboxed frame and talks to it
// with JSON-RPC over postMessage: the card asks ui/initialize, says ui/notifications/initialized, then renders
// the tool's structuredContent when ui/notifications/tool-result arrives (a product, or a page of products),
// each with its figures, their dates and whether they were measured, the evidence, and a button back to the
// product in our app (ui/open-link). No outside script or font; every value is set as text, never as HTML.
export const PRODUCT_CARD_URI = "ui://winning-products/product-card.html";
const UI_PROTOCOL_VERSION = "2025-11-21";

export function productCardHtml(appUrl: string): string {
  const app = JSON.stringify(appUrl);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Winning Products</title>
<style>
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;padding:8px;color:#1a1a1a;background:transparent}
.card{border:1px solid #ddd;border-radius:10px;padding:12px;margin:0 0 8px;background:#fff;display:flex;gap:12px}
.card img{width:72px;height:72px;object-fit:cover;border-radius:8px;background:#f3f3f3}
h2{font-size:15px;margin:0 0 4px}.muted{color:#666;font-size:12px}.fig{margin:2px 0}
.tag{display:inline-block;font-size:11px;padding:1px 6px;border-radius:8px;background:#eef;margin-left:4px}
.tag.est{background:#f4efe3}button{margin-top:6px;border:0;border-radius:6px;padding:6px 10px;background:#1f5199;color:#fff;cursor:pointer}
</style></head>
<body><div id="root"><p class="muted" id="status">Waiting for the product…</p></div>
<script>
(function(){
  var APP_URL = ${app};
  var nextId = 1, pending = {};
  function send(msg){ window.parent.postMessage(msg, "*"); }
  function request(method, params){ var id = nextId++; return new Promise(function(resolve){ pending[id] = resolve; send({jsonrpc:"2.0", id:id, method:method, params:params}); }); }
  function el(tag, cls, text){ var e = document.createElement(tag); if(cls) e.className = cls; if(text !== undefined && text !== null) e.textContent = String(text); return e; }
  function money(m){ if(!m || m.cents === null) return "unknown"; return (m.cents/100).toFixed(2) + (m.currency ? " " + m.currency : " (currency unknown)"); }
  function figure(label, f){
    var p = el("div", "fig");
    if(!f){ p.textContent = label + ": no figure"; return p; }
    p.appendChild(el("span", "", label + ": " + f.value));
    p.appendChild(el("span", "tag" + (f.measured ? "" : " est"), (f.measured ? "measured" : "estimate") + " · " + f.asOf));
    return p;
  }
  function card(p){
    var c = el("article", "card"); c.setAttribute("data-object-id", p.objectID);
    if(p.image){ var img = el("img"); img.alt = ""; img.src = p.image; c.appendChild(img); }
    var body = el("div");
    body.appendChild(el("h2", "", p.title));
    body.appendChild(el("div", "muted", money(p.price) + " · " + p.source + " · figures as of " + p.asOf));
    var f = p.figures || {};
    body.appendChild(figure("Winning score", f.winningScore));
    body.appendChild(figure("Stores selling", f.storesSelling));
    if(f.storesAdded7d) body.appendChild(figure("Stores added this week", f.storesAdded7d));
    if(f.orders) body.appendChild(figure("Orders", f.orders));
    if(p.noSalesData) body.appendChild(el("div", "muted", p.noSalesData));
    if(p.thinEvidence) body.appendChild(el("div", "muted", p.thinEvidence));
    (p.matchEvidence || []).slice(0, 3).forEach(function(e){ body.appendChild(el("div", "muted", e.listing.store + ": " + e.reason)); });
    var b = el("button", "", "Open in Winning Products");
    b.addEventListener("click", function(){ request("ui/open-link", { url: p.url || (APP_URL + "dashboard/products/" + encodeURIComponent(p.objectID)) }); });
    body.appendChild(b);
    c.appendChild(body);
    return c;
  }
  function render(result){
    var root = document.getElementById("root");
    root.textContent = "";
    var s = result && result.structuredContent;
    if(!s || result.isError){ root.appendChild(el("p", "muted", result && result.content && result.content[0] ? result.content[0].text : "No product.")); return; }
    var items = Array.isArray(s.items) ? s.items : [s];
    items.forEach(function(p){ root.appendChild(card(p)); });
    send({jsonrpc:"2.0", method:"ui/notifications/size-changed", params:{ height: document.documentElement.scrollHeight }});
  }
  window.addEventListener("message", function(event){
    var msg = event.data;
    if(!msg || msg.jsonrpc !== "2.0") return;
    if(msg.id !== undefined && pending[msg.id]){ var r = pending[msg.id]; delete pending[msg.id]; r(msg.result); return; }
    if(msg.method === "ui/notifications/tool-result") render(msg.params);
  });
  request("ui/initialize", { appInfo: { name: "winning-products-card", version: "1.0.0" }, appCapabilities: {}, protocolVersion: "${UI_PROTOCOL_VERSION}" })
    .then(function(){ send({jsonrpc:"2.0", method:"ui/notifications/initialized", params:{}}); });
})();
</script></body></html>`;
}
