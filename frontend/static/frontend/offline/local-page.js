// The page of a match started on this phone (/matches/local-<uuid>/, one shell for all, kept by the service
// worker): filled from IndexedDB (local.js), then run by table.js like any match page: the local position's turn
// line and legal moves, entries checked by the in-browser rules and queued; on reconnect the match is created
// (with its key) and the page follows it to /matches/<id>/. See docs/ARCHITECTURE.md › A match started offline.
import * as queue from "./queue.js";
import { LOCAL_PATH } from "./local.js";

function text(id, value) {
  const node = document.getElementById(id);
  if (node) node.textContent = value;
}

async function open() {
  const m = location.pathname.match(LOCAL_PATH);
  const row = m ? await queue.getLocal(m[1]) : undefined;
  if (row && row.real) {  // created on the server since: this address follows it
    location.replace(`/matches/${row.real}/`);
    return;
  }
  if (!row) {
    document.getElementById("local-missing").hidden = false;
    document.getElementById("record").style.display = "none";
    return;
  }
  const names = row.position.seat_names;
  document.title = `${row.body.title || row.game_name} (on this phone) · Chronicle`;
  text("local-title", row.body.title || row.game_name);
  text("local-game", row.game_name);
  const players = document.getElementById("local-players");
  names.forEach((name) => {
    const li = document.createElement("li");
    const span = document.createElement("span");
    span.textContent = name;
    li.appendChild(span);
    players.appendChild(li);
  });
  const forms = document.getElementById("local-forms");
  forms.innerHTML = row.forms || "";  // the game's entry forms, drawn by the server on the new-match page
  forms.querySelectorAll("select[name=seat] option").forEach((o) => {
    if (o.value !== "" && names[Number(o.value)] !== undefined) o.textContent = names[Number(o.value)];
  });
  if (row.refused) text("local-note", `The server did not create this match: ${row.refused.detail || "it refused it"}. It and its moves stay on this phone.`);
  if (row.engine && row.engine.board_stylesheet) {  // the board (drawn by table.js with rules.board) and its styles
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = row.engine.board_stylesheet;
    document.head.appendChild(link);
  }
  document.getElementById("board").hidden = false;
  // what the board knows of the match (frontend.boards.shared.TableFacts.seed), as the server would say it for a recorder
  const board = {
    title: row.body.title || "", page_url: location.pathname, record_url: `${location.pathname}record/`,
    reader_seat: null, reader_records: true, times: {}, moves: {},
  };
  const seed = document.createElement("script");
  seed.type = "application/json";
  seed.id = "offline-seed";
  seed.textContent = JSON.stringify({
    ...row.engine, ...row.position, match: row.id, local: true, can_record: true, reader_seat: null, events_url: null,
    board,
  });
  const live = document.getElementById("match-live");
  live.insertBefore(seed, live.firstChild);
  live.dataset.page = location.pathname;
  // the legal-move list is shown while the rules list moves here (some games cannot, in some phases or at all)
  const select = document.getElementById("id_move");
  const listed = () => { select.closest("form").style.display = select.options.length ? "" : "none"; };
  listed();
  new MutationObserver(listed).observe(select, { childList: true });
  await import("./table.js");
}

open();
