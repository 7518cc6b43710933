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
    document.querySelectorAll("#moves a").forEach(function (a) {
      if (a === link) { a.setAttribute("aria-current", "step"); } else { a.removeAttribute("aria-current"); }
    });
    if (link) { link.scrollIntoView({ block: "nearest" }); }
    var steps = { first: 0, back: target - 1, next: target + 1, last: last };
    document.querySelectorAll(".step").forEach(function (a) {
      a.href = href(Math.max(0, Math.min(last, steps[a.dataset.step])));
    });
    history.replaceState(null, "", href(target));
  }

  function localTimes() {
    document.querySelectorAll("time.deadline").forEach(function (t) {
      var when = new Date(t.getAttribute("datetime"));
      if (isNaN(when.getTime())) { return; }
      try {
        t.textContent = when.toLocaleString(lang, { dateStyle: "medium", timeStyle: "short", timeZoneName: "short" });
        t.title = t.getAttribute("datetime");
      } catch (e) { /* keep the UTC text */ }
    });
  }

  function bind() {
    if (!read()) { return; }
    document.querySelectorAll(".step").forEach(function (a) {
      a.addEventListener("click", function (ev) {
        ev.preventDefault();
        var steps = { first: 0, back: ply - 1, next: ply + 1, last: last };
        show(steps[a.dataset.step]);
      });
    });
    document.querySelectorAll("#moves a").forEach(function (a) {
      a.addEventListener("click", function (ev) {
        ev.preventDefault();
        show(parseInt(a.dataset.ply, 10));
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
  }

  document.addEventListener("keydown", function (ev) {
    if (!match || ev.altKey || ev.ctrlKey || ev.metaKey) { return; }
    var moves = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: last };
    if (ev.key in moves) { ev.preventDefault(); show(moves[ev.key]); }
  });

  function refresh() {
    var atLast = ply === last;
    var kept = ply;
    fetch(match.dataset.page + "?lang=" + encodeURIComponent(lang), { credentials: "same-origin" })
      .then(function (r) { if (!r.ok) { throw new Error(String(r.status)); } return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("main");
        if (!fresh) { return; }
        document.getElementById("main").innerHTML = fresh.innerHTML;
        bind();
        show(atLast ? last : Math.min(kept, last));
      })
      .catch(function () { /* the next change tries again */ });
  }

  bind();
  if (match && window.EventSource) {
    var source = new EventSource(base + "/events");
    source.addEventListener("change", refresh);
  }
}());
