// The offline page (frontend/templates/frontend/offline.html): list the match pages this device keeps, and the
// matches started on it (offline/local.js: their page, or the match the server made of them).
(function () {
  "use strict";
  if (!window.caches) return;
  caches.open("chronicle-pages").then(function (cache) { return cache.keys(); }).then(function (requests) {
    var list = document.getElementById("kept-list");
    requests = requests.filter(function (request) { return /^\/matches\/\d+\/$/.test(new URL(request.url).pathname); });
    requests.forEach(function (request) {
      var path = new URL(request.url).pathname, li = document.createElement("li"), a = document.createElement("a");
      a.href = path;
      a.textContent = "Match #" + path.split("/")[2];
      li.appendChild(a);
      list.appendChild(li);
    });
    if (requests.length) document.getElementById("kept").hidden = false;
  });
  if (!window.indexedDB) return;
  var opening = indexedDB.open("chronicle-offline");
  opening.onupgradeneeded = function () { opening.transaction.abort(); };  // none on this device: make none
  opening.onerror = function (e) { e.preventDefault(); };
  opening.onsuccess = function () {
    var d = opening.result;
    d.onversionchange = function () { d.close(); };
    if (!d.objectStoreNames.contains("locals")) { d.close(); return; }
    var all = d.transaction("locals").objectStore("locals").getAll();
    all.onsuccess = function () {
      d.close();
      var list = document.getElementById("started-list");
      all.result.forEach(function (row) {
        var li = document.createElement("li"), a = document.createElement("a");
        a.href = "/matches/" + (row.real || row.id) + "/";
        a.textContent = (row.body.title || row.game_name) + ": " + row.position.seat_names.join(", ");
        li.appendChild(a);
        li.appendChild(document.createTextNode(row.real ? " (match #" + row.real + ")" : " (not yet on the server)"));
        list.appendChild(li);
      });
      if (all.result.length) document.getElementById("started").hidden = false;
    };
  };
})();
