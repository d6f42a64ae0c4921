// join.js — joining a game by invitation in the browser. The creation of a game with open seats answers, for
// each, a page_url: this page with the invite code in the fragment (#invite=iv_...), the link to send a
// person. For a game that waits for players, the page then asks for a name and posts the join with the code
// in the body: the fragment reaches no request line, so the code stays out of access logs.
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

// The form, into box (#choices) while the game waits. Drawn once: a redraw because another player joined
// keeps what is being typed.
export function drawJoin(box, id, view) {
  if (box.querySelector("#join-form")) return;
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
  return (joined[1] === "created" ? "You started this game" : "You have joined this game") + " (seat " + joined[2] +
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
