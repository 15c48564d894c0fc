// The round clock (events/round_clock.py, templates/events/_clock.html): counts down, in
// minutes:seconds, the round's time left and each table's (with its time extensions).
//
// Each clock is an element [data-clock] with data-state ("running", "paused", "over",
// "not_started"), data-end (running: when it reaches 0, in ms since 1970 UTC, the server's
// clock) and data-left (paused: the seconds left, frozen). The nearest [data-clock-now]
// above it holds the server's time when that response was sent (stamped per response, even
// on a cached page), so the offset between the server's clock and this device's is known:
// a tablet or a projector laptop whose clock is wrong still shows the right time left.
//
// Ticking needs no network: the clock counts on from what the page carries, offline too.
// A page may give the offset itself (data-clock-offset beside data-clock-now): the judge's
// tablet, which keeps the offset measured when its snapshot arrived.
// The big screen's htmx refresh (every 30 s) brings a fresh end time and offset after a
// pause, a resume or an extension; the elements are looked up again at every tick.
(function () {
  "use strict";

  function offsetOf(root) {
    // ms to add to Date.now() to get the server's time; computed once per response
    if (!root) return 0;
    if (root.dataset.clockOffset === undefined) {
      var server = parseInt(root.dataset.clockNow, 10);
      root.dataset.clockOffset = String(isNaN(server) ? 0 : server - Date.now());
    }
    return parseInt(root.dataset.clockOffset, 10) || 0;
  }

  function format(seconds) {
    var minutes = Math.floor(seconds / 60);
    var rest = seconds % 60;
    return minutes + ":" + (rest < 10 ? "0" : "") + rest;
  }

  function show(clock, state, seconds) {
    var time = clock.querySelector("[data-clock-time]");
    if (time && seconds !== null) {
      var text = format(seconds);
      if (time.textContent !== text) time.textContent = text;
    }
    if (clock.dataset.shown === state) return;
    clock.dataset.shown = state;
    clock.classList.toggle("is-over", state === "over");
    clock.classList.toggle("is-paused", state === "paused");
    var notes = clock.querySelectorAll("[data-clock-note]");
    for (var i = 0; i < notes.length; i++) {
      notes[i].hidden = notes[i].dataset.clockNote !== state;
    }
  }

  function tick() {
    var clocks = document.querySelectorAll("[data-clock]");
    for (var i = 0; i < clocks.length; i++) {
      var clock = clocks[i];
      var state = clock.dataset.state;
      if (state === "paused") {
        var left = parseInt(clock.dataset.left, 10);
        show(clock, "paused", isNaN(left) ? null : left);
      } else if (state === "running" || state === "over") {
        var end = parseInt(clock.dataset.end, 10);
        if (isNaN(end)) continue;
        var now = Date.now() + offsetOf(clock.closest("[data-clock-now]"));
        var seconds = Math.max(0, Math.ceil((end - now) / 1000));
        show(clock, seconds > 0 ? "running" : "over", seconds);
      }
    }
  }

  // The big screen's polled fragment is the cached bytes: the server's time comes in the
  // X-Server-Time header (events/views_screen.py), for the element htmx swapped into.
  document.addEventListener("htmx:afterRequest", function (event) {
    var detail = event.detail || {};
    var xhr = detail.xhr;
    var server = xhr && parseInt(xhr.getResponseHeader("X-Server-Time"), 10);
    var target = detail.target && detail.target.closest && detail.target.closest("[data-clock-now]");
    if (!server || !target) return;
    target.dataset.clockNow = String(server);
    delete target.dataset.clockOffset;
  });

  // The judge's tablet (static/js/tablet.js) builds its clocks itself: it ticks at once
  // after drawing them.
  window.ArbitroClock = { tick: tick };
  tick();
  window.setInterval(tick, 1000);
  document.addEventListener("htmx:afterSwap", tick);
})();
