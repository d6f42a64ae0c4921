// words.js — the move log in words: "Ann placed a city tile and a knight", not piece_placed / r1.
//
// The log comes from the events entries (GET /events, the SSE stream). One line per turn: entries of the
// same seat until the entry that passes the turn on (it carries a `turn` event) make one line.
const FOLLOWER = { city: "knight", road: "robber", field: "farmer", cloister: "monk", garden: "monk" };

export function tileKind(tile) {
  if (!tile) return "a tile";
  if (tile.shape === "triangle") return "a triangle " + tile.id;
  const f = new Set(tile.segments.map((s) => s.feature));
  if (f.has("river")) return f.has("city") || f.has("road") || f.has("cloister") ? "a river tile with " +
    (f.has("cloister") ? "a cloister" : f.has("city") ? "a city" : "a road") : "a river tile";
  if (f.has("cloister")) return "a cloister tile";
  if (f.has("garden")) return "a garden tile";
  if (f.has("city")) return "a city tile";
  if (f.has("road")) return "a road tile";
  return "a field tile";
}

const DIRS = ["north", "east", "south", "west"];

// A tile's sides as they lie turned `rot` quarter turns clockwise: "north city, east road, south field, west
// road"; a triangle's short sides and long side (its corner says where it lies).
export function facesWords(tile, rot) {
  if (!tile || !tile.sides) return "";
  const s = tile.sides;
  if (tile.shape === "triangle") return "short sides " + s.N + " and " + s.W + ", long side " + s.D;
  const at = ["N", "E", "S", "W"];
  return DIRS.map((d, i) => d + " " + s[at[(i - rot + 4) % 4]]).join(", ");
}

// Where x, y lies from the start tile: "2 east and 1 south of the start tile".
export function whereWords(x, y) {
  const parts = [];
  if (x) parts.push(Math.abs(x) + (x > 0 ? " east" : " west"));
  if (y) parts.push(Math.abs(y) + (y > 0 ? " south" : " north"));
  return parts.length ? parts.join(" and ") + " of the start tile" : "on the start tile";
}

// A placement move `m` of `tile` in words: "place the tile 1 east of the start tile: north city, ... (E 1,0 r0)".
export function spotWords(m, tile) {
  const tri = tile && tile.shape === "triangle";
  return "place " + (tri ? "triangle " + m.tile + " in the " + m.corner + " corner " : "the tile ") +
         whereWords(m.x, m.y) + (tri ? "" : ": " + facesWords(tile, m.rot)) + " (" + m.notation + ")";
}

function figureWord(figure, feature) {
  if (figure === "abbot") return "an abbot";
  if (figure === "shepherd") return "the shepherd";
  return "a " + (FOLLOWER[feature] || "meeple");
}

const list = (a) => a.length <= 1 ? a.join("") : a.slice(0, -1).join(", ") + " and " + a[a.length - 1];

// The board in words, a line a piece in the order they were placed: "E, 1 east of the start tile: north city,
// east road, south field, west road; Bob's knight on it (city)". For a person who cannot see the picture.
export function boardWords(view, tiles, names) {
  const figs = new Map();
  for (const f of view.figures || []) figs.set(f.piece, (figs.get(f.piece) || []).concat([f]));
  return (view.board || []).map((p, i) => {
    const tile = tiles.get(p.tile);
    const seg = (part) => ((tile && tile.segments.find((s) => s.part === part)) || {}).feature;
    const on = (figs.get(i) || []).map((f) => (names[f.seat] || "seat " + f.seat) + "'s " +
      figureWord(f.figure, seg(f.part)).replace(/^(a|an|the) /, "") + " (" + (seg(f.part) || f.part) + ")");
    const tri = tile && tile.shape === "triangle";
    const where = whereWords(p.x, p.y) + (tri ? ", " + ["nw", "ne", "se", "sw"][p.rot & 3] + " corner" : "");
    return p.tile + ", " + where + ": " + facesWords(tile, tri ? 0 : p.rot) +
           (on.length ? "; " + list(on) + " on it" : "");
  });
}

// ctx: { names: [...], tiles: Map id -> tile, me: seat or null, featureOf(x, y, part, corner) }
export function describe(entries, ctx) {
  const who = (s) => (s === null || s === undefined) ? "" : (ctx.names[s] || "seat " + s);
  const acts = [], after = [];
  let placed = false;
  const seat = entries[0].seat;
  for (const en of entries) {
    if (en.cancelled)
      after.push("The server's admin cancelled the game" + (en.reason ? ": " + en.reason : "") + ". Nobody won.");
    if (en.by === "clock") acts.push("(the clock moved)");
    for (const e of en.events || []) {
      const mine = e.seat === seat;
      switch (e.type) {
        case "game_started": after.push("The game starts with tile " + e.tile + "."); break;
        case "piece_placed": acts.push("placed " + tileKind(ctx.tiles.get(e.tile))); placed = true; break;
        case "figure_placed": {
          const w = figureWord(e.figure, ctx.featureOf(e.x, e.y, e.part, e.corner));
          acts.push(placed ? w : "placed " + w);
          break;
        }
        case "passed": if (!placed && !e.forced) acts.push("passed"); break;
        case "figure_returned":
          after.push(who(e.seat) + "'s " + figureWord(e.figure, ctx.featureOf(e.x, e.y, e.part, e.corner)).replace(/^(a|an|the) /, "") + " came back.");
          break;
        case "score":
          after.push(list((e.seats || []).map(who)) + " scored " + e.points + (e.feature ? " for a " + e.feature : "") + (e.reason ? " (" + e.reason.replace(/_/g, " ") + ")" : "") + ".");
          break;
        case "tile_discarded": after.push("Tile " + e.tile + " fits nowhere: discarded."); break;
        case "hill_covered": acts.push("covered a hill"); break;
        case "token_drawn": acts.push(e.token === "wolf" ? "drew the wolf" : "drew " + e.token + " sheep"); break;
        case "flock_scattered": after.push("The wolf scattered " + who(e.seat) + "'s flock."); break;
        case "tree_stocked": acts.push("stocked a tree with " + e.fruit); break;
        case "harvested": acts.push("harvested " + (e.fruit || "fruit") + (e.value && e.seat === ctx.me ? " (" + e.value + ")" : "")); break;
        case "sold": acts.push("sold " + list(e.fruits || []) + " for " + e.points + " points"); break;
        case "crop_circle_chosen": acts.push("chose to " + e.choice + " at the " + e.kind + " crop circle"); break;
        case "crop_circle_skipped": acts.push("skipped the crop circle"); break;
        case "triangle_dealt": if (!mine || !acts.length) after.push(who(e.seat) + " got triangle " + e.tile + "."); break;
        case "triangle_drafted": acts.push("drafted triangle " + e.tile); break;
        case "seat_left": after.push(who(e.seat) + " left the game."); break;
        case "seat_to_bot": after.push(who(e.seat) + " left the game; a bot plays the seat on."); break;
        case "forced_move": after.push(who(e.seat) + " had one choice: " + ((e.move && (e.move.label || e.move.notation)) || "made") + "."); break;
        case "game_over": after.push("The game is over."); break;
        default: break;   // tile_drawn, turn: shown by the turn line, not the log
      }
    }
  }
  const head = acts.length ? who(seat) + " " + list(acts) + "." : "";
  return [head].concat(after).filter((t) => t).join(" ");
}

// Groups log entries into turns (see the top of the file).
// Why a game cancelled before its start never started (its view's cancelled_by): "was cancelled by its
// creator" and the like, after "This game" or "the game".
export function cancelledWords(view) {
  const by = view.cancelled_by;
  return "was cancelled" + (by === "expiry" ? ": nobody joined it in time"
    : by === "admin" ? " by the server's admin" : by === "creator" ? " by its creator" : "");
}

export function turns(entries) {
  const out = [];
  let cur = null;
  for (const en of entries) {
    if (!cur || cur.closed || en.seat !== cur.seat) { cur = { seat: en.seat, entries: [], closed: false }; out.push(cur); }
    cur.entries.push(en);
    if ((en.events || []).some((e) => e.type === "turn" || e.type === "game_over") || en.seq === 0) cur.closed = true;
  }
  return out;
}
