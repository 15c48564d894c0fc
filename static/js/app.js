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
})();
