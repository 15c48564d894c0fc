// The judge's offline tablet (events/views_offline.py, docs/offline.md).
//
// The page keeps, on the device (localStorage, per event and per account):
// - the snapshot of the round (tables, seats, versions) and the infraction catalogue,
//   fetched from data.json whenever the network is on;
// - the queue of what the judge entered (incidents, table results), each entry with an
//   id generated here (crypto.randomUUID) so that sending it twice saves it once;
// - the last entries synced, with what the server answered (the penalty given).
// Entries are sent one by one, in order, when the network is on (at load, on the
// browser's "online" event, every 20 s, and with the "Sync now" button). A result the
// server calls a conflict (someone else saved the table meanwhile) stays on the page
// until the judge decides; nothing is overwritten silently.
// An entry the server fails on (a JSON "error" answer, or an HTML 500 page) never holds
// up the others: the entries queued after it are sent, and it is shown as stuck, tried
// again automatically up to AUTO_TRIES failures (then only with "Sync now"). The judge
// can set any stuck entry aside: it leaves the sending queue but stays on the tablet,
// in the "Set aside" list, from where it is sent again (same id: saved once) or, after
// a confirmation, dropped.
// The round's clock and each table's (with its time extensions) come in the snapshot with
// the server's time; the offset from this device's clock is kept with it when it arrives,
// so static/js/clock.js counts down the same time left as the players' phones and the big
// screen, offline too (a pause, a resume or an extension arrives with the next snapshot,
// asked for every 30 s while the tables are shown).
// The DOM is built with textContent only: no HTML from data, no inline script or style
// (the content security policy forbids them).
(function () {
  "use strict";

  var root = document.getElementById("tablet");
  if (!root) return;
  var S = JSON.parse(document.getElementById("tablet-strings").textContent);
  var D = root.dataset;
  var KEY = "arbitro.tablet." + D.slug + "." + D.user + ".";
  var RETRY_MS = 20000;
  var CLOCK_REFRESH_MS = 30000;
  var DONE_KEPT = 30;
  var AUTO_TRIES = 3; // server failures of one entry after which only "Sync now" retries it
  var view = { name: "tables" };
  var syncing = false;
  var problem = "";
  // After a change of view, taps are ignored for a moment: the second tap of a double
  // tap ("Save result") would otherwise land on whatever button the new view has under
  // the finger (another table's "Incident"). While data-quiet is set, the page's main
  // part takes no pointer events (app.css), and the buttons' handlers ignore clicks.
  var QUIET_MS = 400;
  var quietUntil = 0;
  var quietTimer = null;

  // ------------------------------------------------------------------ storage
  function load(name, fallback) {
    try {
      var raw = window.localStorage.getItem(KEY + name);
      return raw ? JSON.parse(raw) : fallback;
    } catch (e) {
      return fallback;
    }
  }
  function store(name, value) {
    window.localStorage.setItem(KEY + name, JSON.stringify(value));
  }
  function snapshot() {
    return load("snapshot", null);
  }
  function queue() {
    return load("queue", []);
  }
  function saveQueue(items) {
    store("queue", items);
  }
  function updateItem(id, change) {
    var items = queue();
    items.forEach(function (item) {
      if (item.id === id) change(item);
    });
    saveQueue(items);
  }
  function removeItem(id) {
    saveQueue(
      queue().filter(function (item) {
        return item.id !== id;
      })
    );
  }
  // One line per entry id, whichever tab heard the answer (two tabs of the same account
  // share the queue: both may have sent an entry, the server answering "duplicate" to
  // the second). A "saved" answer replaces a "duplicate" one (it carries the penalty given
  // without "already saved").
  function addDone(entry) {
    var done = load("done", []);
    var i = done.findIndex(function (e) {
      return e.id === entry.id;
    });
    if (i !== -1) {
      if (entry.status === "saved" && done[i].status === "duplicate") done[i] = entry;
      else return;
    } else {
      done.unshift(entry);
    }
    store("done", done.slice(0, DONE_KEPT));
  }
  function newId() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
    // Older browsers: a version-4 UUID from getRandomValues.
    var b = window.crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map
      .call(b, function (x) {
        return (x + 0x100).toString(16).slice(1);
      })
      .join("");
    return [h.slice(0, 8), h.slice(8, 12), h.slice(12, 16), h.slice(16, 20), h.slice(20)].join("-");
  }

  // ------------------------------------------------------------------ DOM helpers
  function fmt(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (m, key) {
      return values[key] === undefined ? m : String(values[key]);
    });
  }
  function el(tag, attrs) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      var value = attrs[name];
      if (value === null || value === undefined || value === false) return;
      if (name === "text") node.textContent = value;
      else if (name === "onclick") node.addEventListener("click", guarded(value));
      else if (name === "oninput") node.addEventListener("input", value);
      else node.setAttribute(name, value === true ? "" : value);
    });
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      if (child === null || child === undefined || child === false) continue;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }
  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }
  // The views' buttons (in #tablet-main) only: the queue's and the decisions' buttons do
  // not move when the view changes.
  function guarded(handler) {
    return function (event) {
      var main = document.getElementById("tablet-main");
      if (Date.now() < quietUntil && main && main.contains(this)) {
        event.preventDefault();
        event.stopPropagation();
        return;
      }
      return handler.call(this, event);
    };
  }
  function button(text, onclick, cls) {
    return el("button", { type: "button", class: cls || "", onclick: onclick, text: text });
  }
  function quiet() {
    quietUntil = Date.now() + QUIET_MS;
    root.dataset.quiet = "1";
    window.clearTimeout(quietTimer);
    quietTimer = window.setTimeout(function () {
      delete root.dataset.quiet;
    }, QUIET_MS);
  }
  // A new view: focus goes to its heading (tabindex -1, so not a tab stop), so that a
  // screen reader says where the judge is and Tab continues from there (WCAG 2.4.3,
  // issue 14); the page itself goes back to the top as before.
  function go(next) {
    view = next;
    quiet();
    render();
    var heading = document.querySelector("#tablet-main h2");
    if (heading) {
      heading.setAttribute("tabindex", "-1");
      heading.focus({ preventScroll: true });
    }
    window.scrollTo(0, 0);
  }

  // Times in the event's time zone (as on the round page), not the browser's.
  function timeZone() {
    var snap = snapshot();
    return (snap && snap.event && snap.event.time_zone) || D.timeZone || undefined;
  }
  function formatTime(date) {
    var options = { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: timeZone() };
    var lang = document.documentElement.lang || undefined;
    try {
      return new Intl.DateTimeFormat(lang, options).format(date);
    } catch (e) {
      // An unknown zone name: the browser's zone rather than nothing.
      delete options.timeZone;
      return new Intl.DateTimeFormat(lang, options).format(date);
    }
  }

  function tableById(id) {
    var snap = snapshot();
    return (snap && snap.tables.find(function (t) {
      return t.id === id;
    })) || null;
  }
  // "Round 1 · Table 5": a table's round is said wherever an entry is shown (the round on
  // the page may have changed since the entry was made).
  function where(t) {
    var table = fmt(S.table, { n: t.number });
    return t.round && t.round.label ? t.round.label + " · " + table : table;
  }
  function isMyl() {
    var snap = snapshot();
    return !!snap && snap.ruleset === "myl";
  }
  // The values of a table entry: VP per seat (VEKN) or games won (Mitos y Leyendas).
  function valuesOf(payload) {
    return payload.games || payload.vp;
  }
  function current(seat) {
    return isMyl() ? seat.games : seat.vp;
  }
  function seatLine(seats, vps) {
    return seats
      .map(function (s, i) {
        var vp = vps ? vps[i] : current(s);
        return s.name + " " + (vp === null || vp === undefined || vp === "" ? "–" : vp);
      })
      .join(", ");
  }
  function isStuck(item) {
    return item.status === "pending" && (item.failures || 0) > 0;
  }
  // Entries the next automatic run sends (a manual one, "Sync now", sends every pending
  // entry, stuck ones included).
  function toSend(item, manual) {
    return item.status === "pending" && (manual || (item.failures || 0) < AUTO_TRIES);
  }
  function queuedResult(tableId) {
    return queue().find(function (item) {
      return item.kind === "result" && item.payload.table === tableId && item.status === "pending";
    });
  }

  // ------------------------------------------------------------------ rendering
  function render() {
    renderStatus();
    renderQueue();
    renderAttention();
    renderAside();
    renderDone();
    renderMain();
  }

  // Whether the server answered the last snapshot request (null: nothing tried yet).
  // The browser's navigator.onLine alone is not enough: a page the service worker served
  // while the network is down may still say "online" (Chromium), so a snapshot that could
  // not be fetched counts as offline until one is.
  var reachable = null;
  var PROBE_MS = 3000;

  function renderStatus() {
    var net = document.getElementById("tablet-net");
    var online = navigator.onLine && reachable !== false;
    net.textContent = online ? S.online : S.offline;
    net.className = "tablet-net " + (online ? "is-online" : "is-offline");
    var snap = snapshot();
    var line = document.getElementById("tablet-snapshot");
    if (!snap) {
      line.textContent = S.no_snapshot;
      return;
    }
    var time = formatTime(new Date(snap.generated_at));
    line.textContent =
      (snap.round ? snap.round.label + " · " : "") +
      fmt(S.snapshot_at, { time: time }) +
      (D.ready === "1" ? " · " + S.offline_ready : "");
  }

  function renderQueue() {
    var pending = queue().filter(function (item) {
      return item.status === "pending";
    });
    var title = document.getElementById("tablet-waiting");
    title.textContent = fmt(S.waiting, { n: pending.length });
    document.getElementById("tablet-queue").dataset.waiting = String(pending.length);
    var list = clear(document.getElementById("tablet-pending"));
    if (!pending.length) list.appendChild(el("li", { class: "muted", text: S.nothing_waiting }));
    pending.forEach(function (item) {
      if (!isStuck(item)) {
        list.appendChild(el("li", { class: "tablet-item", "data-id": item.id, text: item.summary }));
        return;
      }
      // The server failed on it: the entries after it are still sent; the judge may set
      // it aside (kept on the tablet, out of the queue).
      list.appendChild(
        el(
          "li",
          { class: "tablet-item stuck", "data-id": item.id, "data-status": "stuck" },
          el("strong", { text: item.summary }),
          el("p", {}, el("span", { class: "badge err", text: S.stuck }), " " + (item.message || "")),
          el("p", {
            class: "muted",
            text:
              fmt(S.failed_times, { n: item.failures }) +
              (item.failures >= AUTO_TRIES ? " " + S.manual_only : ""),
          }),
          el("div", { class: "actions" }, button(S.set_aside, function () {
            setAside(item);
          }, "secondary"))
        )
      );
    });
    if (problem) list.appendChild(el("li", { class: "msg error", text: problem }));
    var now = document.getElementById("tablet-sync-now");
    now.textContent = syncing ? S.syncing : S.sync_now;
    now.disabled = syncing || !pending.length || !navigator.onLine;
  }

  function renderAttention() {
    var items = queue().filter(function (item) {
      return item.status !== "pending" && item.status !== "aside";
    });
    var box = document.getElementById("tablet-attention");
    box.hidden = !items.length;
    document.getElementById("tablet-attention-title").textContent = fmt(S.attention, {
      n: items.length,
    });
    var list = clear(document.getElementById("tablet-attention-list"));
    items.forEach(function (item) {
      var li = el("li", { class: "tablet-item attention", "data-id": item.id, "data-status": item.status });
      if (item.status === "conflict" && item.theirs) {
        var label = item.theirs.round ? where(item.theirs) : item.where || item.theirs.label;
        li.appendChild(el("strong", { text: fmt(S.conflict_title, { table: label }) }));
        li.appendChild(el("p", { class: "muted", text: item.message }));
        var snap = snapshot();
        if (item.theirs.round && snap && snap.round && item.theirs.round.label !== snap.round.label) {
          // A table of an earlier round: "Replace" sends the values to that table (by its
          // id), never to the table of the same number in the round now on the page.
          li.appendChild(
            el("p", { class: "msg warning tablet-earlier", text: fmt(S.earlier_round, { round: item.theirs.round.label }) })
          );
        }
        li.appendChild(el("p", {}, el("span", { class: "badge ok", text: S.theirs }), " " + seatLine(item.theirs.seats)));
        li.appendChild(
          el("p", {}, el("span", { class: "badge warn", text: S.yours }), " " + seatLine(item.theirs.seats, valuesOf(item.payload)))
        );
        li.appendChild(
          el(
            "div",
            { class: "actions" },
            button(S.keep_theirs, function () {
              drop(item, S.keep_theirs);
            }, "secondary"),
            button(S.send_mine, function () {
              sendMineAgain(item);
            })
          )
        );
      } else {
        li.appendChild(el("strong", { text: item.summary }));
        li.appendChild(el("p", {}, el("span", { class: "badge err", text: S.rejected }), " " + (item.message || "")));
        li.appendChild(
          el("div", { class: "actions" }, button(S.discard, function () {
            if (window.confirm(S.confirm_discard)) drop(item, S.discard);
          }, "secondary"))
        );
      }
      list.appendChild(li);
    });
  }

  // Entries the judge set aside: kept on the tablet, never sent until "Send again".
  function renderAside() {
    var items = queue().filter(function (item) {
      return item.status === "aside";
    });
    var box = document.getElementById("tablet-aside");
    box.hidden = !items.length;
    document.getElementById("tablet-aside-title").textContent = fmt(S.aside_title, { n: items.length });
    var list = clear(document.getElementById("tablet-aside-list"));
    items.forEach(function (item) {
      var when = item.aside_at ? fmt(S.set_aside_at, { time: formatTime(new Date(item.aside_at)) }) : "";
      list.appendChild(
        el(
          "li",
          { class: "tablet-item aside", "data-id": item.id, "data-status": "aside" },
          el("strong", { text: item.summary }),
          item.message ? el("p", {}, el("span", { class: "badge err", text: S.stuck }), " " + item.message) : null,
          el("p", { class: "muted", text: [when, fmt(S.failed_times, { n: item.failures || 0 })].filter(Boolean).join(" · ") }),
          el(
            "div",
            { class: "actions" },
            button(S.send_again, function () {
              sendAgain(item);
            }),
            button(S.discard, function () {
              if (window.confirm(S.confirm_drop_aside)) drop(item, S.discard);
            }, "secondary")
          )
        )
      );
    });
  }

  function renderDone() {
    var done = load("done", []);
    document.getElementById("tablet-done-box").hidden = !done.length;
    var list = clear(document.getElementById("tablet-done"));
    done.forEach(function (entry) {
      list.appendChild(
        el(
          "li",
          { class: "tablet-item done", "data-id": entry.id, "data-status": entry.status },
          el("strong", { text: entry.summary }),
          el("span", { class: "muted", text: " — " + entry.message })
        )
      );
    });
  }

  function renderMain() {
    var main = clear(document.getElementById("tablet-main"));
    var snap = snapshot();
    if (!snap) return;
    if (!snap.round) {
      main.appendChild(el("p", { class: "muted", text: S.no_round }));
      return;
    }
    var views = {
      tables: viewTables,
      who: viewWho,
      infraction: viewInfraction,
      questions: viewQuestions,
      result: viewResult,
    };
    (views[view.name] || viewTables)(main, snap);
    if (window.ArbitroClock) window.ArbitroClock.tick();
  }

  // One countdown of static/js/clock.js (the markup of templates/events/_clock.html).
  function clockEl(c, label, big) {
    if (!c || c.state === "not_started") return null;
    var attrs = { class: "clock" + (big ? " clock-big" : ""), "data-clock": true, "data-state": c.state };
    if (c.end !== null && c.end !== undefined) attrs["data-end"] = String(c.end);
    if (c.state === "paused" && c.left !== null && c.left !== undefined) attrs["data-left"] = String(c.left);
    return el(
      "span",
      attrs,
      label ? el("span", { class: "clock-label", text: label }) : null,
      label ? " " : null,
      el("span", { class: "clock-time", "data-clock-time": true }),
      c.extension_minutes ? el("span", { class: "clock-extra", text: "+" + c.extension_minutes + " min" }) : null,
      " ",
      el("span", { class: "clock-note", "data-clock-note": "paused", hidden: c.state !== "paused", text: S.paused }),
      el("span", { class: "clock-note", "data-clock-note": "over", hidden: c.state !== "over", text: S.time_up })
    );
  }

  function viewTables(main, snap) {
    main.setAttribute("data-clock-now", String(snap.server_now || ""));
    main.setAttribute("data-clock-offset", String(snap.clock_offset || 0));
    var roundClock = clockEl(snap.round.clock, S.time_left, true);
    if (roundClock) main.appendChild(el("p", { class: "tablet-clock", id: "tablet-round-clock" }, roundClock));
    main.appendChild(el("h2", { text: S.tables }));
    var grid = el("div", { class: "tablet-tables" });
    snap.tables.forEach(function (t) {
      var queued = queuedResult(t.id);
      var card = el(
        "article",
        { class: "table-card tablet-table", "data-table": t.number },
        el(
          "h3",
          {},
          fmt(S.table, { n: t.number }),
          queued ? el("span", { class: "badge warn", text: S.result_queued }) : null,
          t.bye ? el("span", { class: "badge", text: S.bye }) : null
        )
      );
      var tableClock = clockEl(t.clock, "", false);
      if (tableClock) card.appendChild(el("p", { class: "tablet-table-clock" }, tableClock));
      var ol = el("ol", { class: "tablet-seats" });
      t.seats.forEach(function (s, i) {
        var vp = queued ? valuesOf(queued.payload)[i] : current(s);
        ol.appendChild(
          el(
            "li",
            {},
            s.name,
            vp !== null && vp !== undefined && vp !== "" ? el("strong", { text: " " + vp }) : null,
            s.loss ? el("span", { class: "badge err", text: S.loss }) : null
          )
        );
      });
      card.appendChild(ol);
      var actions = el("div", { class: "actions tablet-actions" });
      if (snap.can_log) {
        actions.appendChild(
          button(S.incident, function () {
            go({ name: "who", table: t.id });
          }, "secondary")
        );
      }
      if (snap.can_enter && !t.bye) {
        actions.appendChild(
          button(S.enter_result, function () {
            go({ name: "result", table: t.id });
          })
        );
      }
      card.appendChild(actions);
      grid.appendChild(card);
    });
    main.appendChild(grid);
    if (snap.can_log && snap.others.length) {
      main.appendChild(
        el(
          "div",
          { class: "actions" },
          button(S.others, function () {
            go({ name: "who", table: null });
          }, "secondary")
        )
      );
    }
  }

  function backButton(target) {
    return button("← " + S.back, function () {
      go(target || { name: "tables" });
    }, "secondary tablet-back");
  }

  function viewWho(main, snap) {
    main.appendChild(backButton());
    var table = view.table ? tableById(view.table) : null;
    main.appendChild(el("h2", { text: (table ? fmt(S.table, { n: table.number }) + " · " : "") + S.who }));
    var people = table
      ? table.seats.map(function (s) {
          return { registration: s.registration, name: s.name, position: s.position };
        })
      : snap.others;
    var list = el("div", { class: "tablet-choices" });
    people.forEach(function (p) {
      list.appendChild(
        button(
          (p.position ? p.position + ". " : "") + p.name,
          function () {
            go({ name: "infraction", table: view.table, registration: p.registration, person: p.name, q: "" });
          },
          "choice"
        )
      );
    });
    main.appendChild(list);
  }

  function infractionButton(inf) {
    return el(
      "button",
      {
        type: "button",
        class: "choice infraction",
        "data-code": inf.code,
        onclick: function () {
          go({
            name: "questions",
            table: view.table,
            registration: view.registration,
            person: view.person,
            code: inf.code,
            answers: {},
          });
        },
      },
      el("strong", { text: inf.code }),
      " " + inf.name,
      el("span", { class: "muted", text: " · " + inf.baseline_label })
    );
  }

  function viewInfraction(main, snap) {
    main.appendChild(backButton({ name: "who", table: view.table }));
    main.appendChild(el("h2", { text: view.person }));
    var list = el("div", { class: "tablet-choices" });
    function fill() {
      clear(list);
      var q = (view.q || "").trim().toLowerCase();
      var items = snap.infractions.filter(function (inf) {
        return !q || inf.code.indexOf(q) === 0 || inf.name.toLowerCase().indexOf(q) !== -1;
      });
      var common = items.filter(function (inf) {
        return inf.common;
      });
      // No "Common infractions" heading over nothing (Mitos y Leyendas has none).
      if (!q && common.length) {
        list.appendChild(el("h3", { text: S.common }));
        common.forEach(function (inf) {
          list.appendChild(infractionButton(inf));
        });
        list.appendChild(el("h3", { text: S.all_infractions }));
      }
      items.forEach(function (inf) {
        if (q || !inf.common) list.appendChild(infractionButton(inf));
      });
    }
    main.appendChild(
      el("input", {
        type: "search",
        class: "tablet-search",
        "aria-label": S.search,
        placeholder: S.search,
        value: view.q || "",
        oninput: function (event) {
          view.q = event.target.value;
          fill();
        },
      })
    );
    fill();
    main.appendChild(list);
  }

  function viewQuestions(main, snap) {
    var inf = snap.infractions.find(function (i) {
      return i.code === view.code;
    });
    main.appendChild(
      backButton({ name: "infraction", table: view.table, registration: view.registration, person: view.person, q: "" })
    );
    main.appendChild(el("h2", { text: view.person + " · " + inf.code + " " + inf.name }));
    main.appendChild(el("p", { class: "muted", text: fmt(S.baseline, { level: inf.baseline_label }) }));
    inf.conditions.forEach(function (c) {
      var set = el(
        "fieldset",
        { class: "card question", "data-condition": c.name },
        el("legend", {}, c.question, c.required ? null : el("span", { class: "muted", text: " (" + S.optional + ")" }))
      );
      var row = el("div", { class: "actions tablet-yesno" });
      [
        [true, S.yes],
        [false, S.no],
      ].forEach(function (pair) {
        row.appendChild(
          el("button", {
            type: "button",
            class: "choice" + (view.answers[c.name] === pair[0] ? " chosen" : ""),
            "aria-pressed": view.answers[c.name] === pair[0] ? "true" : "false",
            text: pair[1],
            onclick: function () {
              view.answers[c.name] = pair[0];
              render();
            },
          })
        );
      });
      set.appendChild(row);
      main.appendChild(set);
    });
    var note = el("textarea", { class: "tablet-note", rows: "3", maxlength: D.textMax || "5000", "aria-label": S.note, placeholder: S.note });
    note.value = view.description || "";
    note.addEventListener("input", function () {
      view.description = note.value;
    });
    main.appendChild(note);
    var missing = inf.conditions.some(function (c) {
      return c.required && view.answers[c.name] === undefined;
    });
    if (missing) main.appendChild(el("p", { class: "muted", text: S.answer_all }));
    var submit = button(S.queue_incident, function () {
      var at = view.table ? tableById(view.table) : null;
      enqueue({
        kind: "incident",
        where: at ? where(at) : "",
        summary: fmt(S.incident_summary, {
          name: (at ? where(at) + " · " : "") + view.person,
          code: inf.code + " " + inf.name,
        }),
        payload: {
          registration: view.registration,
          table: view.table,
          code: inf.code,
          answers: view.answers,
          description: view.description || "",
        },
      });
      go({ name: "tables" });
    }, "big");
    submit.disabled = missing;
    main.appendChild(el("div", { class: "actions" }, submit));
  }

  function viewResult(main) {
    var t = tableById(view.table);
    main.appendChild(backButton());
    main.appendChild(el("h2", { text: fmt(S.table, { n: t.number }) }));
    var queued = queuedResult(t.id);
    var inputs = [];
    var myl = isMyl();
    var total = el("p", { class: "tablet-total", hidden: myl });
    function sum() {
      var n = 0;
      inputs.forEach(function (input) {
        var v = parseFloat(input.value.replace(",", "."));
        if (!isNaN(v)) n += v;
      });
      total.textContent = fmt(S.total, { n: n });
    }
    var form = el("div", { class: "tablet-result" });
    if (myl) {
      // What the boxes are for: the games each player won, out of a best-of-N match.
      var snap = snapshot();
      var bestOf = snap && snap.best_of;
      if (bestOf) {
        main.appendChild(
          el("p", { class: "muted tablet-best-of", text: fmt(S.best_of_hint, { b: bestOf, n: winsNeeded(bestOf) }) })
        );
      }
      form.appendChild(
        el("div", { class: "tablet-vp-row tablet-vp-head", "aria-hidden": "true" }, el("span"), el("span", { text: S.games_won }))
      );
    }
    t.seats.forEach(function (s, i) {
      var id = "tablet-vp-" + s.position;
      var input = el("input", {
        id: id,
        type: "text",
        inputmode: myl ? "numeric" : "decimal",
        autocomplete: "off",
        class: "tablet-vp",
        "aria-label": fmt(myl ? S.games_label : S.vp_label, { name: s.name }),
        oninput: sum,
      });
      var value = queued ? valuesOf(queued.payload)[i] : current(s);
      input.value = s.loss ? "0" : value === null || value === undefined ? "" : String(value);
      input.disabled = s.loss;
      inputs.push(input);
      form.appendChild(
        el(
          "div",
          { class: "tablet-vp-row" },
          el("label", { for: id }, el("span", { class: "muted", text: s.position + ". " }), s.name,
            s.loss ? el("span", { class: "badge err", text: S.loss }) : null),
          input
        )
      );
    });
    main.appendChild(form);
    main.appendChild(total);
    var error = el("p", { id: "tablet-result-error", class: "msg error", role: "alert", hidden: true });
    main.appendChild(error);
    sum();
    main.appendChild(
      el(
        "div",
        { class: "actions" },
        button(S.queue_result, function () {
          var vps = inputs.map(function (input) {
            var v = input.value.trim().replace(",", ".");
            return v === "" ? null : v;
          });
          // What can be checked without the server is checked before queuing: an
          // impossible sheet is said here, while the players are still at the table.
          var problem = checkResult(t, vps);
          inputs.forEach(function (input, i) {
            if (problem && problem.seats.indexOf(i) !== -1) input.setAttribute("aria-invalid", "true");
            else input.removeAttribute("aria-invalid");
          });
          error.textContent = problem ? problem.message : "";
          error.hidden = !problem;
          if (problem) return;
          if (queueResult(t, vps)) go({ name: "tables" });
        }, "big")
      )
    );
  }

  // ------------------------------------------------------------------ checks
  // The tablet's own check of a result, before it is queued: what needs no server. The
  // server checks again when the entry arrives (it is the authority: a judge's irregular
  // sheet, a locked round). Returns null, or {message, seats: [indexes to mark]}.
  function checkResult(t, values) {
    return isMyl() ? checkGames(values) : checkVp(t, values);
  }

  function winsNeeded(bestOf) {
    return Math.floor(bestOf / 2) + 1;
  }

  function checkGames(values) {
    var snap = snapshot();
    var bestOf = (snap && snap.best_of) || 3;
    var need = winsNeeded(bestOf);
    var games = [];
    for (var i = 0; i < values.length; i++) {
      var v = values[i];
      if (v === null) {
        games.push(null);
        continue;
      }
      if (!/^\d{1,2}$/.test(v)) return { message: fmt(S.games_nan, { v: v.slice(0, 10) }), seats: [i] };
      games.push(parseInt(v, 10));
    }
    if (games.length !== 2) return null;
    var a = games[0];
    var b = games[1];
    if (a === null && b === null) return null;
    if (a === null || b === null) return { message: S.games_both, seats: [a === null ? 0 : 1] };
    var out = [];
    if (a > need) out.push(0);
    if (b > need) out.push(1);
    if (out.length) return { message: fmt(S.games_range, { b: bestOf, n: need }), seats: out };
    if (a === need && b === need) return { message: fmt(S.games_max, { n: need }), seats: [0, 1] };
    if (snap && snap.round && snap.round.is_top_cut && a === b) return { message: S.games_draw, seats: [0, 1] };
    return null;
  }

  // VEKN: the seats playing (a "Loss" seat scores 0 and is left out, as on the server);
  // each 0..seats in steps of 0.5; the VP rounded up per seat add up to at most the seat
  // count; a complete sheet (all entered, adding up to the seat count) of 4 or 5 seats is
  // one of the legal sheets the snapshot carries.
  function checkVp(t, values) {
    var playing = [];
    t.seats.forEach(function (s, i) {
      if (!s.loss) playing.push(i);
    });
    var n = playing.length;
    var vps = [];
    for (var k = 0; k < playing.length; k++) {
      var i = playing[k];
      var raw = values[i];
      if (raw === null) {
        vps.push(null);
        continue;
      }
      var v = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN;
      if (isNaN(v) || v > n || (v * 2) % 1 !== 0) {
        return { message: t.seats[i].name + ": " + fmt(S.vp_range, { n: n }), seats: [i] };
      }
      vps.push(v);
    }
    var entered = vps.filter(function (v) {
      return v !== null;
    });
    var accounted = entered.reduce(function (total, v) {
      return total + Math.ceil(v);
    }, 0);
    if (accounted > n) return { message: fmt(S.vp_total, { n: n }), seats: playing };
    var snap = snapshot();
    var legal = snap && snap.legal_sheets && snap.legal_sheets[String(n)];
    if (legal && entered.length === n && accounted === n) {
      var sheet = vps.map(String).join(",");
      if (legal.indexOf(sheet) === -1) {
        return { message: S.vp_illegal + " " + S.vp_irregular, seats: playing };
      }
    }
    return null;
  }

  // ------------------------------------------------------------------ queue
  function enqueue(entry) {
    var items = queue();
    items.push({
      id: newId(),
      kind: entry.kind,
      summary: entry.summary,
      where: entry.where || "",
      payload: entry.payload,
      status: "pending",
      attempts: 0,
      created: new Date().toISOString(),
    });
    saveQueue(items);
    syncSoon();
  }

  function queueResult(t, vps) {
    var summary = fmt(S.result_summary, {
      table: where(t),
      vp: vps
        .map(function (v) {
          return v === null ? "–" : v;
        })
        .join(", "),
    });
    var items = queue();
    var earlier = items.find(function (item) {
      return item.kind === "result" && item.payload.table === t.id && item.status === "pending";
    });
    var aside = items.find(function (item) {
      return item.kind === "result" && item.payload.table === t.id && item.status === "aside";
    });
    if (aside || (earlier && isStuck(earlier))) {
      // A result of this table is stuck or set aside: the judge decides about it first
      // (send it again, or drop it), rather than two results of one table on the tablet.
      window.alert(S.result_stuck);
      return false;
    }
    if (earlier && earlier.attempts > 0) {
      // It may have reached the server already: a second entry on the same version would
      // be a conflict with ourselves. Wait for its answer.
      window.alert(S.result_pending_sent);
      return false;
    }
    if (earlier) {
      // Never sent: replaced by the new values (a new id, the same table version).
      earlier.id = newId();
      earlier.payload[isMyl() ? "games" : "vp"] = vps;
      earlier.summary = summary;
      saveQueue(items);
      syncSoon();
      return true;
    }
    var payload = { table: t.id, version: t.version };
    payload[isMyl() ? "games" : "vp"] = vps;
    enqueue({ kind: "result", summary: summary, where: where(t), payload: payload });
    return true;
  }

  function drop(item, how) {
    removeItem(item.id);
    addDone({ id: item.id, summary: item.summary, message: how, status: "dropped" });
    render();
  }

  function setAside(item) {
    updateItem(item.id, function (it) {
      it.status = "aside";
      it.aside_at = new Date().toISOString();
    });
    render();
  }

  function sendAgain(item) {
    // The same entry (the same id: if the server saved it after all, it answers
    // "already saved"), back in the queue, sent now.
    updateItem(item.id, function (it) {
      it.status = "pending";
      it.failures = 0;
      it.aside_at = null;
    });
    render();
    syncAll(true);
  }

  function sendMineAgain(item) {
    // The judge decided: the same values, entered again on the version saved now.
    updateItem(item.id, function (it) {
      it.id = newId();
      it.payload.version = item.theirs.version;
      it.status = "pending";
      it.attempts = 0;
      it.failures = 0;
      it.message = "";
      it.theirs = null;
    });
    render();
    syncAll();
  }

  function replaceTable(table) {
    var snap = snapshot();
    if (!snap || !table) return;
    snap.tables = snap.tables.map(function (t) {
      if (t.id !== table.id) return t;
      if (!table.clock) table.clock = t.clock; // a conflict's answer carries no clock
      return table;
    });
    store("snapshot", snap);
  }

  // ------------------------------------------------------------------ network
  function csrf() {
    var snap = snapshot();
    return (snap && snap.csrf) || D.csrf;
  }

  function refreshSnapshot() {
    if (!navigator.onLine) return Promise.resolve(false);
    return fetch(D.dataUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        reachable = true;
        var type = response.headers.get("Content-Type") || "";
        if (!response.ok || type.indexOf("application/json") === -1) {
          if (response.redirected) problem = S.sign_in;
          return false;
        }
        return response.json().then(function (data) {
          // ms to add to this device's clock to get the server's (static/js/clock.js)
          data.clock_offset = typeof data.server_now === "number" ? data.server_now - Date.now() : 0;
          store("snapshot", data);
          problem = "";
          return true;
        });
      })
      .catch(function () {
        reachable = false;
        return false;
      })
      .then(function (ok) {
        render();
        return ok;
      });
  }

  // Sends one entry; resolves true when the next entry may be sent (the server answered
  // this one, whatever the answer, or failed on this one only), false when sending should
  // stop for now (no network, session ended, the server unreachable).
  function send(item, retried) {
    updateItem(item.id, function (it) {
      it.attempts += 1;
    });
    // An incident carries when the judge logged it (the server records that time, if the
    // tablet's clock is plausible, rather than the time it arrived).
    var head = { id: item.id, kind: item.kind };
    if (item.kind === "incident") head.logged_at = item.created;
    var body = JSON.stringify(Object.assign(head, item.payload));
    return fetch(D.syncUrl, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf() },
      body: body,
    })
      .then(function (response) {
        reachable = true;
        var type = response.headers.get("Content-Type") || "";
        if (type.indexOf("application/json") === -1) {
          if (response.redirected) {
            problem = S.sign_in;
            return false;
          }
          if (response.status === 403 && !retried) {
            // An out-of-date CSRF token (signed in again since): take a fresh one, retry.
            return refreshSnapshot().then(function (ok) {
              return ok ? send(item, true) : false;
            });
          }
          if (response.status === 500) {
            // The server's own error page: it failed on this entry; go on with the next.
            failed(item, S.server_error_entry);
            return true;
          }
          // 502, 503, 504…: the server is not there; everything waits.
          problem = S.server_error;
          return false;
        }
        return response.json().then(function (answer) {
          apply(item, answer);
          return true;
        });
      })
      .catch(function () {
        // Not marked unreachable: an answer lost on the way back is retried as before
        // (the next round of retries, or "Sync now"), not at once by the probe below.
        return false;
      });
  }

  // The server failed on this entry (nothing of it saved): it stays in the queue, stuck.
  function failed(item, message) {
    problem = "";
    updateItem(item.id, function (it) {
      it.failures = (it.failures || 0) + 1;
      it.message = message;
    });
  }

  function apply(item, answer) {
    if (answer.status === "error") {
      failed(item, answer.message || S.server_error_entry);
      return;
    }
    problem = "";
    if (answer.table) replaceTable(answer.table);
    if (answer.status === "saved" || answer.status === "duplicate") {
      removeItem(item.id);
      addDone({ id: item.id, summary: item.summary, message: answer.message, status: answer.status });
      return;
    }
    if (answer.status === "conflict" && answer.table && sameValues(item, answer.table)) {
      // Someone else saved exactly what the judge entered: nothing to decide.
      removeItem(item.id);
      addDone({
        id: item.id,
        summary: item.summary,
        message: S.same_values,
        status: "duplicate",
      });
      return;
    }
    updateItem(item.id, function (it) {
      it.status = answer.status;
      it.message = answer.message;
      it.theirs = answer.table || null;
    });
  }

  // The values of a result entry and those of the table now, seat by seat ("1.50" and
  // "1.5", "2" and 2 are the same; an empty box and an empty seat too).
  function sameValues(item, table) {
    var mine = valuesOf(item.payload) || [];
    var seats = table.seats || [];
    if (mine.length !== seats.length) return false;
    function norm(v) {
      if (v === null || v === undefined || v === "") return null;
      var n = Number(String(v).replace(",", "."));
      return isNaN(n) ? String(v) : n;
    }
    return seats.every(function (s, i) {
      var theirs = item.payload.games ? s.games : s.vp;
      if (s.loss) return true; // a "Loss" seat is 0 whatever is sent
      return norm(mine[i]) === norm(theirs);
    });
  }

  // Two tabs of the same account share the queue: one sends at a time (a Web Lock, where
  // the browser has them; the other tab skips its turn and shows what the first one
  // stores), and each entry is re-read from the queue just before it is sent.
  function syncAll(manual) {
    if (syncing) return Promise.resolve();
    if (!navigator.onLine) {
      render();
      return Promise.resolve();
    }
    if (navigator.locks && navigator.locks.request) {
      syncing = true;
      return navigator.locks
        .request(KEY + "sync", { ifAvailable: true }, function (lock) {
          syncing = false;
          if (!lock) {
            // Another tab is sending: what it stores shows here (the storage event); a
            // look once it is done, for anything queued here meanwhile.
            render();
            if (queue().some(function (it) { return toSend(it, false); })) {
              window.setTimeout(syncSoon, 1500);
            }
            return null;
          }
          return sendAll(manual);
        })
        .catch(function () {
          syncing = false;
          render();
        });
    }
    return sendAll(manual);
  }

  function sendAll(manual) {
    if (syncing) return Promise.resolve();
    var pending = queue().filter(function (item) {
      return toSend(item, manual);
    });
    syncing = true;
    renderQueue();
    var chain = Promise.resolve(true);
    pending.forEach(function (item) {
      chain = chain.then(function (go_on) {
        if (!go_on) return false;
        var current = queue().find(function (it) {
          return it.id === item.id && it.status === "pending";
        });
        return current ? send(current) : true;
      });
    });
    return chain.then(function (all) {
      syncing = false;
      render();
      if (all && pending.length) return refreshSnapshot();
    });
  }

  var soon = null;
  function syncSoon() {
    render();
    if (soon) return;
    soon = window.setTimeout(function () {
      soon = null;
      syncAll();
    }, 50);
  }

  // ------------------------------------------------------------------ start
  document.getElementById("tablet-sync-now").addEventListener("click", function () {
    syncAll(true);
  });
  window.addEventListener("online", function () {
    render();
    refreshSnapshot().then(syncAll);
  });
  window.addEventListener("offline", render);
  window.addEventListener("storage", function (event) {
    if (event.key && event.key.indexOf(KEY) === 0) render();
  });
  window.setInterval(function () {
    if (queue().some(function (item) { return toSend(item, false); })) syncAll();
  }, RETRY_MS);
  // The clock's pauses, resumes and extensions: a fresh snapshot every 30 s, only while
  // the tables are shown (a new render would lose what the judge is typing elsewhere).
  window.setInterval(function () {
    if (view.name === "tables" && navigator.onLine && !syncing) refreshSnapshot();
  }, CLOCK_REFRESH_MS);
  // While the server could not be reached but the browser says it is online (it may say
  // so all along, see `reachable`), ask again every few seconds; once it answers, do what
  // the "online" event does.
  window.setInterval(function () {
    if (reachable !== false || !navigator.onLine) return;
    refreshSnapshot().then(function (ok) {
      if (ok) syncAll();
    });
  }, PROBE_MS);

  render();
  var ready = [refreshSnapshot()];
  if ("serviceWorker" in navigator) {
    ready.push(
      navigator.serviceWorker
        .register(D.workerUrl)
        .then(function () {
          return navigator.serviceWorker.ready;
        })
        .catch(function () {
          return null;
        })
    );
  }
  Promise.all(ready).then(function (results) {
    if (snapshot() && results[1]) D.ready = "1";
    render();
    syncAll();
  });
})();
