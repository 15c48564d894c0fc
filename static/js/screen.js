// The big-screen standings (events/views_screen.py, templates/events/screen_live.html).
//
// The live fragment holds one or more pages, each the size of the projector's screen:
// the seating of the round being played, then the standings in columns. When there are
// several, this shows them one at a time, in turn, every data-seconds seconds ("page 2/4"
// is in each page's heading). htmx replaces the fragment every 30 s: the page being shown
// stays the same page number across a refresh, and the turn goes on from there (a reset
// at each refresh would never reach the last pages of a big event).
// With prefers-reduced-motion the pages change without the fade. Without this script,
// every page is shown one below the other.
(function () {
  "use strict";

  var DEFAULT_SECONDS = 12;
  var index = 0;
  var timer = null;

  function container() {
    return document.querySelector("[data-screen-pages]");
  }
  function pagesOf(box) {
    return box ? box.querySelectorAll("[data-screen-page]") : [];
  }
  function reducedMotion() {
    return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }

  function show(entering) {
    var box = container();
    var pages = pagesOf(box);
    if (!pages.length) return;
    if (index >= pages.length) index = 0;
    box.classList.add("is-paged");
    for (var i = 0; i < pages.length; i++) {
      var current = i === index;
      pages[i].hidden = !current;
      pages[i].classList.toggle("screen-enter", current && entering && !reducedMotion());
    }
    box.dataset.current = String(index + 1);
  }

  function schedule() {
    window.clearTimeout(timer);
    timer = null;
    var box = container();
    if (pagesOf(box).length < 2) return;
    var seconds = parseFloat(box.dataset.seconds) || DEFAULT_SECONDS;
    timer = window.setTimeout(function () {
      timer = null;
      index += 1;
      show(true);
      schedule();
    }, seconds * 1000);
  }

  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || !target.querySelector || !target.querySelector("[data-screen-pages]")) {
      if (!container()) index = 0;
      return;
    }
    show(false);
    if (!timer) schedule();
  });

  show(false);
  schedule();
})();
