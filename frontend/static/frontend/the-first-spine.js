// The First Spine board, progressive enhancement only: without this file a card name is a link (?card=) and
// the page comes back with the cells it may go to. With it, tapping a name shows those cells at once.
(function () {
  "use strict";
  function init() {
  var form = document.querySelector("form.fs[data-place-cells]");
  if (!form || form.dataset.ready) return;
  form.dataset.ready = "1";
  var overlay = form.querySelector(".fs-overlay");
  var prompt = form.querySelector(".fs-pick-prompt");
  var cells = JSON.parse(form.dataset.placeCells);
  var rows = Number(form.dataset.rows), cols = Number(form.dataset.cols), seat = Number(form.dataset.seat);
  var links = form.querySelectorAll(".fs-card-link");

  function clear() {
    overlay.innerHTML = "";
    form.querySelectorAll(".fs-target-mark").forEach(function (m) { m.remove(); });
    links.forEach(function (l) { l.classList.remove("is-picked"); l.removeAttribute("aria-current"); });
  }

  // capture, on the form: the tap is handled here, never as the boosted link's in-place fetch (htmx)
  form.addEventListener("click", function (e) {
      var link = e.target.closest ? e.target.closest(".fs-card-link") : null;
      if (!link || !form.contains(link)) return;
      e.preventDefault();
      e.stopPropagation();
      var wasPicked = link.classList.contains("is-picked");
      clear();
      if (wasPicked) { prompt.textContent = "tap a card name, then a cell."; return; }
      link.classList.add("is-picked");
      link.setAttribute("aria-current", "true");
      var name = link.dataset.card, spell = link.dataset.kind === "spell", targets = cells;
      if (spell) {
        targets = [];
        for (var r = 0; r < rows; r++) for (var c = 0; c < cols; c++) targets.push([r, c]);
      }
      targets.forEach(function (cell) {
        var b = document.createElement("button");
        b.type = "submit";
        b.name = "move";
        b.className = "fs-hit js-target";
        b.style.gridRow = String(cell[0] + 1);
        b.style.gridColumn = String(cell[1] + 1);
        b.value = JSON.stringify({ type: "card_placed", seat: seat, data: { card: name, at: cell } });
        // the cell in the players' words, as the board's edges number it (rulesets/cells.py)
        var label = (spell ? "Cast " : "Place ") + name + " on column " + (cell[1] + 1) + ", row " + (cell[0] + 1);
        b.setAttribute("aria-label", label);
        b.title = label;
        overlay.appendChild(b);
      });
      prompt.textContent = targets.length ? "tap a highlighted cell for " + name + "." : name + " has no free cell next to your pieces.";
  }, true);
  }
  init();
  document.addEventListener("htmx:load", init);  // the board swapped in place after a move
})();
