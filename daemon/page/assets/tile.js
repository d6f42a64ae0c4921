// tile.js — one piece drawn as SVG from the tile catalog (GET /v1/tiles), and where its segments are.
//
// The geometry follows the catalog's conventions (and daemon/render/tile_face.c, which draws board.svg's
// pieces the same way): local frame (0,0) north-west to (1,1) south-east, y southwards; a square's sides run
// clockwise N E S W, a triangle (right angle at the north-west) has N, D (from its NE to its SW corner) and
// W; unit t of a side lies t/12 of the way along it. A piece turned r quarter turns is its local frame turned
// about the middle of its space, which is also what a triangle's rotation (the corner of its right angle)
// means.
export const NS = "http://www.w3.org/2000/svg";
const U = 12;
const ENDS = { N: [[0, 0], [1, 0]], E: [[1, 0], [1, 1]], S: [[1, 1], [0, 1]], W: [[0, 1], [0, 0]], D: [[1, 0], [0, 1]] };

const lerp = (a, b, t) => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
const sidePoint = (s, u) => lerp(ENDS[s][0], ENDS[s][1], u / U);
export const turn = (p, rot) => { for (let i = 0; i < (rot & 3); i++) p = [1 - p[1], p[0]]; return p; };

export function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

// What the drawing needs of a tile, worked out once per tile id: the order of its sides, its middle, each
// segment's path (city area, road line) and anchor (where a figure stands and a choice is clicked).
const cache = new Map();
export function shapeOf(tile) {
  if (cache.has(tile.id)) return cache.get(tile.id);
  const tri = tile.shape === "triangle";
  const order = tri ? ["N", "D", "W"] : ["N", "E", "S", "W"];
  const mid = tri ? [1 / 3, 1 / 3] : [0.5, 0.5];
  const total = U * order.length;
  const perim = (q) => {
    q = ((q % total) + total) % total;
    const k = Math.min(order.length - 1, Math.floor(q / U));
    return sidePoint(order[k], q - k * U);
  };
  const outline = order.map((s) => ENDS[s][0]);
  const out = { tri, order, mid, outline, segs: {} };
  const roads = [];
  for (const seg of tile.segments) {
    const runs = [];
    for (const iv of seg.intervals) {
      const k = order.indexOf(iv.side);
      runs.push([k * U + iv.from, k * U + iv.to]);
    }
    runs.sort((a, b) => a[0] - b[0]);
    const merged = [];
    for (const r of runs) {
      const l = merged[merged.length - 1];
      if (l && r[0] <= l[1] + 1e-9) l[1] = Math.max(l[1], r[1]); else merged.push(r.slice());
    }
    if (merged.length > 1 && merged[merged.length - 1][1] >= total - 1e-9 && merged[0][0] <= 1e-9) {
      merged[0][0] = merged.pop()[0] - total;   // a run across the start of the first side
    }
    const info = { feature: seg.feature, path: null, anchor: mid, runs: merged };
    if (seg.feature === "city") cityPath(info, merged, perim, mid, total, outline);
    else if (seg.feature === "road" || seg.feature === "river") roadPath(info, seg, mid, roads);   // river: as a road
    out.segs[seg.part] = info;
  }
  // a field's figure stands just inside its longest stretch of side, off the roads and the other anchors
  for (const seg of tile.segments) {
    if (seg.feature !== "field") continue;
    const info = out.segs[seg.part];
    let best = null, bestScore = -1;
    for (const iv of seg.intervals) {
      const a = sidePoint(iv.side, iv.from), b = sidePoint(iv.side, iv.to);
      const c = lerp(lerp(a, b, 0.5), mid, 0.3);
      let score = Math.hypot(a[0] - b[0], a[1] - b[1]);
      for (const r of roads) score = Math.min(score, dist(c, r) * 2);
      for (const p in out.segs) if (p !== seg.part && out.segs[p].feature !== "field") score = Math.min(score, dist(c, out.segs[p].anchor) * 2);
      if (score > bestScore) { bestScore = score; best = c; }
    }
    info.anchor = best || mid;
  }
  cache.set(tile.id, out);
  return out;
}

const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);

// A city: along the sides for each run, then a curve towards the middle to the next run (or back to its
// own start, bulging past the middle for a city over several sides).
function cityPath(info, runs, perim, mid, total, outline) {
  if (runs.length === 1 && runs[0][1] - runs[0][0] >= total - 1e-9) {
    info.path = outline.map((p, i) => (i ? "L" : "M") + p).join("") + "Z";
    return;
  }
  let d = "", sum = [0, 0];
  runs.forEach((r, i) => {
    const a = perim(r[0]);
    d += (i ? "L" : "M") + a;
    for (let q = Math.floor(r[0] / U + 1) * U; q < r[1] - 1e-9; q += U) d += "L" + perim(q);
    d += "L" + perim(r[1]);
    const m = perim((r[0] + r[1]) / 2);
    sum = [sum[0] + m[0], sum[1] + m[1]];
    const next = perim(runs[(i + 1) % runs.length][0]);
    let ctl = mid;
    if (runs.length === 1) {
      const sides = (r[1] - r[0]) / U;
      ctl = lerp(m, mid, sides <= 1 ? 1 : 1 + 0.3 * (sides - 1));
    }
    d += "Q" + ctl + " " + next;
  });
  info.path = d + "Z";
  const edge = [sum[0] / runs.length, sum[1] / runs.length];
  info.anchor = runs.length === 1 ? lerp(edge, mid, 0.42) : mid;
}

function roadPath(info, seg, mid, roads) {
  const ends = seg.intervals.map((iv) => sidePoint(iv.side, (iv.from + iv.to) / 2));
  if (ends.length === 2) {
    info.path = "M" + ends[0] + "Q" + mid + " " + ends[1];
    info.anchor = lerp(lerp(ends[0], mid, 0.5), lerp(mid, ends[1], 0.5), 0.5);
  } else {
    info.path = ends.map((e) => "M" + e + "L" + mid).join("");
    info.anchor = ends.length ? lerp(ends[0], mid, 0.5) : mid;
  }
  for (const e of ends) roads.push(lerp(e, mid, 0.5));
}

// Draws tile `tile` turned `rot` into a new <g> of `parent`, in a 1x1 box at the origin (the caller moves
// and scales it). Every segment path is turned point by point, so symbols stay upright.
export function drawPiece(parent, tile, rot, cls) {
  const s = shapeOf(tile);
  const g = el("g", { class: "piece " + (cls || "") }, parent);
  const tp = (p) => turn(p, rot);
  const poly = (pts) => pts.map((p, i) => (i ? "L" : "M") + tp(p)).join("") + "Z";
  el("path", { d: poly(s.outline), class: "field" }, g);
  const turnPath = (d) => d.replace(/(-?[\d.e-]+),(-?[\d.e-]+)/g, (_, x, y) => String(tp([+x, +y])));
  for (const part in s.segs) {   // the river (option river) first, under the rest; a pond at the spring and lake
    const seg = s.segs[part];
    if (seg.feature !== "river") continue;
    el("path", { d: turnPath(seg.path), class: "river-edge" }, g);
    el("path", { d: turnPath(seg.path), class: "river" }, g);
    if (seg.runs.length !== 1) continue;
    const c = tp([0.5, 0.5]);
    el("circle", { cx: c[0], cy: c[1], r: 0.2, class: "pond" }, g);
  }
  for (const part in s.segs) {
    const seg = s.segs[part];
    if (seg.feature === "city") el("path", { d: turnPath(seg.path), class: "city" }, g);
  }
  for (const part in s.segs) {
    const seg = s.segs[part];
    if (seg.feature === "road") {
      el("path", { d: turnPath(seg.path), class: "road-edge" }, g);
      el("path", { d: turnPath(seg.path), class: "road" }, g);
    }
  }
  for (const part in s.segs) {
    const seg = s.segs[part], a = tp(seg.anchor);
    if (seg.feature === "cloister") el("rect", { x: a[0] - 0.13, y: a[1] - 0.13, width: 0.26, height: 0.26, class: "cloister" }, g);
    if (seg.feature === "garden") el("circle", { cx: a[0], cy: a[1], r: 0.13, class: "garden" }, g);
  }
  const seg0 = tile.segments.find((x) => x.pennant);
  if (seg0) { const a = tp(s.segs[seg0.part].anchor); el("path", { d: `M${a[0] + 0.08},${a[1] - 0.16}h0.12v0.09l-0.06,0.06l-0.06,-0.06z`, class: "pennant" }, g); }
  const sp = tile.specials || {};
  const corner = tp(s.tri ? [0.22, 0.22] : [0.8, 0.8]);
  if (sp.hill) el("path", { d: `M${corner[0] - 0.15},${corner[1] + 0.07}Q${corner[0]},${corner[1] - 0.25} ${corner[0] + 0.15},${corner[1] + 0.07}Z`, class: "hill" }, g);
  if (sp.vineyard) el("circle", { cx: corner[0], cy: corner[1], r: 0.07, class: "vineyard" }, g);
  if (sp.fruit_tree) el("circle", { cx: corner[0], cy: corner[1], r: 0.1, class: "tree" }, g);
  if (sp.crop_circle) {
    const c = tp(s.tri ? [0.3, 0.3] : [0.5, 0.5]);
    el("circle", { cx: c[0], cy: c[1], r: 0.12, class: "crop" }, g);
    const t = el("text", { x: c[0], y: c[1] + 0.05, class: "crop-kind" }, g);
    t.textContent = { club: "♣", rake: "⋔", shield: "◆" }[sp.crop_circle] || "○";
  }
  el("path", { d: poly(s.outline), class: "edge" }, g);
  return g;
}

// Where segment `part` of tile `tile` turned `rot` is, in the piece's 1x1 box.
export function anchorOf(tile, rot, part) {
  const seg = shapeOf(tile).segs[part];
  return turn((seg ? seg.anchor : shapeOf(tile).mid).slice(), rot);   // a copy: callers move it
}
