// join.js — joining a game by invitation in the browser. The creation of a game with open seats answers, for
// each, a page_url: this page with the invite code in the fragment (#invite=iv_...), the link to send a
// person. For a game that waits for players, the page asks carcd what became of the invitation (a link is opened
// again, by its invitee who joined already or by whoever it was forwarded to), then, while its place is open, asks
// for a name and posts the join with the code in the body: the fragment reaches no request line, so the code
// stays out of access logs.
//
// A join answers the seat's token once (the server keeps only its hash), and the page's address is how a
// person comes back to a game over days: on success the address becomes the seat's page (#token=...,
// replacing the invitation in the tab's history) and the page loads again as that seat, asking to be
// bookmarked (joinedNote(), which main.js shows at start).
//
// The other side, the game's creator, is host.js.
import { token, post, seatPageUrl } from "./api.js";
import { alertLine, el } from "./dom.js";
import { gameSettings } from "./panel.js";
import { cancelledWords } from "./words.js";

const MAILED = "carcd.joined_email.";
const m = /(?:^#|&)invite=([^&]+)/.exec(location.hash);
export const invite = token ? null : (m ? decodeURIComponent(m[1]) : null);

// What became of this page's invitation (POST .../invites/lookup), asked once a page load: the answer, or
// {gone: true} when the code opens nothing (mistyped, or replaced when the creator removed its player), or null
// when carcd could not tell (the form is shown; a join says what is wrong).
let fate = null;
function inviteFate(id) {
  fate = fate || post("/v1/games/" + id + "/invites/lookup", { invite })
    .catch((e) => (e.status === 403 ? { gone: true } : null));
  return fate;
}

// Why a used or replaced invitation opens no seat, in words; "" while its place is open.
function usedWords(f, view) {
  const host = (view.players || [])[0];
  const ask = host ? "ask " + host.name + " for a new link" : "ask the person who invited you for a new link";
  if (f && f.gone) {
    return "This invitation link no longer opens a seat: the game's creator has replaced it, or it was copied " +
           "wrong. Check the link, or " + ask + ".";
  }
  if (!f || f.seat === null) return "";
  const who = ((view.players || []).find((p) => p.seat === f.seat) || {}).name || "another player";
  if (f.from_lobby) {
    return "This invitation's seat was taken by " + who + ", who joined from the lobby before you. To play, " + ask +
           ".";
  }
  return "This invitation has been used: " + who + " took seat " + f.seat + " with it. If that was you, open the " +
         "page your join gave you (its address is your seat's key; the game's mails carry it too if you gave an " +
         "address). Otherwise " + ask + ".";
}

// The form, into box (#choices) while the game waits, once carcd said that the invitation's place is open (else
// why it is not). Drawn once: a redraw because another player joined keeps what is being typed.
export async function drawJoin(box, id, view) {
  if (box.querySelector("#join-form") || box.querySelector("#join-used")) return;
  const used = usedWords(await inviteFate(id), view);
  if (box.querySelector("#join-form") || box.querySelector("#join-used")) return;   // drawn while this waited
  if (used) {
    const p = el("p", null, used);
    p.id = "join-used";
    box.replaceChildren(p);
    return;
  }
  const form = el("form");
  form.id = "join-form";
  // who invites: the first seat, the creator's in a game started from the lobby
  const host = (view.players || [])[0];
  const label = el("label", null, (host ? host.name + " invites you" : "You are invited") + " to this game (" +
                                  gameSettings(view) + "). Your name, as the other players will see it: ");
  label.htmlFor = "join-name";
  const name = el("input");
  name.id = "join-name";
  name.maxLength = 64;
  name.required = true;
  name.autocomplete = "nickname";
  const send = el("button", null, "Join the game");
  send.type = "submit";
  send.id = "join-send";
  const problem = alertLine("join-problem");
  form.append(label, name, send, problem);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const text = name.value.trim();
    if (!text) return;
    send.disabled = true;
    problem.hidden = true;
    try {
      const j = await post("/v1/games/" + id + "/join", { invite, name: text });
      // the invitation came by mail: the seat's mail goes there too, which the reloaded page says once
      if (j.email) sessionStorage.setItem(MAILED + id, j.email);
      history.replaceState(null, "", seatPageUrl(id, j));
      location.reload();
    } catch (e) {
      problem.textContent = "Could not join: " + e.message;
      problem.hidden = false;
      send.disabled = false;
    }
  });
  box.replaceChildren(form);
}

// At start, after a join made by this tab: what to tell the new seat ("" when the page was not opened so). The
// address loses its "joined" mark at once, so that the bookmark taken is the seat's page alone.
export function joinedNote() {
  const joined = /(?:^#|&)(joined|created)=(\d+)/.exec(location.hash);
  if (!token || !joined) return "";
  history.replaceState(null, "", "#token=" + encodeURIComponent(token));
  const id = location.pathname.slice("/games/".length);
  const email = sessionStorage.getItem(MAILED + id);
  sessionStorage.removeItem(MAILED + id);
  return (joined[1] === "created" ? "You created this game" : "You have joined this game") + " (seat " + joined[2] +
         "). This page's address is your seat's key: bookmark it to come back to the game, since carcd shows a " +
         "seat's key only once." +
         (email ? " carcd also mails your turns to " + email + ": answer those mails to play (each can stop them)." : "");
}

// For a page opened at an invitation: "" while the game waits (the form says it all), else why the
// invitation no longer opens a seat.
export function inviteNote(view) {
  if (!invite || view.status === "waiting") return "";
  return "This invitation can no longer be used: " +
         (view.status === "cancelled" ? "the game " + cancelledWords(view) + "." : "the game has started without it.");
}
