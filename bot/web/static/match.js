// The match page: step through the plies in place (buttons, arrow keys, a swipe, the
// move list), deadlines in the reader's time zone, and new moves live (server-sent events).
"use strict";
(function () {
  var match, ply, last, base, lang;

  function read() {
    match = document.getElementById("match");
    if (!match) { return false; }
    ply = parseInt(match.dataset.ply, 10);
    last = parseInt(match.dataset.last, 10);
    base = match.dataset.base;
    lang = match.dataset.lang;
    return true;
  }

  function href(target) {
    return match.dataset.page + "?ply=" + target + "&lang=" + encodeURIComponent(lang);
  }

  function show(target, focusBoard) {
    target = Math.max(0, Math.min(last, target));
    ply = target;
    match.dataset.ply = String(target);
    var img = document.getElementById("board");
    var link = document.querySelector('#moves a[data-ply="' + target + '"]');
    img.src = base + "/board/" + target + ".png?lang=" + encodeURIComponent(lang) + "&seat=" + match.dataset.seat;
    img.alt = link ? link.dataset.alt : match.dataset.startAlt;
    stood(link ? link.dataset : { turn: match.dataset.startTurn, out: match.dataset.startOut,
      aside: match.dataset.startAside }, target === last, img.alt);
    var stepped = document.getElementById("stepped");  // where it is, in moves
    if (stepped) { stepped.textContent = link ? link.dataset.said : match.dataset.startSaid; }
    document.querySelectorAll("#moves a").forEach(function (a) {
      if (a === link) { a.setAttribute("aria-current", "step"); } else { a.removeAttribute("aria-current"); }
    });
    if (link) { link.scrollIntoView({ block: "nearest" }); }
    var steps = { first: 0, back: target - 1, next: target + 1, last: last };
    document.querySelectorAll(".step").forEach(function (a) {
      a.href = href(Math.max(0, Math.min(last, steps[a.dataset.step])));
    });
    history.replaceState(null, "", href(target));
    // the language switch keeps the ply stepped to (at the latest: it follows the match)
    document.querySelectorAll(".languages a[hreflang]").forEach(function (a) {
      a.href = match.dataset.page + "?" + (target === last ? "" : "ply=" + target + "&") +
        "lang=" + encodeURIComponent(a.getAttribute("hreflang"));
    });
    if (held && target !== last) { held.cancel(); }  // stepped away: nothing is asked
    var taps = document.getElementById("taps");
    if (taps) { taps.hidden = target !== last; }  // moves are tapped on the latest position
    // and listed for it: stepped back, the word that they are played there instead
    var moves = document.getElementById("play-moves");
    if (moves) { moves.hidden = target !== last; }
    var earlier = document.getElementById("earlier");
    if (earlier) { earlier.hidden = target === last; }
  }

  // The players as they stood at the ply shown (the facts the server wrote on its link:
  // seats to move, out, named after a timeout), its board's words as the status line, and
  // how the match ended and today's deadline at the latest ply only.
  function stood(facts, atLast, words) {
    function seats(text) { return (text || "").split(" ").filter(Boolean); }
    var turn = seats(facts.turn), out = seats(facts.out), aside = seats(facts.aside);
    document.querySelectorAll(".players li[data-seat]").forEach(function (li) {
      var seat = li.dataset.seat;
      var box = li.querySelector(".stood");
      if (box) {
        box.textContent = "";
        if (turn.indexOf(seat) >= 0) {
          var strong = document.createElement("strong");
          strong.className = "turn";
          strong.textContent = match.dataset.turnWord;
          box.appendChild(strong);
        }
        if (out.indexOf(seat) >= 0) { box.appendChild(document.createTextNode(match.dataset.outWord)); }
      }
      var due = li.querySelector(".due");
      if (due) { due.hidden = !atLast; }
      var name = li.querySelector(".name");
      if (name && li.dataset.aside) {
        name.textContent = aside.indexOf(seat) >= 0 ? li.dataset.aside : li.dataset.name;
      }
    });
    var status = document.getElementById("status");
    if (status) { status.textContent = words; }
    var result = document.getElementById("result");
    if (result) { result.hidden = !atLast; }
    var offer = document.getElementById("offer");  // a draw offer is today's
    if (offer) { offer.hidden = !atLast; }
  }

  function localTimes() {
    document.querySelectorAll("time.deadline").forEach(function (t) {
      var when = new Date(t.getAttribute("datetime"));
      if (isNaN(when.getTime())) { return; }
      try {
        // (dateStyle and timeStyle cannot be combined with timeZoneName: the browser
        // throws, so the parts are named one by one)
        var how = { year: "numeric", month: "short", day: "numeric", hour: "2-digit",
          minute: "2-digit", timeZoneName: "short" };
        // Chinese pages on the 24-hour clock: Traditional Chinese's 12-hour one writes
        // 上午/下午, and 午 is not in the font served with the page (its characters are the
        // catalogue's), so a reader without a Chinese font saw an empty box
        if (/^zh/i.test(lang)) { how.hour12 = false; }
        t.textContent = when.toLocaleString(lang, how);
        t.title = t.getAttribute("datetime");
      } catch (e) { /* keep the UTC text */ }
    });
  }

  // The points to tap are one stop of the keyboard's Tab, not one each (a roving
  // tabindex, the toolbar pattern): the arrow keys move to the nearest point that way,
  // Home and End to the first and the last (top to bottom, left to right), Enter or Space
  // taps it (each is a button). Only points that can be tapped now are visited. Returns
  // what puts the stop back on such a point after the spots changed.
  function rove(layer, label) {
    layer.setAttribute("role", "toolbar");
    layer.setAttribute("aria-label", label || "");
    function at(b) { return [parseFloat(b.style.left), parseFloat(b.style.top)]; }
    function open() {
      return Array.prototype.filter.call(layer.querySelectorAll(".spot"), function (b) {
        return !b.disabled;
      }).sort(function (a, b) { return at(a)[1] - at(b)[1] || at(a)[0] - at(b)[0]; });
    }
    function stop(to) {
      layer.querySelectorAll(".spot").forEach(function (b) { b.tabIndex = b === to ? 0 : -1; });
    }
    layer.addEventListener("focusin", function (ev) {
      if (ev.target.classList.contains("spot")) { stop(ev.target); }
    });
    var ways = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    layer.addEventListener("keydown", function (ev) {
      var from = ev.target;
      if (ev.altKey || ev.ctrlKey || ev.metaKey || !from.classList.contains("spot")) { return; }
      var spots = open(), to = null;
      if (ev.key === "Home" || ev.key === "End") {
        to = spots[ev.key === "Home" ? 0 : spots.length - 1] || null;
      } else if (ways[ev.key]) {
        var way = ways[ev.key], here = at(from), best = Infinity;
        spots.forEach(function (b) {
          var there = at(b), dx = there[0] - here[0], dy = there[1] - here[1];
          var along = dx * way[0] + dy * way[1];  // how far that way, and how far off it
          var off = Math.abs(dx * way[1]) + Math.abs(dy * way[0]);
          if (b !== from && along > 0.5 && along + 2 * off < best) { best = along + 2 * off; to = b; }
        });
      } else {
        return;
      }
      ev.preventDefault();
      ev.stopPropagation();  // (not the board's own steps through the plies)
      if (to) { stop(to); to.focus(); }
    });
    return function () {
      var current = layer.querySelector('.spot[tabindex="0"]');
      if (!current || current.disabled) { stop(open()[0] || null); }
    };
  }

  // Playing by tapping the board picture: the spots of the player's legal moves (the
  // form's data-taps: canonical, display, the points tapped) laid over the picture where
  // the renderer drew those points (data-spots, in percent). Tap a piece, then where it
  // goes; when taps fit several moves, choose among them; a move is played by the form,
  // once the player confirmed it (a thumb's slip in correspondence play is a move only
  // the opponent can let him take back): the bar "Play e3-e5?" with Confirm and Cancel,
  // unless he switched that off for his browser.
  var tapped = [];
  // the move tapped and waiting for Confirm: how to confirm and cancel it (the keys too)
  var held = null;
  var CONFIRM_KEY = "tablero.confirmMoves";

  function confirming() {
    try { return localStorage.getItem(CONFIRM_KEY) !== "off"; } catch (e) { return true; }
  }
  // a set-up half tapped, kept when the page is refreshed by a change (the opponent
  // handing in his arrangement, a draw offer): by cell, the number it was given
  var setupPlaced = {};

  // ``kept``: the move that was waiting for Confirm when the page was drawn again (a draw
  // offered, the opponent handing in his arrangement) at the same position: asked again
  function tapBoard(kept) {
    var form = document.getElementById("play-moves");
    var frame = document.getElementById("frame");
    tapped = [];
    held = null;  // a page without the player's moves has nothing waiting to be sent
    if (!form || !frame || !form.dataset.taps) { return; }
    var moves = JSON.parse(form.dataset.taps);
    var spots = JSON.parse(form.dataset.spots);
    var labels = JSON.parse(form.dataset.labels || "{}");  // 'c3, chariot (Red)'
    var size = parseFloat(form.dataset.spotSize);
    var choose = document.getElementById("choose");
    var settle = null;
    var layer = document.createElement("div");
    layer.className = "taps";
    layer.id = "taps";
    var buttons = {};
    tapped = [];
    held = null;
    var bar = document.getElementById("confirm");
    var yes = document.getElementById("confirm-yes");
    var no = document.getElementById("confirm-no");
    var toggle = document.getElementById("confirm-moves");
    if (toggle) {
      toggle.checked = confirming();
      toggle.closest(".confirm-switch").hidden = false;
      toggle.addEventListener("change", function () {
        try { localStorage.setItem(CONFIRM_KEY, toggle.checked ? "on" : "off"); } catch (e) { /* kept for the page */ }
      });
    }

    function fits(move) {
      for (var i = 0; i < tapped.length; i++) {
        if (move[2][i] !== tapped[i]) { return false; }
      }
      return move[2].length >= tapped.length;
    }

    function play(move) {
      held = null;  // (a second press sends nothing more)
      if (bar) { bar.hidden = true; }
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = "move";
      input.value = move[0];
      form.appendChild(input);
      form.submit();
    }

    // ``move`` tapped (or chosen): asked for, or played at once where the player does not
    // want to be asked; ``before``: the taps to go back to when he cancels
    function propose(move, before) {
      var on = toggle ? toggle.checked : confirming();
      if (!bar || !on) { play(move); return; }
      var back = document.activeElement;
      held = {
        move: move,
        before: before,
        confirm: function () { play(move); },
        cancel: function () {
          held = null;
          bar.hidden = true;
          tapped = before;
          paint();
          if (back && document.body.contains(back)) { back.focus({ preventScroll: true }); }
          else if (!choose.hidden) { choose.querySelector("button").focus({ preventScroll: true }); }
        }
      };
      document.getElementById("confirm-ask").textContent = form.dataset.ask.split("\ue000").join(move[1]);
      paint();
      bar.hidden = false;
      yes.focus();
    }

    function paint() {
      var open = moves.filter(fits);
      var next = {};
      open.forEach(function (m) { if (m[2].length > tapped.length) { next[m[2][tapped.length]] = true; } });
      Object.keys(buttons).forEach(function (name) {
        var b = buttons[name];
        var chosen = tapped.indexOf(name) >= 0;
        b.classList.toggle("chosen", chosen);
        b.classList.toggle("next", !!next[name]);
        b.classList.toggle("origin", tapped.length === 0 && !!next[name]);
        b.disabled = !(chosen || next[name] || tapped.length > 0);
        b.setAttribute("aria-pressed", chosen ? "true" : "false");
      });
      if (settle) { settle(); }
      var done = open.filter(function (m) { return m[2].length === tapped.length; });
      choose.textContent = "";
      choose.hidden = held !== null || !(tapped.length > 0 && done.length > 0);
      if (!choose.hidden) {
        var label = document.createElement("p");
        label.textContent = form.dataset.which;
        choose.appendChild(label);
        open.forEach(function (m) {
          var b = document.createElement("button");
          b.type = "button";
          b.textContent = m[1];
          b.dataset.move = m[0];
          b.addEventListener("click", function () { propose(m, tapped.slice()); });
          choose.appendChild(b);
        });
      }
    }

    function tap(name) {
      if (held) { held.cancel(); }  // the board tapped elsewhere: back to choosing, and on
      var at = tapped.indexOf(name);
      var goesOn = moves.filter(fits).some(function (m) { return m[2][tapped.length] === name; });
      if (at >= 0 && !goesOn) {
        tapped = tapped.slice(0, at);  // tapped again: taken back to before it
      } else {
        tapped.push(name);
        var open = moves.filter(fits);
        if (open.length === 0) {  // not a way on: a fresh start from this point
          tapped = [name];
          open = moves.filter(fits);
          if (open.length === 0) { tapped = []; }
        }
        if (open.length === 1 && open[0][2].length === tapped.length && tapped.length > 1) {
          propose(open[0], tapped.slice(0, -1));  // cancelled: the piece stays tapped
          return;
        }
      }
      paint();
    }

    Object.keys(spots).forEach(function (name) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "spot";
      b.dataset.point = name;
      b.setAttribute("aria-label", labels[name] || name);
      b.style.left = spots[name][0] + "%";
      b.style.top = spots[name][1] + "%";
      b.style.width = size + "%";
      b.addEventListener("click", function () { tap(name); });
      buttons[name] = b;
      layer.appendChild(b);
    });
    if (bar) {
      yes.addEventListener("click", function () { if (held) { held.confirm(); } });
      no.addEventListener("click", function () { if (held) { held.cancel(); } });
      // the picture tapped off its points: back to choosing
      layer.addEventListener("click", function (ev) { if (ev.target === layer && held) { held.cancel(); } });
    }
    settle = rove(layer, form.dataset.board);
    frame.appendChild(layer);
    layer.hidden = ply !== last;
    var again = kept && moves.filter(function (m) { return m[0] === kept.move[0]; })[0];
    if (again) {
      tapped = kept.before;
      propose(again, kept.before);
    } else {
      paint();
    }
  }

  // A set-up by tapping (Querni "choose"): the player taps his start cells in the order
  // of his numbers; each shows the number it gets; a placed cell tapped again is freed
  // (its number is the next given). Once all are placed the arrangement is written into
  // the form's field (the numbers in the cells' order), which he hands in.
  function tapSetup() {
    var form = document.getElementById("play-setup");
    var frame = document.getElementById("frame");
    if (!form || !frame) { return; }
    var cells = JSON.parse(form.dataset.cells);
    var spots = JSON.parse(form.dataset.spots);
    var size = parseFloat(form.dataset.spotSize);
    var field = document.getElementById("arrangement");
    var layer = document.createElement("div");
    layer.className = "taps";
    layer.id = "taps";
    var placed = {};
    Object.keys(setupPlaced).forEach(function (c) {
      if (cells.indexOf(c) >= 0) { placed[c] = setupPlaced[c]; }
    });
    // an arrangement handed in and refused comes back in the field: its numbers placed
    // on their cells again (each cell's, in the cells' order; one given twice, once)
    var written = field.value.trim().split(/\s+/);
    if (!Object.keys(placed).length && field.value.trim()) {
      cells.forEach(function (c, i) {
        var n = parseInt(written[i], 10);
        if (String(n) === written[i] && n >= 1 && n <= cells.length &&
            !Object.keys(placed).some(function (d) { return placed[d] === n; })) {
          placed[c] = n;
        }
      });
    }
    var buttons = {};

    function lowestFree() {
      var used = {};
      Object.keys(placed).forEach(function (c) { used[placed[c]] = true; });
      for (var n = 1; n <= cells.length; n++) { if (!used[n]) { return n; } }
      return 0;
    }

    function paint() {
      setupPlaced = placed;
      var next = lowestFree();
      cells.forEach(function (c) {
        var b = buttons[c];
        b.textContent = placed[c] ? String(placed[c]) : "";
        b.classList.toggle("placed", !!placed[c]);
        b.classList.toggle("next", !placed[c] && next > 0);
        b.setAttribute("aria-label", c + (placed[c] ? ": " + placed[c] : ""));
      });
      settle();
      if (next === 0) { field.value = cells.map(function (c) { return placed[c]; }).join(" "); }
    }

    cells.forEach(function (c) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "spot cell";
      b.dataset.point = c;
      b.style.left = spots[c][0] + "%";
      b.style.top = spots[c][1] + "%";
      b.style.width = size + "%";
      b.addEventListener("click", function () {
        if (placed[c]) { delete placed[c]; } else { placed[c] = lowestFree(); }
        paint();
      });
      buttons[c] = b;
      layer.appendChild(b);
    });
    var again = document.createElement("button");
    again.type = "button";
    again.textContent = form.dataset.again;
    again.addEventListener("click", function () { placed = {}; field.value = ""; paint(); });
    form.insertBefore(again, form.querySelector("button:not([type])"));
    var settle = rove(layer, form.dataset.board);
    frame.appendChild(layer);
    layer.hidden = ply !== last;
    paint();
  }

  function bind(kept) {
    if (!read()) { return; }
    tapBoard(kept);
    tapSetup();
    document.querySelectorAll(".step").forEach(function (a) {
      a.addEventListener("click", function (ev) {
        ev.preventDefault();
        var steps = { first: 0, back: ply - 1, next: ply + 1, last: last };
        show(steps[a.dataset.step]);
      });
    });
    // the move list, and the analysis's costly moves (on its graph and in its list)
    document.querySelectorAll("#moves a, a.goto").forEach(function (a) {
      a.addEventListener("click", function (ev) {
        ev.preventDefault();
        show(parseInt(a.getAttribute("data-ply"), 10), true);
        if (a.classList.contains("goto")) { document.getElementById("board").scrollIntoView({ block: "nearest" }); }
      });
    });
    var board = document.querySelector(".board");
    var startX = null;
    board.addEventListener("touchstart", function (ev) { startX = ev.changedTouches[0].clientX; }, { passive: true });
    board.addEventListener("touchend", function (ev) {
      if (startX === null) { return; }
      var dx = ev.changedTouches[0].clientX - startX;
      startX = null;
      if (Math.abs(dx) > 40) { show(ply + (dx < 0 ? 1 : -1)); }
    }, { passive: true });
    localTimes();
    var live = document.getElementById("live");  // true only where the moves come live
    if (live) { live.hidden = !window.EventSource; }
  }

  document.addEventListener("keydown", function (ev) {
    if (!match || ev.altKey || ev.ctrlKey || ev.metaKey) { return; }
    var t = ev.target;
    // a tapped move asked for: Escape cancels it, Enter confirms it (on a button, Enter
    // presses that button: Cancel cancels)
    if (held && ev.key === "Escape") { ev.preventDefault(); held.cancel(); return; }
    if (held && ev.key === "Enter" && !(t && /^(BUTTON|A|INPUT|SUMMARY|SELECT|TEXTAREA)$/.test(t.tagName))) {
      ev.preventDefault();
      held.confirm();
      return;
    }
    // keys typed into a field (the arrangement) move its caret, not the board
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) { return; }
    var moves = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: last };
    if (ev.key in moves) { ev.preventDefault(); show(moves[ev.key]); }
  });

  // The element with the keyboard's focus, as a selector that finds its twin in the
  // page drawn again (a step button, a point, a ply of the list, anything with an id).
  function focusOf(el) {
    if (!el || el === document.body || !document.getElementById("main").contains(el)) {
      return null;
    }
    if (el.id) { return "#" + CSS.escape(el.id); }
    if (el.dataset.step) { return '.step[data-step="' + el.dataset.step + '"]'; }
    if (el.dataset.point) { return '.spot[data-point="' + CSS.escape(el.dataset.point) + '"]'; }
    if (el.dataset.ply && el.closest("#moves")) { return '#moves a[data-ply="' + el.dataset.ply + '"]'; }
    return null;
  }

  // What changed, said to a screen reader: a live region that stays while the page
  // under it is drawn again (one inside it would be a new element each time, and new
  // live regions are not read out)
  function announce(words) {
    var news = document.getElementById("news");
    if (!news) {
      news = document.createElement("p");
      news.id = "news";
      news.className = "sr-only";
      news.setAttribute("role", "status");
      document.body.appendChild(news);
    }
    news.textContent = words;
  }

  // the words of the match's latest position (its status line there)
  function latestWords() {
    var link = document.querySelector('#moves a[data-ply="' + last + '"]');
    return link ? link.dataset.alt : match.dataset.startAlt;
  }

  function refresh() {
    var atLast = ply === last;
    var said = latestWords();
    var kept = ply;
    var field = document.getElementById("arrangement");  // what he is typing stays
    var typed = field ? field.value : "";
    var typing = field !== null && document.activeElement === field;
    var focused = focusOf(document.activeElement);  // and where the keyboard was
    // the tapped move waiting for Confirm, and the position it was tapped on (the form's
    // ply: the entries the match has); kept only while that is still the latest one
    var form = document.getElementById("play-moves");
    var waited = held && form ? { move: held.move, before: held.before, ply: form.elements.ply.value } : null;
    fetch(match.dataset.page + "?lang=" + encodeURIComponent(lang), { credentials: "same-origin" })
      .then(function (r) { if (!r.ok) { throw new Error(String(r.status)); } return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("main");
        if (!fresh) { return; }
        var next = doc.getElementById("play-moves");
        var same = waited && next && next.elements.ply && next.elements.ply.value === waited.ply;
        document.getElementById("main").innerHTML = fresh.innerHTML;
        document.title = doc.title;  // "(Your move) ..." when his turn came
        bind(same ? waited : null);
        show(atLast ? last : Math.min(kept, last));
        var again = document.getElementById("arrangement");
        if (again && typed && !again.value) { again.value = typed; }
        if (again && typing) { again.focus(); }
        var back = focused && document.querySelector(focused);
        if (back && !typing) { back.focus({ preventScroll: true }); }
        // the latest position's words, whichever ply the reader was looking at
        var now = latestWords();
        if (now && now !== said) { announce(now); }
      })
      .catch(function () { /* the next change tries again */ });
  }

  bind();
  // A refused move, set-up or offer comes back as the page at the form's address
  // (/p/TOKEN/move): the address bar says the page's own, so reloading it (a phone's
  // pull to refresh) reads the page again instead of sending the refused form again
  if (match && location.pathname !== match.dataset.page) {
    history.replaceState(null, "", match.dataset.page + "?lang=" + encodeURIComponent(lang));
  }
  if (match && window.EventSource) {  // told of any change past the version shown
    var source = new EventSource(base + "/events?since=" + encodeURIComponent(match.dataset.version));
    source.addEventListener("change", refresh);
  }
  // a challenge or lobby not begun: once it changes (accepted, filled, declined) the
  // page is another, with its board: loaded again
  var waiting = document.getElementById("waiting");
  if (!match && waiting && window.EventSource) {
    new EventSource(waiting.dataset.base + "/events").addEventListener("change", function () {
      location.reload();
    });
  }
}());
