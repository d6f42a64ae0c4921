// mailme.js — "Turns by e-mail" on a seat's page: the player gives the address carcd mails the seat's turns to
// (or stops them) with PUT /v1/games/{id}/email, the API's play by e-mail, so that a game played over days in
// a browser does not need its tab kept open. The seat's view has "mail" only where the server sends mail; the
// box shows there, while the game waits for its seats (the address then hears who joins, and gets the start's
// mail) and while it is under way, and redraws from that "mail" after every change, never from what it sent.
import { put } from "./api.js";
import { el, alertLine } from "./dom.js";

let parts = null;   // made once: a redraw sets texts, and never replaces the field a person is typing in

export function drawMail(box, id, v, refresh) {
  const show = !!(v.you && v.mail && (v.status === "active" || v.status === "waiting"));
  box.hidden = !show;
  if (!show) return;
  if (!parts) parts = build(box, id, refresh);
  const m = v.mail;
  const on = !!m.email && !m.stopped_at;
  parts.state.textContent = !m.email
    ? (v.status === "waiting" ? "carcd can mail you who joins, and your turns once the game starts."
      : "carcd can mail you when it is your turn.")
    : m.stopped_at ? "Mail to " + m.email + " was stopped (" + m.stopped_reason + "). Give an address to start it again."
    : v.status === "waiting" ? "Who joins, and your turns once the game starts, are mailed to " + m.email + "."
    : "Your turns are mailed to " + m.email + ".";
  parts.send.textContent = on ? "Mail them there instead" : "Mail my turns";
  parts.stop.hidden = !on;
  box.dataset.email = on ? m.email : "";
}

function build(box, id, refresh) {
  const state = el("p", "mail-state");
  const form = el("form", "mail-form");
  const addr = el("input");
  addr.type = "text";   // the server's refusal says what is wrong, as on the lobby's forms
  addr.inputMode = "email";
  addr.autocomplete = "email";
  addr.placeholder = "your e-mail address";
  addr.setAttribute("aria-label", "your e-mail address");
  const send = el("button", null, "Mail my turns");
  send.type = "submit";
  const stop = el("button", "mail-stop", "Stop these mails");
  stop.type = "button";
  stop.hidden = true;
  const problem = alertLine();
  form.append(addr, send, problem);
  box.replaceChildren(el("h2", null, "Turns by e-mail"), state, form, stop);
  async function change(email) {
    problem.hidden = true;
    send.disabled = stop.disabled = true;
    try {
      await put("/v1/games/" + id + "/email", { email });
      addr.value = "";
      refresh();
    } catch (e) {
      problem.textContent = "Not changed: " + e.message;
      problem.hidden = false;
    } finally {
      send.disabled = stop.disabled = false;
    }
  }
  form.addEventListener("submit", (ev) => { ev.preventDefault(); change(addr.value.trim()); });
  stop.addEventListener("click", () => change(null));
  return { state, send, stop };
}
