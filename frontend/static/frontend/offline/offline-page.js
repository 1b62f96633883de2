// The offline page (frontend/templates/frontend/offline.html): list the match pages this device keeps.
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
})();
