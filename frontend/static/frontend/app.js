// Progressive enhancement only: every form works without this file.
(function () {
  "use strict";
  // the replay slider shows the chosen version as soon as it is released
  document.querySelectorAll("input[data-autosubmit]").forEach(function (input) {
    var output = input.form.querySelector("output");
    input.addEventListener("input", function () { if (output) output.textContent = input.value + " / " + input.max; });
    input.addEventListener("change", function () { input.form.submit(); });
  });
  // confirmations (the forms also carry a required checkbox, so they confirm without JS too)
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (e) { if (!window.confirm(form.dataset.confirm)) e.preventDefault(); });
  });
  // a double tap sends one request (the idempotency key makes a second one harmless anyway)
  document.querySelectorAll("form[method=post]").forEach(function (form) {
    form.addEventListener("submit", function () {
      setTimeout(function () { form.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = true; }); }, 0);
    });
  });
  // arrow keys step through versions on the match page
  var prev = document.querySelector('a[rel=prev]'), next = document.querySelector('a[rel=next]');
  document.addEventListener("keydown", function (e) {
    if (e.target.closest("input, select, textarea")) return;
    if (e.key === "ArrowLeft" && prev) prev.click();
    if (e.key === "ArrowRight" && next) next.click();
  });
})();
