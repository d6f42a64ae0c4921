// panel.js — the side of the game page: whose turn it is (the aria-live line), each seat's name, colour,
// score and supply, the tiles left, and the countdown to the deadline. Drawn from the game view only.
const $ = (s) => document.getElementById(s);
const COLOURS = ["red", "blue", "yellow", "black", "purple", "white"];
let lastTurnText = "";

// The turn line is an aria-live region: it is written only when its text changes, so that a screen reader
// announces a new turn once, not every redraw.
export function drawTurn(v, n, mine) {
  let text;
  if (v.status === "cancelled") {
    // the admin ended it (POST /v1/admin/games/{id}/cancel): no winner, nothing pending
    text = "The game was cancelled: no winner.";
    $("turn").className = "over";
  } else if (v.status === "finished") {
    // the view's winners: the best of the seats still in, so never a seat that resigned or forfeited, whatever
    // its score (README, resign)
    const won = (v.winners || []).map((s) => v.players.find((p) => p.seat === s)).filter((p) => p);
    text = won.length === 0 ? "The game is over: no winner."
      : "The game is over. " + (won.length > 1 ? "Winners: " : "Winner: ") + won.map((p) => n[p.seat]).join(" and ") +
        " with " + won[0].score + " points.";
    $("turn").className = "over";
  } else {
    const s = v.pending ? v.pending.seat : null;
    const what = v.pending && v.pending.kind === "place" && v.pending.tile ? " (tile " + v.pending.tile + ")" : "";
    text = mine ? "Your turn" + what + "." : (s === null || s === undefined ? "Waiting." : n[s] + "'s turn" + what + ".");
    $("turn").className = mine ? "mine" : "";
  }
  if (text !== lastTurnText) { $("turn").textContent = text; lastTurnText = text; }
}

// me: the viewer's seat (null for the public)
export function drawPlayers(v, n, me) {
  const t = $("players");
  t.replaceChildren();
  const hs = v.hills_sheep, ft = v.fruit_trees, hw = v.halflings;
  for (const p of v.players) {
    const tr = document.createElement("tr");
    tr.dataset.seat = p.seat;
    if (v.pending && v.pending.seat === p.seat && v.status !== "finished") tr.className = "turn";
    const sup = [], s = p.supply || {};
    sup.push(s.meeple + " meeples");
    if (v.options && v.options.abbot) sup.push(s.abbot + " abbot");
    if (s.shepherd !== undefined) sup.push(s.shepherd ? "shepherd in hand" : "shepherd out");
    if (hs && hs.flocks[p.seat] && hs.flocks[p.seat].length) sup.push("flock " + hs.flocks[p.seat].join("+"));
    if (ft && ft.held[p.seat] && ft.held[p.seat].length) {
      // fruit values are for their owner's eyes on this page; the others see which fruits
      sup.push("fruit " + ft.held[p.seat].map((h) => h.fruit + (p.seat === me && h.value ? " " + h.value : "")).join(", "));
    }
    if (hw) {
      if (p.seat === me && v.you.hand) sup.push("hand " + (v.you.hand.join(" ") || "empty"));
      else if (hw.hand_sizes) sup.push(hw.hand_sizes[p.seat] + " triangles");
    }
    if (v.left && v.left.includes(p.seat)) sup.push("left the game");
    const cells = [["", "chip"], [n[p.seat] + (p.seat === me ? " (you)" : ""), "name"],
                   [String(p.score), "score"], [sup.join(" · "), "supply"]];
    for (const [text, cls] of cells) {
      const td = document.createElement("td");
      td.className = cls;
      td.textContent = text;
      tr.appendChild(td);
    }
    const dot = document.createElement("span");
    dot.className = "dot seat" + p.seat;
    dot.title = COLOURS[p.seat] || "";
    tr.firstChild.append(dot, " " + (p.seat + 1));   // the number the seat's figures carry on the board
    t.appendChild(tr);
  }
  $("stack").textContent = v.stack_left + " tiles left" + (v.halflings && v.halflings.pool && v.halflings.pool.length ? " · draft pool " + v.halflings.pool.join(" ") : "");
}

const EXPANSIONS = { hills_sheep: "Hills & Sheep", crop_circles: "Crop Circles", fruit_trees: "Fruit Trees",
                     halflings: "Halb so wild II" };

function perMove(s) {
  if (s % 86400) return Math.round(s / 3600) + " h";
  return s === 86400 ? "a day" : s / 86400 + " days";
}

// What a game is, in words: "3 players, Hills & Sheep, a day a move" (g: a lobby entry or a game's view).
export function gameSettings(g) {
  let exp = g.expansions && g.expansions.length ? g.expansions.map((e) => EXPANSIONS[e] || e).join(", ")
    : "the base game";
  if (g.options && g.options.river) exp += ", the River";
  const clock = g.clock && g.clock.per_move_s ? perMove(g.clock.per_move_s) + " a move" : "no clock";
  return g.seats + " players, " + exp + ", " + clock;
}

// A game that has not started (waiting for players, or cancelled before it started): the seats taken, by name
// in the order taken, and the places still open.
export function drawSeats(v) {
  const t = $("players");
  t.replaceChildren();
  const rows = v.players.map((p) => [p.seat, p.name]);
  for (let k = 0; k < (v.status === "waiting" ? v.open : 0); k++) rows.push([null, "an open seat"]);
  for (const [seat, name] of rows) {
    const tr = document.createElement("tr");
    const chip = document.createElement("td"), who = document.createElement("td");
    chip.className = "chip";
    who.className = seat === null ? "name open" : "name";
    who.textContent = name;
    if (seat !== null) {
      tr.dataset.seat = seat;
      const dot = document.createElement("span");
      dot.className = "dot seat" + seat;
      dot.title = COLOURS[seat] || "";
      chip.appendChild(dot);
    }
    tr.append(chip, who);
    t.appendChild(tr);
  }
  $("stack").textContent = gameSettings(v);
}

// The countdown to the deadline; skew: the server's clock minus ours (from the view's clock.now). A game that
// waits for its seats has no turn yet: the line says until when it waits (expires_at, CARCD_WAITING_TTL).
export function drawClock(view, names, me, skew) {
  const c = view && view.clock;
  const box = $("clock");
  if (view && view.status === "waiting") {
    box.textContent = view.expires_at ? "Open until " + new Date(view.expires_at).toLocaleString() +
      ": if nobody joins by then, the game is cancelled." : "";
    return;
  }
  if (!c || view.status === "finished") { box.textContent = ""; return; }
  if (c.paused) { box.textContent = "Clock paused by agreement."; return; }
  if (!c.deadline) { box.textContent = ""; return; }
  const left = Math.round((Date.parse(c.deadline) - (Date.now() + skew)) / 1000);
  const a = Math.abs(left), d = Math.floor(a / 86400);
  const hms = [Math.floor(a / 3600) % 24, Math.floor(a / 60) % 60, a % 60].map((k) => String(k).padStart(2, "0")).join(":");
  const whose = c.seat === me ? "Your" : names[c.seat] + "'s";
  box.textContent = whose + " deadline: " + (left < 0 ? "overdue by " : "") + (d ? d + "d " : "") + hms + (c.running ? "" : " (on vacation)");
}

