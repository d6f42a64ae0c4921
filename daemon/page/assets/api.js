// api.js — the page's only way to the server: the public REST API of carcd, with the seat's token.
//
// The token comes from the URL fragment (#token=cs_...): a fragment never reaches the server in a request
// line, so it stays out of access logs; it is sent only as the Authorization header of fetch(). A page
// opened from the lobby's "Your games" (#player) acts with the player key this browser keeps (lobby.js),
// which is no part of the address: a key opens all of a player's games, and an address gets shared.
export const PLAYER_KEY = "carcd.player_key";
const m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
export const asPlayer = /^#player$/.test(location.hash);
export const token = m ? decodeURIComponent(m[1]) : (asPlayer ? localStorage.getItem(PLAYER_KEY) : null);

// The address of a seat's page with its token, as a join, a new game or a rematch answers it (seat, token):
// "joined" (or "created", for the game's creator) makes that page ask once to be bookmarked (join.js's
// joinedNote).
export function seatPageUrl(gameId, answer, how = "joined") {
  return "/games/" + gameId + "#token=" + encodeURIComponent(answer.token) + "&" + how + "=" + answer.seat;
}
const auth = token ? { Authorization: "Bearer " + token } : {};

// An HTTP answer that is not 2xx, with its RFC 9457 problem when it has one.
// Its message is the problem's detail (else its title), what the pages show a person after their own words.
export class ApiError extends Error {
  constructor(status, problem) {
    super((problem && (problem.detail || problem.title)) || "HTTP " + status);
    this.status = status;
    this.problem = problem;
  }
}

async function answer(r) {
  const text = await r.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch (e) { body = null; }
  if (!r.ok) throw new ApiError(r.status, body);
  return body;
}

// bearer: another than the page's token (the lobby's player key)
export async function get(path, bearer) {
  const headers = bearer ? { Authorization: "Bearer " + bearer } : auth;
  return answer(await fetch(path, { headers, cache: "no-store" }));
}

export async function post(path, body) {
  return postAs(token, path, body);
}

// A POST with another bearer than the page's token (the lobby's player key); null: none.
export async function postAs(bearer, path, body) {
  return send("POST", bearer, path, body);
}

export async function put(path, body) {
  return send("PUT", token, path, body);
}

export async function del(path) {
  return send("DELETE", token, path, undefined);
}

async function send(method, bearer, path, body) {
  return answer(await fetch(path, {
    method, cache: "no-store",
    headers: Object.assign({ "Content-Type": "application/json" }, bearer ? { Authorization: "Bearer " + bearer } : {}),
    body: JSON.stringify(body),
  }));
}

// Follows the game's events as Server-Sent Events. EventSource cannot send an Authorization header (and a
// token in the query string would land in logs), so this reads text/event-stream through fetch() and a
// stream reader. The server ends a stream after its wait bound; we reconnect from the last id seen, as
// EventSource would (Last-Event-ID). onEntry gets each log entry; onLive(true/false) the connection state.
// With messages.after (the last message id seen) the same stream also carries the table talk, each message to
// messages.on: one connection per tab for both, since a browser holds at most six to one server and a tab
// that held two would leave a third tab's POST waiting behind their streams.
export function follow(id, after, onEntry, onLive, messages) {
  // the last frame's id: "<seq>", or "<seq>.<message id>" on a stream with messages (events.c)
  let last = messages ? after + "." + messages.after : String(after), stopped = false;
  async function once() {
    const headers = Object.assign({ Accept: "text/event-stream", "Last-Event-ID": last }, auth);
    const q = messages ? "&messages_after=" + last.split(".")[1] : "";
    const r = await fetch("/v1/games/" + id + "/events?after=" + last.split(".")[0] + q, { headers, cache: "no-store" });
    if (!r.ok) throw new ApiError(r.status, null);
    onLive(true);
    const reader = r.body.getReader(), dec = new TextDecoder();
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      let cut;
      while ((cut = buf.indexOf("\n\n")) >= 0) {   // one SSE frame per blank line
        const frame = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        let data = "", eid = null;
        for (const line of frame.split("\n")) {
          if (line.startsWith("data:")) data += line.slice(5).trim();
          else if (line.startsWith("id:")) eid = line.slice(3).trim();
        }
        if (!data) continue;   // retry: and keepalive comments
        const entry = JSON.parse(data);
        if (eid !== null) last = eid;
        if (entry.type === "message") { if (messages) messages.on(entry.message); }
        else onEntry(entry);
      }
    }
  }
  (async function loop() {
    let pause = 500;
    while (!stopped) {
      try { await once(); pause = 500; } catch (e) { pause = Math.min(pause * 2, 15000); }
      onLive(false);
      await new Promise((res) => setTimeout(res, pause));
    }
  })();
  return () => { stopped = true; };
}
