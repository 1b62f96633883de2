// Progressive enhancement only: every form works without this file (and without htmx).
(function () {
  "use strict";
  // the replay slider shows the chosen version as soon as it is released
  document.addEventListener("input", function (e) {
    var input = e.target.closest && e.target.closest("input[data-autosubmit]");
    if (!input) return;
    var output = input.form.querySelector("output");
    if (output) output.textContent = (output.dataset.noun || "move") + " " + input.value + " of " + input.max;
  });
  document.addEventListener("change", function (e) {
    var input = e.target.closest && e.target.closest("input[data-autosubmit]");
    if (input) input.form.submit();
  });
  // confirmations (without JS the server asks instead, or the form carries a required checkbox); capture: a
  // cancelled one reaches neither htmx nor the double-tap guard below; a confirmed one says so in its
  // data-confirm-field, so the server does not ask again
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.dataset || !form.dataset.confirm) return;
    if (!window.confirm(form.dataset.confirm)) {
      e.preventDefault();
      e.stopPropagation();
      return;
    }
    var field = form.querySelector("[data-confirm-field]");
    if (field) field.value = "yes";
  }, true);
  // a double tap sends one request (the idempotency key makes a second one harmless anyway)
  var lastThumb = null;  // the control that sent the form: it loses focus once disabled below
  document.addEventListener("submit", function (e) {
    var form = e.target;
    lastThumb = e.submitter || document.activeElement;
    if (String(form.method).toLowerCase() !== "post") return;
    setTimeout(function () { form.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = true; }); }, 0);
  });
  // arrow keys step through versions on the match page
  document.addEventListener("keydown", function (e) {
    if (e.target.closest("input, select, textarea")) return;
    var prev = document.querySelector("a[rel=prev]"), next = document.querySelector("a[rel=next]");
    if (e.key === "ArrowLeft" && prev) prev.click();
    if (e.key === "ArrowRight" && next) next.click();
  });

  // the table bar stays on screen (sticky): anchors scroll to just below it
  var bar = function () { return document.getElementById("tablebar"); };
  function fitBar() {
    if (bar()) document.documentElement.style.setProperty("--bar-h", bar().offsetHeight + "px");
  }
  fitBar();
  window.addEventListener("resize", fitBar);
  if (bar() && location.hash.length > 1) {
    var target = document.getElementById(location.hash.slice(1));
    if (target) window.requestAnimationFrame(function () { target.scrollIntoView(); });
  }

  // -- answered in place (htmx) ---------------------------------------------------------------------------
  // The board and the record section are boosted (hx-boost): a move, a tap on the board or a live update
  // fetches only #match-live (frontend/views/matches.py › match_detail) and swaps it. Here: the thumb stays where it
  // was (the control used keeps its place on screen and its focus), opened disclosures stay open, and a
  // refusal's explanation is brought into view next to the control.
  var region = function () { return document.getElementById("match-live"); };
  var busy = false;  // a half-typed form or a refusal's kept values: a live update does not swap them away
  var seen = bar() ? parseInt(bar().dataset.version, 10) : null;
  var saved = null;
  var FOCUSABLE = "button, a[href], input, select, textarea, summary";

  function keyOf(el) {  // a control told apart from its neighbours, stable across a redraw of the page
    return [el.tagName, el.getAttribute("name") || "", el.getAttribute("type") || "",
      (el.textContent || el.getAttribute("aria-label") || "").trim().slice(0, 80)].join("|");
  }
  function shown(el) { var r = el.getBoundingClientRect(); return r.height > 0 && r.width > 0; }
  function placeOf(el, within) {  // the nearest drawn ancestor with an id: the place the thumb is at
    for (var n = el; n && n !== within; n = n.parentElement) if (n.id && shown(n)) return n;
    return null;
  }
  function topmost(within) {  // without a control: the first drawn place under the bar
    var under = bar() ? bar().getBoundingClientRect().bottom : 0, all = within.querySelectorAll("[id]");
    for (var i = 0; i < all.length; i++) {
      if (bar() && bar().contains(all[i])) continue;
      if (shown(all[i]) && all[i].getBoundingClientRect().bottom > under) return all[i];
    }
    return null;
  }
  function detailsKey(d) {
    var inner = d.querySelector("[id]");
    return d.id || (inner && inner.id) || (d.querySelector("summary") || d).textContent.trim();
  }

  if (window.htmx) {
    document.addEventListener("htmx:configRequest", function (e) {
      e.detail.path = e.detail.path.split("#")[0];  // no jump to the form's #anchor: the thumb stays put
    });
    document.addEventListener("htmx:beforeSwap", function (e) {
      var live = region();
      if (!live || e.detail.target !== live) return;
      if (e.detail.xhr.status >= 400 && !/^\s*<div id="match-live"/.test(e.detail.serverResponse)) {
        e.detail.shouldSwap = false;  // not the match page (a 403 or 404 page): say so, keep the page
        failed("the server answered " + e.detail.xhr.status + ". Reload the page to see the game now.");
        return;
      }
      // a live update asked for before this page's own move settled: it would tell that move as news
      var asked = /[?&]seen=(\d+)/.exec((e.detail.requestConfig && e.detail.requestConfig.path) || "");
      var answered = /id="tablebar"[^>]*data-version="(\d+)"/.exec(e.detail.serverResponse || "");
      if (asked && answered && seen !== null && parseInt(answered[1], 10) <= seen) {
        e.detail.shouldSwap = false;  // the page already shows that version (and what its own move said)
        return;
      }
      var active = document.activeElement, source = e.detail.requestConfig && e.detail.requestConfig.elt;
      var thumb = active && active !== document.body && live.contains(active) ? active : null;
      if (!thumb && lastThumb && live.contains(lastThumb)) thumb = lastThumb;
      var from = thumb || (source && source !== live && live.contains(source) ? source : null);
      var place = from ? placeOf(from, live) : topmost(live);
      saved = {
        y: window.scrollY, place: place && place.id, top: place ? place.getBoundingClientRect().top : 0,
        focus: thumb ? keyOf(thumb) : null, focusIn: thumb && placeOf(thumb, live) ? placeOf(thumb, live).id : null,
        open: Array.prototype.map.call(live.querySelectorAll("details[open]"), detailsKey),
        status: e.detail.xhr.status,
      };
    });
    document.addEventListener("htmx:afterSettle", function (e) {
      var live = e.target;
      if (live.id !== "match-live" || !saved) return;
      var s = saved;
      saved = null;
      live.querySelectorAll("details").forEach(function (d) { if (s.open.indexOf(detailsKey(d)) >= 0) d.open = true; });
      fitBar();
      var place = s.place && document.getElementById(s.place);
      if (place && shown(place)) window.scrollBy(0, place.getBoundingClientRect().top - s.top);
      else window.scrollTo(0, s.y);
      if (s.focus && (!document.activeElement || document.activeElement === document.body)) {
        var scope = (s.focusIn && document.getElementById(s.focusIn)) || live, same = null, first = null;
        scope.querySelectorAll(FOCUSABLE).forEach(function (el) {
          if (!shown(el) || el.disabled) return;
          if (!same && keyOf(el) === s.focus) same = el;
          if (!first) first = el;
        });
        if (same || first) (same || first).focus({ preventScroll: true });
      }
      var problem = live.querySelector("#problem");
      if (s.status >= 400 && problem) {
        problem.scrollIntoView({ block: "nearest" });
        var below = problem.getBoundingClientRect().bottom - window.innerHeight;  // scrolling rounds to whole px
        if (below > 0 && below < 1) window.scrollBy(0, 1);
      }
      busy = s.status >= 400 && !!problem;  // a refusal keeps what was typed: not thrown away by a live update
      seen = parseInt(bar().dataset.version, 10);
      if (s.status < 400) {
        document.documentElement.dataset.inPlace = String(Number(document.documentElement.dataset.inPlace || 0) + 1);
      }
      // counted on <html> (data-swaps, data-in-place: the successful ones) for the browser tests to wait on
      document.documentElement.dataset.swaps = String(Number(document.documentElement.dataset.swaps || 0) + 1);
    });
    document.addEventListener("htmx:afterRequest", function (e) {
      // a request that swapped nothing (network down, server error) leaves its form usable again
      var form = e.detail.elt && e.detail.elt.closest ? e.detail.elt.closest("form") : null;
      if (form && document.body.contains(form)) form.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = false; });
    });
    document.addEventListener("htmx:sendError", function () { failed("no connection. Nothing was sent; try again."); });
    document.addEventListener("htmx:responseError", function (e) {
      failed("the server answered " + e.detail.xhr.status + ". Reload the page to see the game now.");
    });
  }
  function failed(words) {
    var outcome = document.getElementById("outcome");
    if (!outcome) return;
    outcome.className = "tb-feedback tb-refused";
    outcome.textContent = "";
    var p = document.createElement("p");
    p.className = "tb-text";
    p.textContent = "Not recorded: " + words;
    outcome.appendChild(p);
  }

  // -- the live table: ask for the match's version (ETag/304: a few bytes); a new one is swapped in place ---
  if (bar() && bar().dataset.live && window.fetch) {
    var etag = null, delay = 1500, timer = null;
    var page = region() ? region().dataset.page : location.pathname;
    var params = new URLSearchParams(location.search);
    if (params.has("seen")) {  // the news was shown once; a reload should not repeat it
      params.delete("seen");
      history.replaceState(null, "", location.pathname + (params.toString() ? "?" + params : "") + location.hash);
    }
    // without htmx a refusal is the answer to a POST at /record/ (which takes only POST): show the match page's
    // address, so a reload or a shared link is the match page; a refusal being read keeps its typed values
    if (page && location.pathname !== page) history.replaceState(null, "", page + location.hash);
    if (bar().dataset.hold === "1") busy = true;
    // typing in a form, or a move half-picked on the board (a query in the address), is never thrown away
    document.addEventListener("input", function (e) { if (e.target.closest("form[method=post]")) busy = true; });
    var picking = function () {
      var q = new URLSearchParams(location.search);
      q.delete("seen");
      return q.toString() !== "";
    };
    var schedule = function (ms) { clearTimeout(timer); timer = setTimeout(poll, ms); };
    var refresh = function () {
      var live = region();
      if (window.htmx && live) {
        window.htmx.ajax("GET", page + "?seen=" + seen, { source: live, target: live, swap: "outerHTML" });
      } else {
        location.replace(page + "?seen=" + seen + "#board");
      }
    };
    var show = function (version) {
      if (!busy && !picking()) { refresh(); return; }
      var outcome = document.getElementById("outcome");
      outcome.className = "tb-feedback tb-news";
      outcome.innerHTML = "";
      var p = document.createElement("p"), a = document.createElement("a");
      p.className = "tb-text";
      p.textContent = "New at the table: move " + version + " was recorded. ";
      a.href = page + "?seen=" + seen + "#board";
      a.textContent = "Show it";
      a.addEventListener("click", function (e) {
        if (!window.htmx || !region()) return;
        e.preventDefault();
        busy = false;
        refresh();
      });
      p.appendChild(a);
      outcome.appendChild(p);
      fitBar();
    };
    var poll = function () {
      if (document.hidden) return;  // resumed by visibilitychange
      if (!bar() || !bar().dataset.live) return;  // a replay: not the game now
      fetch(bar().dataset.live, { headers: etag ? { "If-None-Match": etag } : {}, cache: "no-store", credentials: "same-origin" })
        .then(function (r) {
          if (r.status === 304) return null;
          if (!r.ok) throw new Error("HTTP " + r.status);
          etag = r.headers.get("ETag");
          return r.json();
        })
        .then(function (data) {
          delay = 1500;
          bar().classList.remove("is-offline");
          if (data && data.version !== seen) show(data.version);
          schedule(delay);
        })
        .catch(function () {  // flaky network: back off up to 30 s, and retry at once when it comes back
          delay = Math.min(delay * 2, 30000);
          if (bar()) bar().classList.add("is-offline");
          schedule(delay);
        });
    };
    document.addEventListener("visibilitychange", function () { if (!document.hidden) schedule(0); });
    window.addEventListener("online", function () { delay = 1500; schedule(0); });
    schedule(delay);
  }
})();
