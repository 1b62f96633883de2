// The import job page: while the job runs, poll its API and move the progress bar; reload when it ends.
(function () {
  "use strict";
  const box = document.getElementById("import-job");
  if (!box || box.dataset.status === "done" || box.dataset.status === "failed") return;
  const bar = document.getElementById("import-progress");
  const text = document.getElementById("import-status");
  function tick() {
    fetch(box.dataset.url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (job) {
        bar.max = job.total || 1;
        bar.value = job.done;
        if (job.status === "done" || job.status === "failed") { window.location.reload(); return; }
        let words = job.done + " of " + job.total + " plays";
        if (job.seconds_left !== null) words += ", about " + job.seconds_left + " s left";
        text.textContent = words + ".";
        setTimeout(tick, 1000);
      })
      .catch(function () { setTimeout(tick, 3000); });
  }
  setTimeout(tick, 500);
})();
