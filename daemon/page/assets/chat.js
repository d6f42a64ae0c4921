// chat.js — the chat panel beside the board (#chat): the game's messages (table talk, game/messages.h) and a
// box to write one. It reads with the seat's token (or none: only a game created with public_chat answers),
// gets new messages from main.js's events stream (the `chat` promise below: one stream per tab carries
// both), and posts with the token. The texts are the
// players' own words: they go into the page with textContent only, never as HTML, so markup in a message
// is shown as the characters it is made of. A seat may mute another seat for itself (a button a seat under the
// log): carcd then leaves that seat's messages out of everything it sends this seat.
import { token, get, post, put, del } from "./api.js";
import { alertLine, el } from "./dom.js";

const id = document.body.dataset.game;
const box = document.getElementById("chat");
const shown = new Set();       // message ids on the page
let names = [];

function add(list, m) {
  if (shown.has(m.id)) return;
  shown.add(m.id);
  const li = el("li", "msg");
  li.dataset.id = String(m.id);
  li.dataset.seat = String(m.seat);
  li.append(el("span", "who", (m.name || names[m.seat] || "seat " + m.seat) + ": "), el("span", "text", m.text));
  li.title = m.at + " (after move " + m.seq + ")";
  list.append(li);
  list.scrollTop = list.scrollHeight;
}

// "Mute Bob" / "Unmute Bob" for each other seat (PUT and DELETE .../mutes/{seat}). A mute takes that seat's
// messages off the page at once; an unmute reads the messages again, since carcd never sent the muted ones.
function drawMutes(wrap, list, problem, mine, muted) {
  wrap.replaceChildren(el("span", null, "Hide a player's messages: "));
  names.forEach((name, seat) => {
    if (seat === mine) return;
    const on = muted.includes(seat);
    const b = el("button", "mute", (on ? "Unmute " : "Mute ") + (name || "seat " + seat));
    b.type = "button";
    b.dataset.seat = String(seat);
    b.dataset.muted = on ? "1" : "";
    b.addEventListener("click", async () => {
      b.disabled = true;
      problem.hidden = true;
      const path = "/v1/games/" + id + "/mutes/" + seat;
      try {
        // the name it shows goes with a mute: a seat renumbered since (a leave before the start) is refused
        // (409 seat-changed), not someone else muted
        if (on) await del(path); else await put(path, name ? { name } : {});
        const a = await get("/v1/games/" + id + "/messages?after=0&limit=500");
        list.replaceChildren();
        shown.clear();
        for (const m of a.messages) add(list, m);
        drawMutes(wrap, list, problem, mine, a.muted || []);
      } catch (e) {
        problem.textContent = (on ? "Not unmuted: " : "Not muted: ") + e.message;
        problem.hidden = false;
        b.disabled = false;
      }
    });
    wrap.append(b);
  });
}

function build(canWrite) {
  box.replaceChildren();
  box.append(el("h2", null, "Table talk"));
  const list = el("ol", null);
  list.id = "chat-log";
  list.setAttribute("aria-live", "polite");
  box.append(list);
  const problem = alertLine("chat-problem");
  problem.className = "chat-problem";
  box.append(problem);
  if (canWrite) {
    const form = el("form", null);
    form.id = "chat-form";
    const input = el("textarea", null);
    input.id = "chat-text";
    input.maxLength = 1000;
    input.rows = 2;
    input.setAttribute("aria-label", "your message");
    const send = el("button", null, "Send");
    send.type = "submit";
    send.id = "chat-send";
    form.append(input, send);
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const text = input.value.replace(/\r\n?/g, "\n").trim();
      if (!text) return;
      send.disabled = true;
      problem.hidden = true;
      try {
        add(list, await post("/v1/games/" + id + "/messages", { text }));
        input.value = "";
      } catch (e) {
        problem.textContent = "Not sent: " + e.message;
        problem.hidden = false;
      }
      send.disabled = false;
    });
    input.addEventListener("keydown", (ev) => {   // Enter sends, Shift+Enter is a new line
      // an Enter that ends an input method's composition (Japanese, Chinese) confirms the word, sends nothing
      if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) { ev.preventDefault(); form.requestSubmit(); }
    });
    box.append(form);
  }
  box.hidden = false;
  return list;
}

// The mute buttons as they were drawn (null: none), for chatSeats.
let mutes = null;

// main.js gives every view it draws: before the start a seat given up moves the later ones down, so the mute
// buttons are drawn again, with the names and numbers of now and the mutes as carcd moved them (a button left
// from before would name one player and send another's number; carcd refuses it, seat-changed, but the page
// should not offer it).
export async function chatSeats(v) {
  const now = (v.players || []).map((p) => p.name);
  const me = v.you ? v.you.seat : null;
  if (!mutes || me === null || (me === mutes.mine && now.join("\n") === names.join("\n"))) return;
  names = now;
  mutes.mine = me;
  try {
    const a = await get("/v1/games/" + id + "/messages?after=0&limit=500");
    drawMutes(mutes.wrap, mutes.list, mutes.problem, me, a.muted || []);
  } catch (e) { /* the next view draws them again */ }
}

// Resolves to {after, on} for main.js's stream (follow in api.js): the last message id shown and what to do
// with a new one; to null when this reader gets no messages (no seat and no public chat).
export const chat = (async function start() {
  let first, mine = null;
  try {
    first = await get("/v1/games/" + id + "/messages?after=0&limit=500");
  } catch (e) {
    return null;   // no seat and no public chat (403), or a bad token (main.js says so): no panel
  }
  try {
    const v = await get("/v1/games/" + id);
    names = (v.players || []).map((p) => p.name);
    mine = v.you ? v.you.seat : null;
  } catch (e) { /* the names are in the messages too */ }
  const list = build(!!token);
  for (const m of first.messages) add(list, m);
  if (mine !== null && names.length > 1) {   // a seat's reading: its mutes
    const wrap = el("div", null);
    wrap.id = "chat-mutes";
    box.append(wrap);
    mutes = { wrap, list, problem: box.querySelector(".chat-problem"), mine };
    drawMutes(wrap, list, mutes.problem, mine, first.muted || []);
  }
  document.body.dataset.chat = "1";
  return { after: first.last, on: (m) => add(list, m) };
})();
