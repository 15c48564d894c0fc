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
// A "Pause page turning" button stops the turning, and starts it again.
(function () {
  "use strict";

  var DEFAULT_SECONDS = 12;
  var index = 0;
  var timer = null;
  // The "Pause page turning" button (WCAG 2.2.2 Pause, Stop, Hide): pressed, the page
  // shown stays (refreshes included) until it is pressed again. It is shown only while
  // there are pages to turn; its state is said by aria-pressed, its label stays the same.
  var paused = false;
  var pauseButton = document.getElementById("screen-pause");

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

  function showPauseButton() {
    if (!pauseButton) return;
    pauseButton.hidden = pagesOf(container()).length < 2;
    pauseButton.setAttribute("aria-pressed", paused ? "true" : "false");
  }

  function schedule() {
    window.clearTimeout(timer);
    timer = null;
    var box = container();
    if (paused || pagesOf(box).length < 2) return;
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
      showPauseButton();
      return;
    }
    show(false);
    showPauseButton();
    if (!timer) schedule();
  });

  if (pauseButton) {
    pauseButton.addEventListener("click", function () {
      paused = !paused;
      showPauseButton();
      schedule(); // paused: clears the timer; resumed: the next page after the full time
    });
  }

  show(false);
  showPauseButton();
  schedule();
})();
