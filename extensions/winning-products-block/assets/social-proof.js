// Winning Products social proof block: asks the app whether this theme's licence is valid and which
// message to show, then shows it in the line the block reserved. Two ways in, both verified by the app:
//  - the app proxy (/apps/winning-products/block), signed by Shopify, same origin, no token needed;
//  - directly (/api/theme/license) with the theme token, when the block has one and the app URL: the app
//    answers only storefront origins whitelisted for the token.
// Any failure (invalid licence, network, timeout) leaves the line empty: nothing breaks, nothing moves.
(function () {
  "use strict";
  var CACHE_MS = 10 * 60 * 1000;
  var TIMEOUT_MS = 4000;

  function cacheKey(root) {
    return "wp-licence:" + (root.dataset.themeId || "") + ":" + (root.dataset.themeToken ? "direct" : "proxy");
  }

  function readCache(root) {
    try {
      var raw = window.sessionStorage.getItem(cacheKey(root));
      if (!raw) return undefined;
      var entry = JSON.parse(raw);
      return Date.now() - entry.at < CACHE_MS ? entry.licence : undefined;
    } catch (e) {
      return undefined;
    }
  }

  function writeCache(root, licence) {
    try {
      window.sessionStorage.setItem(cacheKey(root), JSON.stringify({ at: Date.now(), licence: licence }));
    } catch (e) {
      /* private mode: no cache */
    }
  }

  function request(root) {
    var themeId = encodeURIComponent(root.dataset.themeId || "");
    var token = root.dataset.themeToken;
    var appUrl = (root.dataset.appUrl || "").replace(/\/+$/, "");
    var controller = typeof AbortController === "function" ? new AbortController() : null;
    var timer = controller ? setTimeout(function () { controller.abort(); }, TIMEOUT_MS) : null;
    var options = { signal: controller ? controller.signal : undefined };
    var url;
    if (token && appUrl) {
      url = appUrl + "/api/theme/license?themeId=" + themeId;
      options.mode = "cors";
      options.credentials = "omit";
      options.headers = { Authorization: "Bearer " + token };
    } else {
      url = root.dataset.proxyUrl + "?themeId=" + themeId;
      options.credentials = "same-origin";
      options.headers = { Accept: "application/json" };
    }
    return fetch(url, options)
      .then(function (res) { return res.ok ? res.json() : null; })
      .then(function (body) { return body && body.valid === true ? body : null; })
      .catch(function () { return null; })
      .then(function (licence) {
        if (timer) clearTimeout(timer);
        return licence;
      });
  }

  function render(root, licence) {
    var line = root.querySelector("[data-wp-message]");
    if (!line) return;
    var text = licence ? licence.message || root.dataset.fallbackMessage || "" : "";
    line.textContent = text;
    line.classList.toggle("is-ready", Boolean(text));
  }

  function init(root) {
    if (root.dataset.wpReady) return;
    root.dataset.wpReady = "1";
    var cached = readCache(root);
    if (cached !== undefined) return render(root, cached);
    request(root).then(function (licence) {
      writeCache(root, licence);
      render(root, licence);
    });
  }

  function initAll(scope) {
    var roots = (scope || document).querySelectorAll("[data-wp-social-proof]");
    for (var i = 0; i < roots.length; i++) init(roots[i]);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { initAll(); });
  else initAll();
  // The theme editor re-renders sections in place.
  document.addEventListener("shopify:section:load", function (event) { initAll(event.target); });
})();
