// chat.js — the chat panel beside the board (#chat): the game's messages (table talk, game/messages.h) and a
// box to write one. It reads with the seat's token (or none: only a game created with public_chat answers),
// follows new messages by long poll on the events with messages_after (and after=2147483647, so that the
// answer holds messages only: main.js follows the moves), and posts with the token. The texts are the
// players' own words: they go into the page with textContent only, never as HTML, so markup in a message
// is shown as the characters it is made of.
import { token, get, post, ApiError } from "./api.js";

const id = document.body.dataset.game;
const box = document.getElementById("chat");
const NO_MOVES = 2147483647;   // the events' after= no move has: only messages come back
const shown = new Set();       // message ids on the page
let last = 0;                  // the message cursor
let names = [];

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

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

function build(canWrite) {
  box.replaceChildren();
  box.append(el("h2", null, "Table talk"));
  const list = el("ol", null);
  list.id = "chat-log";
  list.setAttribute("aria-live", "polite");
  box.append(list);
  const problem = el("p", "chat-problem");
  problem.id = "chat-problem";
  problem.setAttribute("role", "alert");
  problem.hidden = true;
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
        const p = e instanceof ApiError && e.problem;
        problem.textContent = "Not sent: " + (p ? p.detail || p.title : e.message);
        problem.hidden = false;
      }
      send.disabled = false;
    });
    input.addEventListener("keydown", (ev) => {   // Enter sends, Shift+Enter is a new line
      if (ev.key === "Enter" && !ev.shiftKey) { ev.preventDefault(); form.requestSubmit(); }
    });
    box.append(form);
  }
  box.hidden = false;
  return list;
}

async function follow(list) {
  let pause = 500;
  for (;;) {
    try {
      const j = await get("/v1/games/" + id + "/events?after=" + NO_MOVES + "&messages_after=" + last + "&wait=25");
      for (const e of j.entries || []) if (e.type === "message") add(list, e.message);
      if (typeof j.messages_last === "number") last = j.messages_last;
      pause = 500;
    } catch (e) {
      await new Promise((res) => setTimeout(res, pause));
      pause = Math.min(pause * 2, 15000);
    }
  }
}

(async function start() {
  let first;
  try {
    first = await get("/v1/games/" + id + "/messages?after=0&limit=500");
  } catch (e) {
    return;   // no seat and no public chat (403), or a bad token (main.js says so): no panel
  }
  try {
    const v = await get("/v1/games/" + id);
    names = (v.players || []).map((p) => p.name);
  } catch (e) { /* the names are in the messages too */ }
  const list = build(!!token);
  for (const m of first.messages) add(list, m);
  last = first.last;
  document.body.dataset.chat = "1";
  follow(list);
})();
