// Progressive enhancement only: every form works without this file.
(function () {
  "use strict";
  // the replay slider shows the chosen version as soon as it is released
  document.querySelectorAll("input[data-autosubmit]").forEach(function (input) {
    var output = input.form.querySelector("output");
    input.addEventListener("input", function () {
      if (output) output.textContent = (output.dataset.noun || "move") + " " + input.value + " of " + input.max;
    });
    input.addEventListener("change", function () { input.form.submit(); });
  });
  // confirmations (without JS the server asks instead, or the form carries a required checkbox); a confirmed
  // form says so in its data-confirm-field, so the server does not ask again
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (e) {
      if (!window.confirm(form.dataset.confirm)) { e.preventDefault(); return; }
      var field = form.querySelector("[data-confirm-field]");
      if (field) field.value = "yes";
    });
  });
  // a double tap sends one request (the idempotency key makes a second one harmless anyway); a submit that
  // was cancelled (a confirmation answered "no") sends nothing, so its buttons stay usable
  document.querySelectorAll("form[method=post]").forEach(function (form) {
    form.addEventListener("submit", function (e) {
      setTimeout(function () {
        if (e.defaultPrevented) return;
        form.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = true; });
      }, 0);
    });
  });
  // arrow keys step through versions on the match page
  var prev = document.querySelector('a[rel=prev]'), next = document.querySelector('a[rel=next]');
  document.addEventListener("keydown", function (e) {
    if (e.target.closest("input, select, textarea")) return;
    if (e.key === "ArrowLeft" && prev) prev.click();
    if (e.key === "ArrowRight" && next) next.click();
  });

  // the table bar stays on screen (sticky): anchors scroll to just below it
  var bar = document.getElementById("tablebar");
  function fitBar() {
    if (!bar) return;
    document.documentElement.style.setProperty("--bar-h", bar.offsetHeight + "px");
  }
  fitBar();
  window.addEventListener("resize", fitBar);
  if (bar && location.hash.length > 1) {
    var target = document.getElementById(location.hash.slice(1));
    if (target) window.requestAnimationFrame(function () { target.scrollIntoView(); });
  }
  // the live table: ask for the match's version (ETag/304: a few bytes); a new one shows the new state
  if (bar && bar.dataset.live && window.fetch) {
    var seen = parseInt(bar.dataset.version, 10), etag = null, delay = 1500, timer = null, busy = false;
    var outcome = document.getElementById("outcome");
    var params = new URLSearchParams(location.search);
    if (params.has("seen")) {  // the news was shown once; a reload should not repeat it
      params.delete("seen");
      history.replaceState(null, "", location.pathname + (params.toString() ? "?" + params : "") + location.hash);
    }
    // the answer to a POST (a refusal, a conflict) is drawn at the URL it was posted to: show the match page's
    // address, so a reload or a shared link is the match page, not the form's target
    if (bar.dataset.page && location.pathname !== bar.dataset.page) {
      history.replaceState(null, "", bar.dataset.page + location.hash);
    }
    // typing in a form, a move half-picked on the board, or a refusal being read (its typed values kept) is
    // never thrown away by a reload: the bar says what is new, with a link to it
    busy = bar.dataset.hold === "1";
    document.addEventListener("input", function (e) { if (e.target.closest("form[method=post]")) busy = true; });
    var picking = params.toString() !== "";
    var schedule = function (ms) { clearTimeout(timer); timer = setTimeout(poll, ms); };
    var show = function (version) {
      // the match page, whatever URL this page is on (a refusal is drawn at /record/, which takes only POST)
      var url = (bar.dataset.page || location.pathname) + "?seen=" + seen + "#board";
      if (!busy && !picking) { location.replace(url); return; }
      outcome.className = "tb-feedback tb-news";
      outcome.innerHTML = "";
      var p = document.createElement("p"), a = document.createElement("a");
      p.className = "tb-text";
      p.textContent = "New at the table: move " + version + " was recorded. ";
      a.href = url;
      a.textContent = "Show it";
      p.appendChild(a);
      outcome.appendChild(p);
    };
    var poll = function () {
      if (document.hidden) return;  // resumed by visibilitychange
      fetch(bar.dataset.live, { headers: etag ? { "If-None-Match": etag } : {}, cache: "no-store", credentials: "same-origin" })
        .then(function (r) {
          if (r.status === 304) return null;
          if (!r.ok) throw new Error("HTTP " + r.status);
          etag = r.headers.get("ETag");
          return r.json();
        })
        .then(function (data) {
          delay = 1500;
          bar.classList.remove("is-offline");
          if (data && data.version !== seen) { show(data.version); seen = data.version; }
          schedule(delay);
        })
        .catch(function () {  // flaky network: back off up to 30 s, and retry at once when it comes back
          delay = Math.min(delay * 2, 30000);
          bar.classList.add("is-offline");
          schedule(delay);
        });
    };
    document.addEventListener("visibilitychange", function () { if (!document.hidden) schedule(0); });
    window.addEventListener("online", function () { delay = 1500; schedule(0); });
    schedule(delay);
  }
})();
