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

  // A form inside [data-swap-errors] shows the answer of a refused request (400, 422:
  // the section again with the error named) instead of htmx's default of swapping
  // nothing, which left a refused league time proposal silent (fresh-user try, issue 17).
  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    var elt = event.detail.requestConfig && event.detail.requestConfig.elt;
    if ((status === 400 || status === 422) && elt && elt.closest("[data-swap-errors]")) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  // A form posted twice by a double tap (a second save, a second draw: fresh-user try,
  // issue 15): the same form's submit within 3 s of the first is dropped. Forms htmx
  // sends (already prevented) are left to htmx; after 3 s, or coming back to the page,
  // the form submits again (a download leaves the page where it was). The services are
  // idempotent too: this spares the round trip and a confusing second answer.
  var SUBMIT_GAP_MS = 3000;
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !(form instanceof HTMLFormElement)) return;
    if ((form.getAttribute("method") || "get").toLowerCase() !== "post") return;
    var now = Date.now();
    var last = parseInt(form.getAttribute("data-sent-at") || "0", 10);
    if (now - last < SUBMIT_GAP_MS) {
      event.preventDefault();
      return;
    }
    form.setAttribute("data-sent-at", String(now));
  });
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    document.querySelectorAll("form[data-sent-at]").forEach(function (form) {
      form.removeAttribute("data-sent-at");
    });
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
  // The squad picker of the report form (templates/leagues/squad_picker.html): pick a
  // team's footballer from its squad (a datalist) and add the line to the bookings or
  // lineups box. Without JavaScript the picker stays hidden and the box is typed.
  document.querySelectorAll("[data-squad-picker]").forEach(function (picker) {
    var box = document.getElementById(picker.getAttribute("data-target"));
    var team = picker.querySelector("[data-squad-team]");
    var who = picker.querySelector("[data-squad-footballer]");
    var card = picker.querySelector("[data-squad-card]");
    if (!box || !team || !who) {
      return;
    }
    picker.hidden = false;
    team.addEventListener("change", function () {
      who.setAttribute("list", "squad-" + team.value);
    });
    picker.querySelector("[data-squad-add]").addEventListener("click", function () {
      var name = who.value.trim();
      if (!name) {
        who.focus();
        return;
      }
      var line = team.value + "; " + name + (card ? "; " + card.value : "");
      box.value = box.value.replace(/\s*$/, "") + (box.value.trim() ? "\n" : "") + line;
      who.value = "";
      if (card) {
        card.selectedIndex = 0; // back to a yellow, the usual booking
      }
      who.focus();
    });
  });

  // Long texts are never cut (README "Free text"): the browser's maxlength would drop
  // what is pasted beyond the limit without a word. With scripts on, the limit moves to
  // a counter under the box ("5123 / 5000", marked when over) and the server refuses a
  // text too long with the field's name, keeping what was typed. Without scripts the
  // attribute stays.
  function countText(box, counter, limit) {
    var length = box.value.replace(/\r\n/g, "\n").length;
    counter.textContent = length + " / " + limit;
    counter.classList.toggle("over", length > limit);
  }
  document.querySelectorAll("textarea[maxlength]").forEach(function (box) {
    var limit = parseInt(box.getAttribute("maxlength"), 10);
    if (!limit) {
      return;
    }
    box.removeAttribute("maxlength");
    box.setAttribute("data-limit", String(limit));
    var counter = document.createElement("span");
    counter.className = "text-count muted";
    if (box.id) {
      // Read with the box (not announced on every key): its length and the limit.
      counter.id = box.id + "-count";
      var described = box.getAttribute("aria-describedby");
      box.setAttribute("aria-describedby", (described ? described + " " : "") + counter.id);
    }
    box.insertAdjacentElement("afterend", counter);
    countText(box, counter, limit);
    box.addEventListener("input", function () {
      countText(box, counter, limit);
    });
  });
})();
