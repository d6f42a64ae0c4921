// main.js — the game page: loads the tile catalog and the game, draws it, follows the events stream and
// makes the seat's moves. The page calls only the public REST API (api.js), with the seat's token.
//
// State flows one way: the server's answers (view, legal moves, log) are the truth; after any change —
// an event on the stream, our own move, a refused move — the page asks again and redraws from them. Local
// state is only what the server does not know: the rotation and triangle being looked at.
import { token, asPlayer, get, post, follow, ApiError } from "./api.js";
import { chat, chatSeats } from "./chat.js";
import { drawBoard } from "./board.js";
import { drawChoices } from "./choices.js";
import { boardWords, cancelledWords, describe, turns } from "./words.js";
import { drawClock, drawPlayers, drawSeats, drawTurn } from "./panel.js";
import { invite, drawJoin, joinedNote, inviteNote } from "./join.js";
import { drawHost, forgetCreated } from "./host.js";
import { drawRematch } from "./rematch.js";
import { drawMail } from "./mailme.js";
import { drawLeave, leftNote } from "./leave.js";
import { botPlays, drawSeatBox } from "./seatbox.js";

const id = document.body.dataset.game;
const $ = (s) => document.getElementById(s);
const S = { tiles: new Map(), view: null, legal: [], entries: [], rot: 0, tile: null, busy: false, skew: 0 };

const names = () => (S.view ? S.view.players.map((p) => p.name || "seat " + p.seat) : []);
const me = () => (S.view && S.view.you ? S.view.you.seat : null);
// The page's heading and title, as the server writes them at load ("Carcassonne: Ann, Bob"), from the view:
// a game that starts while the page is open, or is cancelled before it starts, is named anew
function heading(v, n) {
  const t = v.board ? "Carcassonne: " + n.join(", ")
    : v.status === "cancelled" ? "Carcassonne: a cancelled game" : "Carcassonne: a game waiting for players";
  const h1 = document.querySelector("h1");
  if (h1.textContent !== t) h1.textContent = t;
  return t;
}

function fatal(text) {   // a bad token: this message and nothing else
  $("game").hidden = true;
  $("fatal").hidden = false;
  $("fatal-text").textContent = text;
  document.body.dataset.ready = "1";
  document.body.dataset.fatal = "1";
}

// ---- loading ---------------------------------------------------------------------------------------------
async function refresh() {
  const v = await get("/v1/games/" + id);
  let legal = [];
  // a seat a bot plays (its player left it to one) only reads: the bot makes its moves, not this page
  if (token && v.you && !botPlays(v, v.you.seat) && v.pending && v.pending.seat === v.you.seat && v.status !== "finished") {
    const l = await get("/v1/games/" + id + "/legal-moves");
    if (l.seq === v.seq) legal = l.moves; else return refresh();   // a move landed between the two reads
  }
  const changed = !S.view || S.view.seq !== v.seq;
  if (v.clock && v.clock.now) S.skew = Date.parse(v.clock.now) - Date.now();
  // the same state again (the stream's echo of our own move, say): no redraw, so that nothing under a
  // finger or the keyboard focus is replaced while it is being used
  const key = JSON.stringify([v, legal], (k, x) => (k === "now" || k === "updated_at" ? undefined : x));
  S.view = v;
  S.legal = legal;
  if (key === S.key) return;
  S.key = key;
  if (changed) pickDefaults();
  render();
}

let pending = null;   // one refresh at a time, and one more after it when asked meanwhile
function refreshSoon() {
  if (pending) { pending.again = true; return; }
  pending = { again: false };
  refresh().catch(showError).finally(() => {
    const again = pending.again;
    pending = null;
    if (again) refreshSoon();
  });
}

// The log up to the view's seq, page by page; the stream (follow) goes on from there.
async function loadLog(upto) {
  let after = -1;
  while (after < upto) {
    const j = await get("/v1/games/" + id + "/events?after=" + after);
    addEntries(j.entries || []);
    if (!j.entries || !j.entries.length || j.seq <= after) break;
    after = j.seq;
  }
  return after;
}

function addEntries(list) {
  for (const e of list) {
    if (S.entries.length && e.seq <= S.entries[S.entries.length - 1].seq) continue;
    S.entries.push(e);
  }
}

// ---- the decision ------------------------------------------------------------------------------------------
function squarePlaces() { return S.legal.filter((m) => m.type === "place" && S.tiles.get(m.tile).shape !== "triangle"); }

function pickDefaults() {
  const sq = squarePlaces();
  if (sq.length && !sq.some((m) => m.rot === S.rot)) S.rot = sq[0].rot;
  const tri = S.legal.filter((m) => m.type === "place" && S.tiles.get(m.tile).shape === "triangle");
  if (tri.length && !tri.some((m) => m.tile === S.tile)) S.tile = tri[0].tile;
}

// whether the tile turned: false when there is no tile to place
function rotate(delta) {
  const rots = new Set(squarePlaces().map((m) => m.rot));
  if (!rots.size) return false;
  let r = S.rot;
  do { r = (r + delta + 4) % 4; } while (!rots.has(r));
  S.rot = r;
  render(true);
  return true;
}

// A spot where the tile fits only turned otherwise: turn it until it fits there. The focus goes to the spot
// itself, now a choice (the keyboard pressed Enter on it: the next Enter places the tile there).
function spot(x, y) {
  const here = squarePlaces().filter((m) => m.x === x && m.y === y);
  for (let k = 1; k <= 4; k++) if (here.some((m) => m.rot === (S.rot + k) % 4)) { S.rot = (S.rot + k) % 4; break; }
  render(true);
  const m = here.find((p) => p.rot === S.rot);
  const c = m && document.querySelector('#board [data-notation="' + CSS.escape(m.notation) + '"]');
  if (c) c.focus({ preventScroll: true });
}

async function choose(m) {
  if (S.busy) return;
  S.busy = true;
  document.body.dataset.busy = "1";
  $("problem").hidden = true;
  try {
    await post("/v1/games/" + id + "/moves", { notation: m.notation, expected_seq: S.view.seq });
  } catch (e) {
    // refused (the clock or another seat moved meanwhile, say): the server's reason, then the state now
    const p = e instanceof ApiError && e.problem;
    $("problem").textContent = "Move refused: " + (p ? (p.title || "") + (p.detail ? " — " + p.detail : "") : e.message);
    $("problem").hidden = false;
  }
  try { await refresh(); } catch (e) { showError(e); }
  S.busy = false;
  document.body.dataset.busy = "0";
}

function notice(text) {   // a standing word to the reader (an invitation's fate, a join just made); "" hides it
  $("notice").textContent = text;
  $("notice").hidden = !text;
}

function showError(e) {
  if (e instanceof ApiError && (e.status === 401 || e.status === 403)) return fatal(tokenMessage(e));
  $("problem").textContent = "Could not load the game: " + e.message;
  $("problem").hidden = false;
}

function tokenMessage(e) {
  // a seat given up before the start says so (sql/032): the person holding its link learns what became of it
  const type = (e.problem && e.problem.type) || "";
  if (type === "/problems/seat-removed")
    return "The player who created this game removed you from it before it started, and this link no longer " +
           "opens a seat. If that was a mistake, ask them for a new invitation.";
  if (type === "/problems/seat-given-up")
    return "You left this game before it started, and this link no longer opens a seat. To play after all, " +
           "take an open place again while the game still waits for its players.";
  return "This link's token does not open this game (it is wrong, or no longer valid): " +
         ((e.problem && e.problem.detail) || "HTTP " + e.status) + ". Ask for a new link.";
}

// ---- drawing ------------------------------------------------------------------------------------------------
// The focused control's key, to find it again in the redraw: a choice's notation, or a control's data-focus
// (the rotate and triangle buttons, choices.js); null when the focus is on none of them.
function focusKey(e) {
  if (!e || !e.getAttribute) return null;
  const n = e.getAttribute("data-notation");
  if (n !== null) return '[data-notation="' + CSS.escape(n) + '"]';
  const f = e.getAttribute("data-focus");
  return f !== null ? '[data-focus="' + CSS.escape(f) + '"]' : null;
}

// keepFocus: the keyboard was turning the tile. Any redraw (a move on the stream, our own move) keeps the
// focus of a keyboard user in the choices: on the same control when it is still there (a second Enter on
// "turn the tile" turns it again, never places it), else the first choice; when the seat has no choice left
// (its move ended its turn), on the turn line, which says whose turn it is. A turn that comes back to a page
// whose focus is nowhere (the turn line, the page) brings it to the first choice.
function render(keepFocus) {
  const v = S.view;
  const n = names();
  chatSeats(v);   // the mute buttons follow the seats' names and numbers
  // not started: no board yet (the lobby). A game the admin cancelled under way has one, drawn as any other.
  if (v.status === "waiting" || (v.status === "cancelled" && !v.board)) {
    document.title = heading(v, n);
    $("turn").textContent = v.status === "cancelled" ? "This game " + cancelledWords(v) + "."
      : "This game waits for " + v.open + " more player" + (v.open === 1 ? "" : "s") + " to join.";
    $("board").replaceChildren();
    $("replay-box").hidden = true;   // no board to replay (its pictures are a 409 before the start)
    $("board-words-box").hidden = true;
    drawSeats(v);
    tick();   // until when it waits
    if (invite && v.status === "waiting") drawJoin($("choices"), id, v);   // a person invited: the join form
    else if (token && v.status === "waiting") drawHost($("choices"), id, v, refreshSoon);   // its creator's part
    else $("choices").replaceChildren();
    drawMail($("mail-box"), id, v, refreshSoon);   // a seat's address, kept for the start
    drawLeave($("leave-box"), id, v);   // a seat that joined can give it back before the start
    if (v.status === "cancelled") forgetCreated(id);
    if (invite) notice(inviteNote(v));
    document.body.dataset.seq = String(v.seq);
    document.body.dataset.ready = "1";
    return;
  }
  if (invite) notice(inviteNote(v));
  $("replay-box").hidden = false;
  $("board-words-box").hidden = false;
  forgetCreated(id);   // started: the links and the creator token it kept serve nothing any more
  const act = document.activeElement;
  const focused = focusKey(act);
  const nowhere = !act || act === document.body || act === $("turn");
  keepFocus = keepFocus || !!focused || !!(act && act.closest && act.closest("#choices"));
  const mine = S.legal.length > 0;
  drawBoard($("board"), {
    view: v, tiles: S.tiles, names: n, moves: S.legal, rot: S.rot, tile: S.tile,
    lastPiece: v.board.length > 1 ? v.board.length - 1 : -1,
    onChoose: choose, onSpot: spot, onWho: (t) => { $("who").textContent = t; },
  });
  const piece = v.pending && v.pending.piece !== undefined ? v.board[v.pending.piece] : null;
  drawChoices($("choices"), { kind: v.pending && v.pending.kind, moves: S.legal, tiles: S.tiles, rot: S.rot, piece,
                              tile: S.tile, onChoose: choose, onRotate: rotate, onTile: (t) => { S.tile = t; render(true); } });
  if (v.status === "finished" && token && v.you) drawRematch($("choices"), id);   // a seat: "Play again"
  const first = () => document.querySelector("#choices [data-notation], #board .choice:not(.off)");
  if (keepFocus) {   // the keyboard stays where it was: the same control, or the first choice shown
    const again = focused && document.querySelector(focused);
    const target = again && !again.closest(".off") ? again : first();
    if (target) target.focus({ preventScroll: !again });
    else $("turn").focus({ preventScroll: true });
  } else if (nowhere && mine && first()) {
    first().focus({ preventScroll: true });
  }
  drawPlayers(v, n, me());
  // below everything else in the column: appearing moves nothing
  drawSeatBox($("seat-box"), id, v, refreshSoon);
  drawLeave($("leave-box"), id, v);   // hidden: the game no longer waits
  drawMail($("mail-box"), id, v, refreshSoon);
  $("replay").max = String(v.seq);
  drawTurn(v, n, mine);
  // a game played over the day sits in a background tab: its title is what calls the player back
  document.title = (mine ? "Your turn \u2014 " : "") + heading(v, n);
  drawLog(n);
  if ($("board-words-box").open) drawBoardWords(n);
  tick();
  document.body.dataset.seq = String(v.seq);
  document.body.dataset.ready = "1";
}

function featureOf(x, y, part, corner) {
  const p = S.view.board.find((b) => b.x === x && b.y === y && (corner === undefined || b.rot === corner));
  const tile = p && S.tiles.get(p.tile);
  const seg = tile && tile.segments.find((s) => s.part === part);
  return seg ? seg.feature : null;
}

let logCount = -1, logLoaded = false;   // logLoaded: the log as it was at load is drawn (start)
function drawLog(n) {
  if (logCount === S.entries.length) return;
  const before = logCount;
  logCount = S.entries.length;
  const ol = $("log");
  ol.replaceChildren();
  const ctx = { names: n, tiles: S.tiles, me: me(), featureOf };
  for (const t of turns(S.entries)) {
    const li = document.createElement("li");
    li.dataset.seq = t.entries[t.entries.length - 1].seq;
    li.textContent = describe(t.entries, ctx) || "(nothing you may see)";
    ol.appendChild(li);
  }
  // the list scrolls to its newest entry, the page stays: scrollIntoView would scroll the window too, and on a
  // phone, where the log is below the board, move the board out from under a finger at every move
  $("log-scroll").scrollTop = $("log-scroll").scrollHeight;
  // a move that came after the page loaded is said aloud (a live region): the board says nothing to a screen
  // reader, and the turn line only whose turn it is now
  if (logLoaded && before >= 0 && ol.lastElementChild) $("news").textContent = ol.lastElementChild.textContent;
}

// the board in words, a line a piece: written while its box is open (a long game has a hundred and more)
function drawBoardWords(n) {
  $("board-words").replaceChildren(...boardWords(S.view, S.tiles, n).map((t) => {
    const li = document.createElement("li");
    li.textContent = t;
    return li;
  }));
}
$("board-words-box").addEventListener("toggle", () => {
  if ($("board-words-box").open && S.view) drawBoardWords(names());
});

// the replay: board.svg of any earlier seq, as the public sees it (an <img> sends no token)
function replay() {
  const r = $("replay"), n = Number(r.value);
  $("replay-label").textContent = "after move " + n + " of " + S.view.seq;
  $("replay-img").src = "/v1/games/" + id + "/board.svg?seq=" + n;
  $("replay-img").hidden = false;
}
$("replay").addEventListener("input", replay);
$("replay-box").addEventListener("toggle", () => { if ($("replay-box").open) { $("replay").max = String(S.view.seq); $("replay").value = String(S.view.seq); replay(); } });

function tick() { drawClock(S.view, names(), me(), S.skew); }   // once a second, from the last view

// ---- start ---------------------------------------------------------------------------------------------------
// R turns the tile, anywhere on the page but where something is typed: a name, the table talk, an address
document.addEventListener("keydown", (ev) => {
  if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.isComposing) return;
  const t = ev.target;
  if (t instanceof Element && (t.isContentEditable || t.closest("input, textarea, select"))) return;
  if ((ev.key === "r" || ev.key === "R") && rotate(ev.shiftKey ? -1 : 1)) ev.preventDefault();
});
setInterval(tick, 1000);
// What makes no log entry, the stream says nothing of: a waiting game's seats taken (its log is empty until it
// starts), and a running turn clock paused, resumed or pushed by a vacation. So the game is read again while
// the tab is in view: every 10 s while it waits, every 20 s while a clock runs, and at once when the tab comes
// back into view (one GET; the start and the moves come down the stream). A tab in the background asks nothing.
let reads = 0;
function readAgain() {
  const v = S.view;
  if (!v || document.visibilityState !== "visible") return;
  if (v.status === "waiting" || (v.status === "active" && v.clock && reads++ % 2 === 0)) refreshSoon();
}
setInterval(readAgain, 10000);
document.addEventListener("visibilitychange", () => { reads = 0; readAgain(); });

(async function start() {
  try {
    const cat = await get("/v1/tiles");
    for (const t of cat.tiles) S.tiles.set(t.id, t);
    // the chat column, when there is one, is in the layout before the board is first drawn: it appearing
    // later narrowed the board's column and moved the board under a pointer (its reads ran meanwhile)
    const talk = await chat;   // the table talk rides on the same stream (api.js: follow)
    const joined = joinedNote() || leftNote() ||
      (asPlayer && !token ? "This browser keeps no player key, so the game is shown as anyone sees it: open it " +
                            "from the lobby of the browser you play in." : "");
    await refresh();
    if (joined) notice(joined);
    const started = !!S.view.board;
    if (token && started && !S.view.you) return fatal("This link's token does not open this game. Ask for a new link.");
    const after = await loadLog(S.view.seq);
    // the log only: the board and choices are usable since the first render, and drawing them again here
    // would replace a choice under a pointer already pressing it (its click then lost)
    drawLog(names());
    logLoaded = true;
    follow(id, after, (entry) => { addEntries([entry]); refreshSoon(); },
           (live) => { document.body.dataset.live = live ? "1" : "0"; }, talk);
  } catch (e) {
    if (e instanceof ApiError && (e.status === 401 || e.status === 403)) fatal(tokenMessage(e));
    else { showError(e); document.body.dataset.ready = "1"; }
  }
})();
