// Small behaviours of the pages, kept out of the HTML so that the content security
// policy can forbid inline scripts and event handlers (config/settings/base.py).
(function () {
  "use strict";

  // <input data-select-on-click readonly value="…">: one click selects the whole text
  // (the private calendar address of the player's fixtures page).
  document.addEventListener("click", function (event) {
    var target = event.target;
    if (target instanceof HTMLInputElement && target.hasAttribute("data-select-on-click")) {
      target.select();
    }
  });

  // After an htmx swap, the focus goes to the new content's [data-swap-focus] element (a
  // player's row after check-in, a confirmation's heading): the button pressed is gone,
  // and without this the focus falls back to the page's start (WCAG 2.4.3, issue 14).
  // tabindex -1: focusable from here, not a tab stop.
  document.addEventListener("htmx:afterSettle", function () {
    var target = document.querySelector("[data-swap-focus]");
    if (!target) return;
    target.removeAttribute("data-swap-focus");
    target.setAttribute("tabindex", "-1");
    target.focus();
  });
})();
