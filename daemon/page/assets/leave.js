// leave.js — "Leave this game" on the page of a seat that joined a game still waiting for its players: the
// seat is given up (POST .../leave, pressed twice, since the token then belongs to nobody) and its place opens
// again for someone else. A seat named when the game was created has no place of its own to give back (its
// creator cancels the game instead), and a game under way is left by resigning (seatbox.js), so neither sees it.
// Once left, the page is opened again as anyone's, without the seat's token, and says so (leftNote()).
import { post } from "./api.js";
import { el, alertLine, confirmButton } from "./dom.js";

let parts = null;   // made once: a redraw (someone joined) keeps a first press and its "press again" standing

export function drawLeave(box, id, v) {
  const me = v.you ? v.you.seat : null;
  const joined = me !== null && (v.places || []).some((p) => p.seat === me);
  const show = v.status === "waiting" && joined;
  box.hidden = !show;
  if (!show) return;
  if (!parts) parts = build(box, id);
}

function build(box, id) {
  const text = el("p", null, "Can't play after all? Leaving gives your seat back: the game's invitation (or the " +
                             "lobby) opens it again for someone else, and this page's key stops working.");
  const problem = alertLine("leave-problem");
  const leave = confirmButton("Leave this game", "Press again to leave the game", 5000, async () => {
    problem.hidden = true;
    try {
      await post("/v1/games/" + id + "/leave", {});
      // the token is nobody's now: the page again, as anyone sees it, with a word of what happened
      history.replaceState(null, "", location.pathname + "#left");
      location.reload();
    } catch (e) {
      problem.textContent = "Not done: " + e.message;
      problem.hidden = false;
    }
  });
  leave.id = "leave-game";
  box.replaceChildren(el("h2", null, "Your seat"), text, leave, problem);
  return { leave };
}

// At start: what to tell a reader who has just left this game's seat here ("" otherwise).
export function leftNote() {
  if (location.hash !== "#left") return "";
  history.replaceState(null, "", location.pathname);
  return "You left this game. Your seat is open again for someone else; the old link to it no longer works.";
}
