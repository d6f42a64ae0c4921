// choices.js — the panel above the board for the current decision: what the game waits for, the drawn
// tile with its rotation buttons, the triangle chooser, and a button for each legal move that has no place
// on the board (pass, draw, grow or stable, add or remove, skip, harvest, sell, draft, the abbot's return).
//
// Generic on purpose: the legal-moves list drives it. A move kind this file does not know still gets a
// button labelled with its label or notation, so a new kind of move needs no code here to be playable.
import { el, drawPiece } from "./tile.js";
import { drawMarks } from "./board.js";
import { facesWords, whereWords } from "./words.js";

// drawn on the board, not as buttons (the crop circle's follower actions are on the board and buttons too: their
// marks sit on the followers they act on, small on a phone)
const ON_BOARD = new Set(["place", "figure"]);
// what a button says for the moves whose notation is a bare word (the legal move's label wins when it has one)
const SAYS = {
  pass: { fruit: "Neither harvest nor sell", figure: "No figure" },
  draw: "Draw a tile",
  grow: "Let the flock grow (draw a sheep token)",
  stable: "Bring the flock to the stable (score it)",
  crop_circle_add: "Every seat adds a follower",
  crop_circle_remove: "Every seat takes a follower back",
  crop_circle_skip: "Skip: add or take back no follower",
  abbot_return: "Take your abbot back (and score it)",
  harvest: (m) => "Harvest the tree " + whereWords(m.x, m.y),
  sell: (m) => "Sell " + (m.fruits || []).join(", "),
};
function says(m, kind) {
  if (m.label) return m.label;
  const w = SAYS[m.type];
  const text = typeof w === "function" ? w(m) : w && typeof w === "object" ? w[kind] : w;
  return text || m.notation;
}
const ASK = {
  place: "Place your tile: choose a highlighted spot.",
  figure: "Put a figure on a highlighted segment of your tile, or pass.",
  draw_or_triangle: "Draw a tile, or place a triangle from your hand on a half space.",
  fruit: "Harvest a fruit tree or sell fruit tokens.",
  flock: "Your flock: let it grow, or bring it to the stable.",
  crop_circle_choice: "Crop circle: does every seat add or remove a follower?",
  crop_circle_action: "Crop circle: choose a highlighted follower spot.",
  draft: "Draft: take a triangle.",
};

function button(parent, text, cls, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls || "";
  b.textContent = text;
  b.addEventListener("click", onClick);
  parent.appendChild(b);
  return b;
}

function tileIcon(parent, tile, rot, onClick) {
  const svg = el("svg", { viewBox: "-0.05 -0.05 1.1 1.1", class: "tile-icon", width: "64", height: "64" }, parent);
  drawPiece(svg, tile, rot, "");
  if (onClick) svg.addEventListener("click", onClick);
  return svg;
}

// o: { kind, moves, tiles, rot, tile, piece (the piece placed this turn, for the figure step), onChoose,
//      onRotate(delta), onTile(id) }
export function drawChoices(box, o) {
  box.replaceChildren();
  if (!o.moves || !o.moves.length) return;
  const p = document.createElement("p");
  p.className = "ask";
  p.textContent = ASK[o.kind] || "Your move.";
  box.appendChild(p);
  const places = o.moves.filter((m) => m.type === "place");
  const squares = places.filter((m) => o.tiles.get(m.tile).shape !== "triangle");
  if (squares.length) {
    const row = document.createElement("div");
    row.className = "rotate";
    const left = button(row, "⟲", "rot-left", () => o.onRotate(-1));
    left.setAttribute("aria-label", "turn the tile anticlockwise");
    left.dataset.focus = "rot-left";   // main.js gives the keyboard's focus back to it after the redraw
    const tile = o.tiles.get(squares[0].tile);
    const icon = tileIcon(row, tile, o.rot, () => o.onRotate(1));
    icon.setAttribute("role", "img");
    icon.setAttribute("aria-label", "tile " + squares[0].tile + ", turned " + o.rot + " quarter turns: " +
                                    facesWords(tile, o.rot) + "; tap to turn it");
    icon.id = "drawn-tile";
    const right = button(row, "⟳", "rot-right", () => o.onRotate(1));
    right.setAttribute("aria-label", "turn the tile clockwise");
    right.dataset.focus = "rot-right";
    const note = document.createElement("span");
    note.className = "hint";
    note.textContent = "tile " + squares[0].tile + " r" + o.rot + " · keys R / Shift+R turn it, Tab moves between spots";
    row.appendChild(note);
    box.appendChild(row);
  }
  const triangles = [...new Set(places.filter((m) => o.tiles.get(m.tile).shape === "triangle").map((m) => m.tile))];
  if (triangles.length) {
    const row = document.createElement("div");
    row.className = "hand";
    for (const id of triangles) {
      const b = button(row, "", "triangle-pick" + (id === o.tile ? " chosen" : ""), () => o.onTile(id));
      b.setAttribute("aria-pressed", String(id === o.tile));
      b.setAttribute("aria-label", "triangle " + id + ": " + facesWords(o.tiles.get(id), 0));
      b.dataset.focus = "triangle-" + id;
      tileIcon(b, o.tiles.get(id), 0, null);
    }
    const note = document.createElement("span");
    note.className = "hint";
    note.textContent = "choose a triangle, then a highlighted half space";
    row.appendChild(note);
    box.appendChild(row);
  }
  const figures = o.moves.filter((m) => m.type === "figure");
  if (figures.length && o.piece) {
    // the tile just placed, drawn large with a mark on each segment a figure may take: far enough apart
    // for a finger (on the board they would be a few pixels apart on a phone)
    const tile = o.tiles.get(o.piece.tile);
    const svg = el("svg", { viewBox: "-0.04 -0.04 1.08 1.08", class: "figure-pick", role: "group",
                            "aria-label": "tile " + tile.id + " just placed: its segments" }, box);
    drawMarks(drawPiece(svg, tile, o.piece.rot, ""), tile, o.piece.rot, figures, o.onChoose);
  }
  const row = document.createElement("div");
  row.className = "buttons";
  for (const m of o.moves) {
    if (ON_BOARD.has(m.type)) continue;
    const b = button(row, says(m, o.kind), "move " + m.type, () => o.onChoose(m));
    b.setAttribute("data-notation", m.notation);
    if (m.type === "draft" && o.tiles.get(m.tile)) tileIcon(b, o.tiles.get(m.tile), 0, null);
  }
  if (row.children.length) box.appendChild(row);
}
