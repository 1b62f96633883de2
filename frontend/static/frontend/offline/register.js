// On every page: register the service worker (/sw.js, the whole site's scope), and forget this user's pages
// and waiting entries at sign-out (a shared phone). See docs/ARCHITECTURE.md › Offline at the table.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () { /* an old browser: online only */ });
  // a page whose document was made while the worker was activating (its claim came too early for it), or one
  // reloaded bypassing the worker, is not controlled: its requests would miss the worker until the next
  // navigation. Once a worker is active, such a page asks it to claim it.
  navigator.serviceWorker.ready.then(function (reg) {
    if (!navigator.serviceWorker.controller && reg.active) reg.active.postMessage({ type: "claim" });
  });

  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.hasAttribute || !form.hasAttribute("data-sign-out")) return;
    var waiting = Number(document.documentElement.dataset.offlineWaiting || 0);
    if (waiting && !window.confirm(waiting + (waiting === 1 ? " entry waits" : " entries wait") +
        " to be sent from this device. Signing out drops them. Sign out anyway?")) {
      e.preventDefault();
      e.stopImmediatePropagation();
      return;
    }
    if (navigator.serviceWorker.controller) navigator.serviceWorker.controller.postMessage({ type: "forget" });
    if (window.caches) caches.delete("chronicle-pages");
    if (window.indexedDB) indexedDB.deleteDatabase("chronicle-offline");
  }, true);
})();
