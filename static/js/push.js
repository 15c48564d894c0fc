// The notifications page's "this phone" card (templates/notifications/preferences.html,
// docs/notifications.md): registers the players' service worker, subscribes it to Web Push
// with the site's VAPID public key, and posts the subscription to the server (or removes it).
"use strict";

(function () {
  const card = document.getElementById("push-card");
  if (!card || !card.dataset.vapid) return;
  const enable = document.getElementById("push-enable");
  const disable = document.getElementById("push-disable");
  const status = document.getElementById("push-status");
  const csrf = document.querySelector("input[name=csrfmiddlewaretoken]");
  const say = (text) => { status.textContent = text; };
  const texts = {
    unsupported: card.dataset.unsupported || "This browser cannot receive notifications.",
  };

  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    enable.disabled = true;
    say(texts.unsupported);
    return;
  }

  function keyBytes(base64url) {
    const padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    const raw = atob(padded);
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf ? csrf.value : "" },
      body: JSON.stringify(body),
    });
  }

  function registration() {
    return navigator.serviceWorker.register(card.dataset.worker).then(() => navigator.serviceWorker.ready);
  }

  function show(subscribed) {
    enable.hidden = subscribed;
    disable.hidden = !subscribed;
  }

  registration()
    .then((reg) => reg.pushManager.getSubscription())
    .then((sub) => show(Boolean(sub)))
    .catch(() => show(false));

  enable.addEventListener("click", () => {
    Notification.requestPermission()
      .then((permission) => {
        if (permission !== "granted") throw new Error(permission);
        return registration();
      })
      .then((reg) =>
        reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(card.dataset.vapid) })
      )
      .then((sub) => {
        const json = sub.toJSON();
        return post(card.dataset.subscribe, { endpoint: json.endpoint, p256dh: json.keys.p256dh, auth: json.keys.auth });
      })
      .then((response) => {
        if (!response.ok) throw new Error(String(response.status));
        show(true);
        say("✓");
      })
      .catch((err) => say(String(err && err.message ? err.message : err)));
  });

  disable.addEventListener("click", () => {
    registration()
      .then((reg) => reg.pushManager.getSubscription())
      .then((sub) => {
        if (!sub) return null;
        const endpoint = sub.endpoint;
        return sub.unsubscribe().then(() => post(card.dataset.unsubscribe, { endpoint }));
      })
      .then(() => { show(false); say("✓"); })
      .catch((err) => say(String(err)));
  });
})();
