// lobby.js — the lobby page (GET /lobby, lobby.html): the public games that wait for players (GET /v1/lobby),
// joining one, and starting a new public game, through the public REST API only.
//
// A join from the lobby takes a player key (pk_..., POST /v1/players; one seat per key and game): the page
// makes one the first time it is needed and keeps it, with the name, in this browser's localStorage, so that
// the same person is the same player from one game to the next. A join or a new game answers the seat's
// token once: the tab goes on to the seat's page (/games/{id}#token=...), which asks to be bookmarked.
import { get, postAs, seatPageUrl, ApiError, PLAYER_KEY } from "./api.js";
import { rememberCreated } from "./host.js";
import { gameSettings } from "./panel.js";

const $ = (s) => document.getElementById(s);
const NAME = "carcd.name";

function problem(text) { $("problem").textContent = text; $("problem").hidden = !text; }

function myName() {
  const n = $("me-name").value.trim();
  if (!n) { problem("Type your name first: the other players see it."); $("me-name").focus(); return null; }
  localStorage.setItem(NAME, n);
  return n;
}

function showKey() {
  $("me-key").textContent = localStorage.getItem(PLAYER_KEY)
    ? "This browser keeps your player key: the games you join or start from here are one player's."
    : "The first game you join or start here gives this browser a player key.";
}

// f(key) with this browser's player key, made the first time; once more with a new key when the server no
// longer knows the one kept (another server, or its database started afresh).
async function withKey(n, f) {
  for (let tries = 0; ; tries++) {
    let k = localStorage.getItem(PLAYER_KEY);
    if (!k) {
      k = (await postAs(null, "/v1/players", { name: n })).key;
      localStorage.setItem(PLAYER_KEY, k);
      showKey();
    }
    try {
      return await f(k);
    } catch (e) {
      const unknown = e instanceof ApiError && e.status !== 409 && e.problem && e.problem.field === "player_key";
      if (!unknown || tries > 0) throw e;
      localStorage.removeItem(PLAYER_KEY);
    }
  }
}


let busy = false;
async function act(f) {
  if (busy) return;
  busy = true;
  document.body.dataset.busy = "1";
  problem("");
  try { await f(); } catch (e) { problem("Could not do it: " + e.message); load(); }
  busy = false;
  document.body.dataset.busy = "0";
}

function join(g) {
  const n = myName();
  if (n) act(() => withKey(n, async (k) => location.assign(seatPageUrl(g.id, await postAs(k, "/v1/games/" + g.id + "/join", { name: n })))));
}

function create(ev) {
  ev.preventDefault();
  const n = myName();
  if (!n) return;
  const seats = Number($("new-seats").value), bots = Number($("new-bots").value);
  if (bots >= seats) {
    problem("A game of " + seats + " seats has room for " + (seats - 1) + " computer player" + (seats > 2 ? "s" : "") +
            " besides you.");
    return;
  }
  const exp = [...document.querySelectorAll("input[name=exp]:checked")].map((c) => c.value);
  // the addresses to mail invitations to, one an open seat, given to the open seats in order
  const emails = $("new-emails-box").hidden ? [] : $("new-emails").value.split(/[\s,;]+/).filter((a) => a);
  const open = seats - 1 - bots;
  if (emails.length > open) {
    problem(emails.length + " addresses for " + open + " open seat" + (open === 1 ? "" : "s") +
            ": one address an open seat.");
    $("new-emails").focus();
    return;
  }
  act(() => withKey(n, async (k) => {
    // carcd's greedy bot plays the computer seats; the others are open, and the game waits in the lobby for
    // them (with none open it starts at once, a game against the computer, listed nowhere)
    const players = [{ name: n, player_key: k }];
    for (let i = 1; i < seats; i++) {
      if (i <= bots) { players.push({ bot: "greedy" }); continue; }
      const email = emails[i - 1 - bots];
      players.push(email ? { invite: true, email } : { invite: true });
    }
    const body = { players, public: bots < seats - 1 && $("new-public").checked, expansions: exp };
    if ($("new-river").checked) body.options = { river: true };   // an option of the base box, no expansion
    if ($("new-clock").value) body.clock = { per_move_s: Number($("new-clock").value) };
    const g = await postAs(null, "/v1/games", body);
    rememberCreated(g.id, g);   // its seat's page shows the links to send, and starts or cancels it
    location.assign(seatPageUrl(g.id, g.players[0], "created"));
  }));
}

async function load() {
  let answer, list;
  try {
    answer = await get("/v1/lobby");
    list = answer.games;
  } catch (e) {
    problem("Could not read the lobby: " + e.message);
    document.body.dataset.ready = "1";
    return;
  }
  const rows = list.map((g) => {
    const tr = document.createElement("tr");
    tr.dataset.game = g.id;
    const who = document.createElement("td"), what = document.createElement("td"), cell = document.createElement("td");
    who.className = "who";
    who.textContent = g.players.join(", ") + " + " + g.open + " open seat" + (g.open === 1 ? "" : "s");
    what.className = "what";
    what.textContent = gameSettings(g) + (g.expires_at ? "; open until " + new Date(g.expires_at).toLocaleString() : "");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "join";
    b.textContent = "Join";
    b.setAttribute("aria-label", "Join " + (g.players[0] ? g.players[0] + "'s game" : "this game"));
    b.addEventListener("click", () => join(g));
    cell.append(b);
    tr.append(who, what, cell);
    return tr;
  });
  $("games").replaceChildren(...rows);
  $("empty").hidden = list.length > 0;
  $("new-emails-box").hidden = !answer.invite_mail;   // this server mails invitations
  document.body.dataset.games = String(list.length);
  document.body.dataset.ready = "1";
}

// This browser's player's games (GET /v1/me/games), the ones waiting for them first: each opens the game's
// page with the key as its bearer, which acts for the player's seat there as the seat's token does.
function state(g) {
  if (g.status === "waiting") {
    const n = typeof g.open === "number" ? g.open : null;
    return n === null ? "waits for players" : "waits for " + n + " more player" + (n === 1 ? "" : "s");
  }
  if (g.status !== "active") return g.status;
  return g.my_turn ? "your turn" + (g.deadline ? ", until " + new Date(g.deadline).toLocaleString() : "") : "not your turn";
}

async function loadMine() {
  const k = localStorage.getItem(PLAYER_KEY);
  let list = [];
  if (k) {
    try {
      list = (await get("/v1/me/games?limit=50", k)).games;
    } catch (e) {
      list = [];   // a key the server does not know: the next join or game makes a new one
    }
  }
  const rows = list.map((g) => {
    const tr = document.createElement("tr");
    tr.dataset.game = g.id;
    if (g.my_turn) tr.className = "turn";
    const what = document.createElement("td"), st = document.createElement("td"), cell = document.createElement("td");
    what.textContent = "game " + g.id.slice(0, 8) + ", seat " + g.seat + ", move " + g.seq;
    st.className = "state";
    st.textContent = state(g);
    const a = document.createElement("a");
    a.href = "/games/" + g.id + "#player";   // the page takes the key from this browser (api.js), not the address
    a.textContent = "Open";
    a.setAttribute("aria-label", "Open game " + g.id.slice(0, 8) + " (" + state(g) + ")");
    a.className = "open";
    cell.append(a);
    tr.append(what, st, cell);
    return tr;
  });
  $("mine").replaceChildren(...rows);
  $("mine-box").hidden = rows.length === 0;
  document.body.dataset.mine = String(rows.length);
}

for (let n = 2; n <= 6; n++) {
  const o = document.createElement("option");
  o.value = o.textContent = String(n);
  $("new-seats").append(o);
}
$("me-name").value = localStorage.getItem(NAME) || "";
showKey();
$("reload").addEventListener("click", load);
$("new-form").addEventListener("submit", create);
// the list as it is now, every 15 s while the tab is in view (no stream: the lobby has no log)
setInterval(() => { if (!busy && document.visibilityState === "visible") { load(); loadMine(); } }, 15000);
loadMine().then(load);
