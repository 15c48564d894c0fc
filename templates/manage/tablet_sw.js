// Service worker of the judge's offline tablet (events/views_offline.py, docs/offline.md).
// Served from the tablet page's folder, so its scope is the page. It keeps the page and
// the files it loads, and serves them when the network is down: the page first from the
// network (fresh tables when online), the static files from the cache (refreshed in the
// background). Everything else — the snapshot, the sync requests — goes to the network
// untouched: the page keeps its own snapshot and queue on the device.
"use strict";

const CONFIG = {{ config|safe }};

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CONFIG.cache)
      .then((cache) => cache.addAll([CONFIG.page, ...CONFIG.assets]))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((n) => n.startsWith(CONFIG.prefix) && n !== CONFIG.cache)
            .map((n) => caches.delete(n))
        )
      )
      .then(() => self.clients.claim())
  );
});

function pageFromNetworkFirst(request) {
  return fetch(request)
    .then((response) => {
      // A redirect (to the sign-in page) or an error is shown, never kept.
      if (response.ok && !response.redirected) {
        const copy = response.clone();
        caches.open(CONFIG.cache).then((cache) => cache.put(CONFIG.page, copy));
      }
      return response;
    })
    .catch(() =>
      caches.open(CONFIG.cache).then((cache) =>
        cache.match(CONFIG.page).then(
          (cached) =>
            cached ||
            new Response("Offline", {
              status: 503,
              headers: { "Content-Type": "text/plain; charset=utf-8" },
            })
        )
      )
    );
}

function assetFromCache(request) {
  return caches.open(CONFIG.cache).then((cache) =>
    cache.match(request).then((cached) => {
      const fresh = fetch(request)
        .then((response) => {
          if (response.ok) cache.put(request, response.clone());
          return response;
        })
        .catch(() => cached);
      return cached || fresh;
    })
  );
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname === CONFIG.page) {
    event.respondWith(pageFromNetworkFirst(request));
  } else if (CONFIG.assets.includes(url.pathname)) {
    event.respondWith(assetFromCache(request));
  }
});
