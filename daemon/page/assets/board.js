// board.js — the board as SVG in the DOM, drawn from the game view and the tile catalog, with the legal
// choices of the current decision on it: every element a player can click for a move carries
// data-notation (the move's notation), is focusable and answers Enter and Space as a click.
//
// SVG user units are tiles: the piece at x, y lies in the box [x, x+1) x [y, y+1).
import { el, drawPiece, anchorOf, NS } from "./tile.js";
import { spotWords, whereWords } from "./words.js";

const PX_MIN = 56;   // a tile is never drawn smaller than this on screen: a finger must hit a spot

// A clickable, focusable choice (an SVG element) for move `m`.
export function choiceAttrs(node, m, onChoose) {
  node.setAttribute("data-notation", m.notation);
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", m.label || m.notation);
  const t = document.createElementNS(NS, "title");
  t.textContent = m.label || m.notation;
  node.appendChild(t);
  node.addEventListener("click", (ev) => { ev.stopPropagation(); onChoose(m); });
  node.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); onChoose(m); }
  });
}

function figureMark(parent, fig, at, names, onWho) {
  const [x, y] = at;
  const cls = "figure seat" + fig.seat;
  const g = el("g", { class: "fig" }, parent);
  el("circle", { cx: x, cy: y, r: 0.16, class: "fig-hit" }, g);   // a finger-sized target round the figure
  let f;
  if (fig.figure === "abbot") f = el("rect", { x: x - 0.08, y: y - 0.1, width: 0.16, height: 0.2, class: cls }, g);
  else if (fig.figure === "shepherd") f = el("path", { d: `M${x},${y - 0.12}L${x + 0.1},${y + 0.09}L${x - 0.1},${y + 0.09}Z`, class: cls }, g);
  else f = el("path", { d: `M${x},${y - 0.12}a0.045,0.045 0 1 1 0.001,0L${x + 0.1},${y + 0.1}H${x - 0.1}Z`, class: cls }, g);
  // the owner's number as well as its colour (the players' table numbers them the same): a colour alone tells
  // nothing to a player who cannot tell red from green, nor yellow and white apart on the board
  const num = el("text", { x, y: y + 0.05, class: "fig-seat" }, g);
  num.textContent = String(fig.seat + 1);
  const owner = (names[fig.seat] || "seat " + fig.seat) + "'s " + fig.figure;
  const t = document.createElementNS(NS, "title");
  t.textContent = owner;
  g.appendChild(t);
  g.addEventListener("click", () => onWho(owner));   // a tap names the owner (no hover on a phone)
}

// Draws everything into `box` (replacing what was there). o: { view, tiles (Map), names, moves (the
// current decision's legal moves), rot, tile (the chosen tile of a triangle choice), onChoose(m),
// onSpot(x, y) (a spot that fits only at other rotations), onWho(text) }.
export function drawBoard(box, o) {
  const v = o.view;
  const board = v.board || [];
  const places = (o.moves || []).filter((m) => m.type === "place");
  let x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  for (const p of board.concat(places)) {
    x0 = Math.min(x0, p.x); y0 = Math.min(y0, p.y); x1 = Math.max(x1, p.x); y1 = Math.max(y1, p.y);
  }
  x0 -= 1; y0 -= 1; x1 += 2; y1 += 2;
  const w = x1 - x0, h = y1 - y0;
  const svg = el("svg", { viewBox: `${x0} ${y0} ${w} ${h}`, class: "board", "data-seq": String(v.seq),
                          "data-pieces": String(board.length), role: "group",
                          "aria-label": "the board, " + board.length + " piece" + (board.length === 1 ? "" : "s") });
  // wide enough for PX_MIN per tile; the box scrolls when the board is larger than the screen
  svg.setAttribute("width", String(Math.max(w * PX_MIN, Math.min(box.clientWidth || 600, w * 110))));
  el("rect", { x: x0, y: y0, width: w, height: h, class: "table" }, svg);
  const put = (x, y) => el("g", { transform: `translate(${x},${y})` }, svg);

  const pieceAt = new Map();
  board.forEach((p, i) => {
    const tile = o.tiles.get(p.tile);
    if (!tile) return;
    pieceAt.set(p.x + "," + p.y + (tile.shape === "triangle" ? "/" + p.rot : ""), i);
    const g = drawPiece(put(p.x, p.y), tile, p.rot, i === o.lastPiece ? "last" : "");
    g.setAttribute("data-tile", p.tile);
  });
  for (const t of (v.fruit_trees && v.fruit_trees.trees) || []) {
    const g = put(t.x, t.y);
    const tx = el("text", { x: 0.8, y: 0.95, class: "fruit-label" }, g);
    tx.textContent = t.fruit + " " + t.left;
  }
  for (const f of v.figures || []) {
    const p = board[f.piece];
    if (!p) continue;
    const a = anchorOf(o.tiles.get(p.tile), p.rot, f.part);
    figureMark(put(p.x, p.y), f, a, o.names, o.onWho);
  }

  // the choices: tile placements (only the chosen rotation's shown), figures and crop-circle actions on
  // their segments; the other kinds of move are buttons (choices.js)
  const rotFits = new Set();
  for (const m of places) {
    const tile = o.tiles.get(m.tile);
    const tri = tile.shape === "triangle";
    const shown = tri ? m.tile === o.tile : m.rot === o.rot;
    if (!tri && shown) rotFits.add(m.x + "," + m.y);
    const g = put(m.x, m.y);
    const c = el("g", { class: "choice spot" + (shown ? "" : " off") }, g);
    drawPiece(c, tile, m.rot, "preview");
    // the notation names the spot for a program; a person who cannot see the board hears where and how
    choiceAttrs(c, m.label ? m : Object.assign({}, m, { label: spotWords(m, tile) }), o.onChoose);
  }
  const spots = new Set();
  for (const m of places) {
    const k = m.x + "," + m.y;
    if (o.tiles.get(m.tile).shape === "triangle" || rotFits.has(k) || spots.has(k)) continue;
    spots.add(k);   // fits here, but turned otherwise: a tap turns the tile until it fits
    const r = el("rect", { x: m.x + 0.06, y: m.y + 0.06, width: 0.88, height: 0.88, class: "other-rot" }, svg);
    r.addEventListener("click", () => o.onSpot(m.x, m.y));
    // a keyboard reaches it too (Tab, then Enter): without it, R was the only way to learn of such a spot
    r.setAttribute("tabindex", "0");
    r.setAttribute("role", "button");
    r.setAttribute("aria-label", "turn the tile to fit " + whereWords(m.x, m.y));
    r.dataset.at = k;
    r.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); o.onSpot(m.x, m.y); }
    });
  }
  // crop-circle actions on the pieces they name (the figure step is drawn large in the panel: choices.js)
  const byPiece = new Map();
  for (const m of o.moves || []) {
    if (m.type !== "crop_circle_figure") continue;
    const i = pieceAt.has(m.x + "," + m.y) ? pieceAt.get(m.x + "," + m.y) : pieceAt.get(m.x + "," + m.y + "/" + m.corner);
    if (i === undefined) continue;
    byPiece.set(i, (byPiece.get(i) || []).concat([m]));
  }
  for (const [i, ms] of byPiece) {
    const p = board[i];
    drawMarks(put(p.x, p.y), o.tiles.get(p.tile), p.rot, ms, o.onChoose);
  }
  box.replaceChildren(svg);
  return svg;
}

// The figure choices `moves` on one piece (tile turned rot) into <g> `g` of its 1x1 box: one mark per move
// on its segment; several figures for one segment (meeple, abbot, shepherd) stand side by side.
export function drawMarks(g, tile, rot, moves, onChoose) {
  const same = new Map();
  for (const m of moves) same.set(m.part, (same.get(m.part) || []).concat([m]));
  for (const m of moves) {
    const a = anchorOf(tile, rot, m.part);
    const group = same.get(m.part), n = group.length;
    a[0] += (group.indexOf(m) - (n - 1) / 2) * 0.22;
    const c = el("g", { class: "choice mark t-" + m.type + (m.figure ? " " + m.figure : "") }, g);
    el("circle", { cx: a[0], cy: a[1], r: 0.1, class: "hit" }, c);
    el("circle", { cx: a[0], cy: a[1], r: 0.07, class: "dot" }, c);
    if (m.figure && m.figure !== "meeple") {   // which figure, when it is not the plain meeple
      const t = el("text", { x: a[0], y: a[1] + 0.025, class: "mark-kind" }, c);
      t.textContent = m.figure[0].toUpperCase();
    }
    choiceAttrs(c, m, onChoose);
  }
}
