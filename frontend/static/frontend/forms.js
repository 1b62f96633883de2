// Progressive enhancement of the schema-driven forms (frontend/forms/schema.py); every form works without this file.
// Run at load and again on each part of the page swapped in place (htmx:load); each element is set up once.
(function () {
  "use strict";
  var armed = null;  // the cell field waiting for a tap on the board
  var note = document.createElement("p");
  note.className = "cell-pick-note";
  note.setAttribute("role", "status");
  var boardNow = function () { return document.getElementById("board"); };
  function disarm() {
    armed = null;
    if (boardNow()) boardNow().classList.remove("is-picking-cell");
    note.remove();
  }
  document.addEventListener("keydown", function (e) { if (armed && e.key === "Escape") disarm(); });

  function init() {

  // A cell field (two labelled numbers) gets "Tap it on the board": the next tap on a cell of the board
  // (any element with data-cell="a,b" in #board) fills the two numbers, and the page returns to the field.
  // The board and the fields are set up apart: a live update may redraw one without the other (app.js).
  var board = boardNow();
  var cellFields = document.querySelectorAll("fieldset[data-cell-field]");
  if (board && cellFields.length && board.querySelector("[data-cell]")) {
    cellFields.forEach(function (field) {
      if (field.dataset.cellPick) return;
      field.dataset.cellPick = "1";
      var button = document.createElement("button");
      button.type = "button";
      button.className = "secondary small cell-pick";
      button.textContent = "Tap it on the board";
      button.setAttribute("aria-controls", field.id);
      field.querySelector(".cell-inputs").appendChild(button);
      button.addEventListener("click", function () {
        var now = boardNow();
        if (!now) return;
        armed = field;
        now.classList.add("is-picking-cell");
        // a keyboard's Escape is said where there is a keyboard; a phone gets a button (issue 43)
        var keys = window.matchMedia && window.matchMedia("(hover: hover) and (pointer: fine)").matches;
        note.textContent = "Tap a cell for “" + field.querySelector("legend").textContent + "”" + (keys ? " (Esc to cancel)." : ". ");
        if (!keys) {
          var cancel = document.createElement("button");
          cancel.type = "button";
          cancel.className = "secondary small";
          cancel.textContent = "Cancel";
          cancel.addEventListener("click", function (ev) { ev.stopPropagation(); var f = armed; disarm(); if (f) f.scrollIntoView({ block: "center" }); });
          note.appendChild(cancel);
        }
        now.insertBefore(note, now.firstChild);
        now.scrollIntoView({ block: "start" });
      });
    });
  }
  if (board && !board.dataset.cellPick && cellFields.length) {
    board.dataset.cellPick = "1";
    var cellAt = function (x, y) {
      var hits = document.elementsFromPoint(x, y);
      for (var i = 0; i < hits.length; i++) {
        var el = hits[i].closest ? hits[i].closest("[data-cell]") : null;
        if (el && board.contains(el)) return el.getAttribute("data-cell");
      }
      return null;
    };
    // capture: while a field waits for a tap, the board's own links and buttons do not fire
    board.addEventListener("click", function (e) {
      if (!armed || note.contains(e.target)) return;  // the note's own Cancel
      e.preventDefault();
      e.stopPropagation();
      var cell = cellAt(e.clientX, e.clientY);
      if (!cell) return;
      if (!armed.isConnected) { disarm(); return; }  // its form was redrawn meanwhile
      // data-cell holds the cell as stored ("row,col" from 0, or Get Salty's "x,y"); the inputs (named .0 and .1,
      // shown column first) count as the board's edges do, from data-first (rulesets/cells.py)
      var parts = cell.split(","), first = parseInt(armed.getAttribute("data-first") || "0", 10), input;
      for (var k = 0; k < 2; k++) {
        input = armed.querySelector('.cell-inputs input[name$=".' + k + '"]');
        input.value = String(parseInt(parts[k], 10) + first);
      }
      input.dispatchEvent(new Event("input", { bubbles: true }));  // the live update keeps typed forms
      var field = armed;
      disarm();
      field.scrollIntoView({ block: "center" });
      field.querySelector(".cell-pick").focus({ preventScroll: true });
    }, true);
  }

  // The town form: each row shows only the fields of the action chosen in it (all groups stay in the page,
  // labelled per action, when this file does not run).
  document.querySelectorAll("[data-town-row]").forEach(function (row) {
    if (row.dataset.townReady) return;
    row.dataset.townReady = "1";
    var select = row.querySelector("select[data-town-action]");
    var show = function () {
      row.querySelectorAll(".town-sub").forEach(function (group) {
        group.hidden = group.dataset.action !== select.value;
      });
    };
    select.addEventListener("change", show);
    show();
  });
  }
  init();
  document.addEventListener("htmx:load", init);

  // The new-match form: a typed name the owner gave someone's account seats that account (the server does so
  // too, matches.services), so the "Seat an account" choice beside it shows that account openly; a choice
  // made here follows the name, one picked by hand is kept.
  document.addEventListener("input", function (e) {
    var input = e.target;
    if (!input.matches || !input.matches("input[list=known-players]")) return;
    var select = document.querySelector('select[data-seat-account="' + input.id + '"]');
    if (!select) return;
    var typed = input.value.trim().replace(/\s+/g, " ").toLowerCase(), match = null;
    Array.prototype.forEach.call(select.options, function (o) {
      if (o.value && (o.dataset.name || "").toLowerCase() === typed) match = o;
    });
    if (match) {
      select.value = match.value;
      select.dataset.byName = match.value;
    } else if (select.dataset.byName && select.value === select.dataset.byName) {
      select.value = "";
      delete select.dataset.byName;
    }
  });
})();
