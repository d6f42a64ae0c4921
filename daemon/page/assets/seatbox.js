// seatbox.js — "Your seat" on a seat's page: what a player of a game over days does besides moving, through
// the same routes as the API's — a vacation from the seat's yearly allowance (POST .../vacation), the clock
// paused by agreement and resumed (POST .../pause, .../resume), and resigning (POST .../resign, pressed twice,
// since it cannot be taken back). Shown to a seat while its game is under way; the clock's parts only in a
// game with a clock. Like mailme.js, made once and redrawn from the view after every change.
import { post } from "./api.js";
import { el, alertLine, confirmButton } from "./dom.js";

let parts = null;

// Whether a bot plays `seat` (its player left it to one, in a game made with bot_after_leave): the seat's token
// then only reads, so its page offers neither moves nor this box's buttons.
export function botPlays(v, seat) {
  const p = v.players && seat !== null && seat !== undefined ? v.players[seat] : null;
  return !!(p && p.bot);
}

export function drawSeatBox(box, id, v, refresh) {
  const me = v.you ? v.you.seat : null;
  const show = me !== null && v.status === "active";
  box.hidden = !show;
  if (!show) return;
  if (!parts) parts = build(box, id, refresh);
  // a seat is left when its player resigned, or when a bot took it over
  const toBot = botPlays(v, me);
  const gone = toBot || !!(v.left && v.left.includes(me));
  const c = v.clock;
  const mine = c && c.seats ? c.seats.find((s) => s.seat === me) : null;
  box.dataset.left = gone ? "1" : "0";
  parts.state.textContent = toBot ? "You left this game: a computer player plays your seat."
    : gone ? "You left this game: the others play on." : "";
  parts.state.hidden = !gone;
  // a vacation: only with a clock that allows one, and days left to take
  const away = mine && mine.vacation_until && Date.parse(mine.vacation_until) > Date.parse(c.now);
  parts.vacation.hidden = gone || !mine || !c.vacation_days;
  if (mine) {
    parts.vacationText.textContent = (away ? "On vacation until " + new Date(mine.vacation_until).toLocaleString() + ". " : "") +
      "Vacation days left this year: " + mine.vacation_days_left + ".";
    parts.take.disabled = mine.vacation_days_left < 1;
  }
  // the pause: it stops the clock once every seat still in has asked
  parts.pause.hidden = gone || !c;
  if (c) {
    const asked = (c.pause_requested_by || []).includes(me);
    parts.pauseText.textContent = c.paused ? "The clock is paused by agreement."
      : asked ? "You asked to pause the clock: it stops once every player has asked."
      : "Pausing the clock takes every player's asking.";
    parts.pauseButton.textContent = c.paused ? "Resume the clock" : "Ask to pause the clock";
    parts.pauseButton.hidden = !c.paused && asked;
    parts.pauseButton.dataset.action = c.paused ? "resume" : "pause";
  }
  parts.resign.hidden = gone;
}

function build(box, id, refresh) {
  const state = el("p", "seat-state");
  const problem = alertLine();
  async function act(path, body) {
    problem.hidden = true;
    try {
      await post("/v1/games/" + id + "/" + path, body);
      refresh();
    } catch (e) {
      problem.textContent = "Not done: " + e.message;
      problem.hidden = false;
    }
  }
  const vacation = el("form", "seat-vacation");
  const vacationText = el("p");
  const days = el("input");
  days.type = "number";   // no min or max here: the server's refusal says what is wrong, and how many are left
  days.value = "1";
  days.setAttribute("aria-label", "vacation days");
  const take = el("button", null, "Take these days off");
  take.type = "submit";
  vacation.append(vacationText, days, take);
  vacation.addEventListener("submit", (ev) => { ev.preventDefault(); act("vacation", { days: Number(days.value) }); });
  const pause = el("div", "seat-pause");
  const pauseText = el("p");
  const pauseButton = el("button");
  pauseButton.type = "button";
  pauseButton.addEventListener("click", () => act(pauseButton.dataset.action, {}));
  pause.append(pauseText, pauseButton);
  // resigning cannot be taken back: the first press asks, a second one within 8 s does it
  const resign = confirmButton("Resign", "Press again to resign", 8000, () => act("resign", {}));
  resign.classList.add("seat-resign");
  box.replaceChildren(el("h2", null, "Your seat"), state, vacation, pause, resign, problem);
  return { state, vacation, vacationText, take, pause, pauseText, pauseButton, resign };
}
