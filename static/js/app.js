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
})();
