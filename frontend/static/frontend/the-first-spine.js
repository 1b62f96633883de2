// The First Spine board, progressive enhancement only: without this file a card name is a link (?card=) and
// the page comes back with the cells it may go to. With it, tapping a name shows those cells at once.
(function () {
  "use strict";
  // A board wider than the phone pans sideways in its frame (cells stay legible; the row numbers stay pinned to
  // its left edge). It opens centred on the reader's wizard (data-centre-col: the server's choice), or on the
  // cell a refusal names (data-refused-row: the cell is marked and always shown), and keeps where the reader
  // panned it across moves answered in place: the swapped-in frame would otherwise open at its left edge.
  var panned = null;
  function frame() {
    var play = document.querySelector(".fs-play[data-centre-col]");
    if (!play || play.dataset.framed) return;
    if (!play.isConnected || !play.clientWidth) { requestAnimationFrame(frame); return; }  // not laid out yet
    play.dataset.framed = "1";
    if (play.scrollWidth > play.clientWidth) {
      if (panned !== null && play.dataset.refusedRow === undefined) {
        play.scrollLeft = panned;
      } else {
        var area = play.querySelector(".fs-area") || play;
        var cols = Number(play.dataset.cols) || 1, col = Number(play.dataset.centreCol) || 0;
        var box = area.getBoundingClientRect(), frameBox = play.getBoundingClientRect();
        var x = box.left - frameBox.left + play.scrollLeft + (col + 0.5) * (box.width / cols);
        play.scrollLeft = Math.max(0, x - play.clientWidth / 2);
      }
    }
    play.addEventListener("scroll", function () { if (!play.dataset.leaving) panned = play.scrollLeft; }, { passive: true });
  }
  // a swap empties the old frame first (its scroll falls to 0): keep where it was before that
  document.addEventListener("htmx:beforeSwap", function () {
    var play = document.querySelector(".fs-play[data-framed]");
    if (play) { panned = play.scrollLeft; play.dataset.leaving = "1"; }
  });
  function init() {
  frame();
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
