// Progressive enhancement only: every form works without this file (and without htmx).
(function () {
  "use strict";
  // a form drawn before this browser's CSRF cookie changed (cookies cleared with the page open, a sign-in in
  // another tab, a page kept by the service worker) is sent with the cookie's token, or with a fresh one asked
  // of the server when the cookie is gone (/accounts/form-token/): never a 403 for a tap. Capture, registered
  // first: a deferred form reaches the confirmation, htmx and the double-tap guard once, when sent again.
  function csrfCookie() {
    var hit = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return hit ? decodeURIComponent(hit[1]) : "";
  }
  function setTokens(form, token) {
    form.querySelectorAll("input[name=csrfmiddlewaretoken]").forEach(function (i) { i.value = token; });
  }
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.querySelector || !form.querySelector("input[name=csrfmiddlewaretoken]")) return;
    var cookie = csrfCookie();
    if (cookie || form.dataset.tokenAsked) {
      if (cookie) setTokens(form, cookie);
      delete form.dataset.tokenAsked;
      return;
    }
    e.preventDefault();
    e.stopPropagation();
    form.dataset.tokenAsked = "1";
    var submitter = e.submitter;
    fetch("/accounts/form-token/", { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (body) { setTokens(form, body.token); })
      .catch(function () { /* offline: sent as drawn; the server's page says what to do */ })
      .then(function () { if (submitter && submitter.form === form) form.requestSubmit(submitter); else form.requestSubmit(); });
  }, true);
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
  var typedIn = null;  // the section (#board, #record…) holding the form typed in or the refusal shown
  var partSeen = seen;  // the version the parts that hold no typed values show (a live update while busy)
  var SECTIONS = ["board", "record", "secrets"];
  function sectionOf(el) {
    for (var n = el; n; n = n.parentElement) if (n.id && SECTIONS.indexOf(n.id) >= 0) return n.id;
    return null;
  }
  var FOCUSABLE = "button, a[href], input, select, textarea, summary";

  function keyOf(el) {  // a control told apart from its neighbours, stable across a redraw of the page
    return [el.tagName, el.getAttribute("name") || "", el.getAttribute("type") || "",
      (el.textContent || el.getAttribute("aria-label") || "").trim().slice(0, 80)].join("|");
  }
  function shown(el) {  // drawn (not in a closed disclosure: its content keeps a box in Chromium)
    var r = el.getBoundingClientRect();
    return r.height > 0 && r.width > 0 && (!el.checkVisibility || el.checkVisibility());
  }
  function inBar(el) { return !!(bar() && bar().contains(el)); }
  function idsAbove(el, within) {  // the ids of the elements around ``el`` inside ``within``: where it sits
    var ids = [];
    for (var n = el.parentElement; n && n !== within; n = n.parentElement) if (n.id) ids.push(n.id);
    return ids.join(" ");
  }
  function placesOf(el, within) {  // the drawn elements with an id around the thumb, innermost first, as notes
    var out = [];
    for (var n = el; n && n !== within; n = n.parentElement) {
      if (n.id && shown(n) && !inBar(n)) out.push({ id: n.id, top: n.getBoundingClientRect().top, above: idsAbove(n, within) });
    }
    return out;
  }
  function topmost(within) {  // without a control (or the bar's own): the first drawn place under the bar
    var under = bar() ? bar().getBoundingClientRect().bottom : 0, all = within.querySelectorAll("[id]");
    for (var i = 0; i < all.length; i++) {
      if (inBar(all[i]) || all[i] === bar()) continue;
      if (shown(all[i]) && all[i].getBoundingClientRect().bottom > under) return all[i];
    }
    return null;
  }
  function placeAgain(notes) {
    // the innermost noted place still drawn where it was in the page (among the same places): a form that moved
    // (behind "Other entries") is not followed across the page; the section around it keeps its place instead
    var live = region();
    for (var i = 0; i < notes.length; i++) {
      var el = document.getElementById(notes[i].id);
      if (el && shown(el) && idsAbove(el, live) === notes[i].above) return { el: el, top: notes[i].top };
    }
    return null;
  }
  function controlsIn(place, key) {
    return Array.prototype.filter.call(place.querySelectorAll(FOCUSABLE), function (el) { return shown(el) && keyOf(el) === key; });
  }
  function detailsKey(d) {  // its own id, else the first id inside it that is not in a disclosure inside it
    if (d.id) return d.id;
    var inner = Array.prototype.find.call(d.querySelectorAll("[id]"), function (n) { return n.closest("details") === d; });
    return (inner && inner.id) || (d.querySelector("summary") || d).textContent.trim();
  }
  function uncover(control) {
    // the sticky bar never covers what the player just touched (issue 43): a control a grown bar would cover is
    // brought out from under it; otherwise nothing moves (the page stays where the thumb left it)
    var b = bar();
    if (!b || !control) return;
    var under = b.getBoundingClientRect().bottom;
    var top = control.getBoundingClientRect().top;
    if (top < under + 4) window.scrollBy(0, top - under - 8);
  }
  function lookAt(live) {
    // what the answer asks the player to look at next (``data-look``: the cells a picked token may go to) is
    // brought wholly into view under the bar, scrolling as little as it takes
    var looks = live.querySelectorAll("[data-look]");
    if (!looks.length) return;
    var top = Infinity, bottom = -Infinity;
    looks.forEach(function (el) {
      if (!shown(el)) return;
      var r = el.getBoundingClientRect();
      top = Math.min(top, r.top);
      bottom = Math.max(bottom, r.bottom);
    });
    if (top === Infinity) return;
    var under = (bar() ? bar().getBoundingClientRect().bottom : 0) + 8, room = window.innerHeight - 8;
    if (top < under) window.scrollBy(0, top - under);
    else if (bottom > room) window.scrollBy(0, Math.min(bottom - room, top - under));
  }

  // a pick drawn on the phone (the boards drawn ahead, or the engine's offline): its cells in view, as a swap's
  document.addEventListener("chronicle:board-drawn", function (e) { lookAt(e.target); });

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
      // a control in the sticky bar (its Undo) is always on screen: what stays put is the page under the bar
      var notes = from && !inBar(from) ? placesOf(from, live) : [];
      if (!notes.length) {
        var first = topmost(live);
        notes = first ? placesOf(first, live) : [];
      }
      var control = null;  // the control itself, told apart from its like in its innermost place
      if (from && !inBar(from) && notes.length && from.matches(FOCUSABLE)) {
        var alike = controlsIn(document.getElementById(notes[0].id), keyOf(from));
        control = { key: keyOf(from), index: alike.indexOf(from), count: alike.length, top: from.getBoundingClientRect().top };
      }
      saved = {
        y: window.scrollY, notes: notes, control: control,
        focus: thumb ? keyOf(thumb) : null, focusIn: thumb && !inBar(thumb) ? placesOf(thumb, live).map(function (n) { return n.id; }) : [],
        focusBar: !!(thumb && inBar(thumb)),
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
      var again = placeAgain(s.notes), kept = null;
      if (again && s.control && again.el.id === s.notes[0].id) {  // the control itself is still there: it stays put
        var alike = controlsIn(again.el, s.control.key);
        if (alike.length === s.control.count) kept = alike[s.control.index];
      }
      var by = kept ? kept.getBoundingClientRect().top - s.control.top
        : again ? again.el.getBoundingClientRect().top - again.top : s.y - window.scrollY;
      // an answer shorter below the thumb (the Undo section gone at the page's end) would pull the page down:
      // #match-live keeps the length it takes until the next answer, so the thumb's place can stay put
      var short = window.scrollY + by - (document.documentElement.scrollHeight - window.innerHeight);
      if (short > 0) live.style.minHeight = Math.ceil(live.offsetHeight + short) + "px";
      window.scrollBy(0, by);
      uncover(kept);
      if (s.focus && (!document.activeElement || document.activeElement === document.body)) {
        var scope = s.focusBar ? bar() : null, same = null, first = null;
        for (var i = 0; !scope && i < s.focusIn.length; i++) {
          var el = document.getElementById(s.focusIn[i]);
          if (el && shown(el)) scope = el;
        }
        (scope || live).querySelectorAll(FOCUSABLE).forEach(function (el) {
          if (!shown(el) || el.disabled) return;
          if (!same && keyOf(el) === s.focus) same = el;
          if (!first) first = el;
        });
        if (same || first) (same || first).focus({ preventScroll: true });
      }
      var problem = live.querySelector("#problem");
      if (s.status >= 400 && problem) {
        // a refusal of a board's button drawn at the board's top is moved next to the button tapped (a low one
        // would otherwise pull the page up to it, issue 43); the same words, where the thumb is
        // a button gone with the new state (a stale one: another phone recorded first): next to what is now
        // where it was (the board keeps its place on the page, under the refusal drawn at its top)
        var board = problem.parentElement && problem.parentElement.id === "board" ? problem.parentElement : null;
        var near = board && kept ? kept.closest("p, li") : null;
        if (board && !kept && s.control) {
          var where = s.control.top + problem.getBoundingClientRect().height;
          board.querySelectorAll("p, li").forEach(function (el) {
            if (!problem.contains(el) && shown(el) && el.getBoundingClientRect().top <= where) near = el;
          });
        }
        if (near && near.closest("#board")) near.insertAdjacentElement("afterend", problem);
        problem.scrollIntoView({ block: "nearest" });
        var below = problem.getBoundingClientRect().bottom - window.innerHeight;  // scrolling rounds to whole px
        if (below > 0 && below < 1) window.scrollBy(0, 1);
      } else if (s.status < 400) {
        lookAt(live);
      }
      busy = s.status >= 400 && !!problem;  // a refusal keeps what was typed: not thrown away by a live update
      typedIn = busy ? sectionOf(problem) : null;
      seen = parseInt(bar().dataset.version, 10);
      partSeen = seen;
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
    if (bar().dataset.hold === "1") {
      busy = true;
      typedIn = document.getElementById("problem") ? sectionOf(document.getElementById("problem")) : "all";
    }
    // typing in a form, or a move half-picked on the board (a query in the address), is never thrown away
    document.addEventListener("input", function (e) {
      if (!e.target.closest("form[method=post]")) return;
      busy = true;
      var part = sectionOf(e.target);
      if (part) typedIn = typedIn && typedIn !== part ? "all" : part;  // typed in two sections: both wait
    });
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
    // while a form waits, the parts that hold no typed values follow the game anyway: the turn line (and the
    // bar's Undo, which names the version), the player strip and every section but the one typed in (the board
    // too, unless a pick is half made on it); the form being typed in and its refusal wait for "Show it"
    var refreshParts = function (version) {
      if (version <= partSeen || typedIn === "all") return;
      partSeen = version;
      var waits = [typedIn], asked = region();
      if (picking()) waits.push("board");
      fetch(page + "?seen=" + seen, {
        headers: { "HX-Request": "true", "HX-Target": "match-live" }, credentials: "same-origin", cache: "no-store",
      }).then(function (r) { return r.ok ? r.text() : null; }).then(function (html) {
        // a newer answer is on its way, or the page was answered since (its own move): it is the game now
        if (!html || !busy || region() !== asked || version < partSeen) return;
        var doc = new DOMParser().parseFromString(html, "text/html"), changed = [];
        var swapIn = function (old, neu, inside) {
          if (!old || !neu) return;
          if (inside) old.replaceChildren.apply(old, Array.prototype.slice.call(neu.childNodes));  // listeners kept
          else old.replaceWith(neu);
          changed.push(inside ? old : neu);
        };
        swapIn(bar() && bar().querySelector(".tb-row"), doc.querySelector("#tablebar .tb-row"), false);
        swapIn(region().querySelector("ol.players"), doc.querySelector("#match-live ol.players"), false);
        SECTIONS.forEach(function (id) {
          if (waits.indexOf(id) < 0) swapIn(document.getElementById(id), doc.getElementById(id), true);
        });
        changed.forEach(function (el) {
          if (window.htmx) window.htmx.process(el);
          el.dispatchEvent(new CustomEvent("htmx:load", { bubbles: true }));  // forms.js, the-first-spine.js
        });
        fitBar();
        document.documentElement.dataset.partsSeen = String(version);  // for the browser tests to wait on
      }).catch(function () { partSeen = Math.min(partSeen, version - 1); });  // asked again at the next poll
    };
    var show = function (version) {
      if (!busy && !picking()) { refresh(); return; }
      refreshParts(version);
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
        typedIn = null;
        refresh();
      });
      p.appendChild(a);
      outcome.appendChild(p);
      fitBar();
    };
    // the owner's "Seat a friend" box follows a friend taking a seat (no entry is recorded, so the version does
    // not move): the poll also counts the seats accounts hold (?seats=1), and a change redraws the box and the
    // players' names in place
    var seated = bar().dataset.seated || "";
    var joinFollows = function (count) {
      seated = String(count);
      fetch(page, { headers: { "HX-Request": "true", "HX-Target": "match-live" }, credentials: "same-origin", cache: "no-store" })
        .then(function (r) { return r.ok ? r.text() : null; }).then(function (html) {
          if (!html) return;
          var doc = new DOMParser().parseFromString(html, "text/html");
          [["#join", "#join"], ["ol.players", "#match-live ol.players"]].forEach(function (pair) {
            var old = document.querySelector(pair[0]), neu = doc.querySelector(pair[1]);
            if (!old || !neu) return;
            if (old.tagName === "DETAILS") neu.open = old.open;
            old.replaceWith(neu);
            if (window.htmx) window.htmx.process(neu);
          });
          document.documentElement.dataset.seatsSeen = seated;  // for the browser tests to wait on
        }).catch(function () { seated = ""; });  // asked again at the next poll
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
          else if (data && data.seated !== undefined && String(data.seated) !== seated) joinFollows(data.seated);
          schedule(delay);
        })
        .catch(function () {  // flaky network: back off up to 30 s, and retry at once when it comes back
          delay = Math.min(delay * 2, 30000);
          if (bar()) bar().classList.add("is-offline");
          schedule(delay);
        });
    };
    var polling = false;
    var startPolling = function () {  // the fallback: today's poll, started once
      if (polling) return;
      polling = true;
      document.addEventListener("visibilitychange", function () { if (!document.hidden) schedule(0); });
      window.addEventListener("online", function () { delay = 1500; schedule(0); });
      schedule(delay);
    };
    // the push: one event stream per page (frontend/views/live.py) sends each entry as it is recorded, as this
    // reader may see it, and resumes from the last entry received (Last-Event-ID; a new stream: from the version
    // drawn). A page whose stream was never opened (refused, no EventSource, a proxy that holds it back) polls
    var pushed = seen, opened = false, retry = 1500;
    var draw = function () {  // a burst (a catch-up) is drawn once, at its newest entry
      if (bar() && bar().dataset.live && pushed > seen) show(pushed);
    };
    var push = function () {
      if (!window.EventSource || !bar().dataset.push) { startPolling(); return; }
      var follows = bar().dataset.seated !== undefined ? "&seats=1" : "";  // the owner's join box (as the poll's)
      var stream = new EventSource(bar().dataset.push + "?from=" + seen + follows), ready = false, drawing = null;
      var again = function () {
        stream.close();
        if (!opened) { startPolling(); return; }  // refused: poll instead
        if (bar()) bar().classList.add("is-offline");
        setTimeout(push, retry);  // it worked before: open it again, backing off up to 30 s
        retry = Math.min(retry * 2, 30000);
      };
      var giveUp = setTimeout(function () { if (!ready) again(); }, 5000);
      document.documentElement.dataset.push = "opening";
      stream.addEventListener("ready", function () {
        ready = opened = true;
        retry = 1500;
        clearTimeout(giveUp);
        document.documentElement.dataset.push = "open";  // for the browser tests to wait on
        if (bar()) bar().classList.remove("is-offline");
        draw();  // received before, not drawn (the page's own request failed)
      });
      stream.addEventListener("entry", function (e) {
        var version = parseInt(e.lastEventId, 10);
        if (!(version > pushed)) return;
        pushed = version;
        clearTimeout(drawing);
        drawing = setTimeout(draw, 0);
      });
      stream.addEventListener("seated", function (e) {  // a friend took a seat: no entry, the count moved
        var count = JSON.parse(e.data).seated;
        if (String(count) !== seated) joinFollows(count);
      });
      stream.addEventListener("closed", function () {  // this reader may no longer see the match
        stream.close();
        clearTimeout(giveUp);
        document.documentElement.dataset.push = "closed";
      });
      stream.onerror = function () {
        if (document.documentElement.dataset.push === "closed") return;
        if (stream.readyState === EventSource.CLOSED) { clearTimeout(giveUp); again(); return; }
        if (bar()) bar().classList.add("is-offline");  // the browser reconnects by itself, from the last entry
      };
    };
    window.addEventListener("online", function () { if (opened) draw(); });
    push();
  }
})();
