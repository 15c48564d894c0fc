// The players' service worker (events/views_notify.py, docs/notifications.md): shows a Web
// Push notice (JSON: title, body, url, from events.notify_rules.Notice.push_body) and opens
// its link when tapped. It caches nothing (the judge's tablet has its own worker).
"use strict";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (e) {
    data = { title: event.data ? event.data.text() : "Árbitro" };
  }
  event.waitUntil(
    self.registration.showNotification(data.title || "Árbitro", {
      body: data.body || "",
      data: { url: data.url || "/" },
      icon: "/static/favicon.svg",
    })
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((wins) => {
      for (const win of wins) {
        if (win.url === url && "focus" in win) return win.focus();
      }
      return self.clients.openWindow(url);
    })
  );
});
