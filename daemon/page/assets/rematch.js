// rematch.js — "Play again" on the page of a finished game, for a seat: a rematch with the same settings
// (POST /v1/games/{id}/rematch/accept, or .../rematch when none is on offer yet). One button for both: the
// first seat to press it offers the rematch and waits in it; each other seat's press accepts, and the last
// starts it. The tab goes on to the new game's seat page (#token=...), which asks to be bookmarked, as after
// a join.
import { post, seatPageUrl, ApiError } from "./api.js";
import { alertLine, el } from "./dom.js";
import { rememberCreated } from "./host.js";

async function playAgain(id) {
  const base = "/v1/games/" + id + "/rematch";
  for (let tries = 0; ; tries++) {
    try {
      return await post(base + "/accept", {});
    } catch (e) {
      // nothing on offer yet: offer it (a seat that offers at the same moment makes this one accept instead)
      if (!(e instanceof ApiError && e.status === 404) || tries > 0) throw e;
    }
    try {
      return await post(base, {});
    } catch (e) {
      if (!(e instanceof ApiError && e.problem && /rematch-offered$/.test(e.problem.type || ""))) throw e;
    }
  }
}

// Into box (#choices), drawn once per page of a finished game.
export function drawRematch(box, id) {
  if (box.querySelector("#rematch")) return;
  const wrap = el("div");
  wrap.id = "rematch";
  const b = el("button", null, "Play again");
  b.type = "button";
  b.id = "rematch-send";
  const hint = el("p", "hint", "A new game with the same settings and players: the first to press offers it, " +
                               "the others accept with the same button, and it starts when all have.");
  const problem = alertLine("rematch-problem");
  b.addEventListener("click", async () => {
    b.disabled = true;
    problem.hidden = true;
    try {
      const a = await playAgain(id);
      // the offer's creator token, given once: its page starts the rematch with the players there, or cancels it
      if (a.creator_token) rememberCreated(a.game_id, a);
      location.assign(seatPageUrl(a.game_id, a));
    } catch (e) {
      problem.textContent = "No rematch: " + e.message;
      problem.hidden = false;
      b.disabled = false;
    }
  });
  wrap.append(b, hint, problem);
  box.replaceChildren(wrap);
}
