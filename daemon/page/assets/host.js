// host.js — the creator's side of a waiting game, in the browser. A game started from the lobby page keeps in
// localStorage, until it starts, what its creation answered only once: the invitations' links
// (invites[].page_url) and the creator token (ct_...). The creator's page of the waiting game shows the links
// to send to friends, and starts the game with the seats taken so far (POST .../start: a lobby game of six
// that only three people joined), keeps it open when nobody joins (POST .../keep-open: the server cancels a
// game nobody joins at its expires_at) or cancels it (POST .../cancel), with the creator token; and it removes
// a person who took a link's seat (POST .../seats/{seat}/remove), whose link then gives way to a new one. (join.js is
// the side of the people invited.)
import { get, postAs } from "./api.js";
import { alertLine, confirmButton, el } from "./dom.js";

const KEEP = "carcd.created.";
const shown = new WeakMap();   // the creator's part (#host) -> the view it was last drawn from

export function rememberCreated(id, answer) {
  const links = (answer.invites || []).map((i) => ({ url: new URL(i.page_url, location.origin).href,
                                                     mailed_to: i.mailed_to || null }));
  localStorage.setItem(KEEP + id, JSON.stringify({ links, creator: answer.creator_token || null }));
}

export function forgetCreated(id) { localStorage.removeItem(KEEP + id); }

function kept(id) {
  try { return JSON.parse(localStorage.getItem(KEEP + id) || "null"); } catch (e) { return null; }
}

function startWords(taken) {
  return taken < 2 ? "Start now (when a second player is here)" : "Start now with the " + taken + " players here";
}

// Into box (#choices), for a seat's page of a waiting game (view: its view); nothing when this browser did not
// create it. done(): the game was started, kept open or cancelled (the page reads it again).
export function drawHost(box, id, view, done) {
  const k = kept(id);
  if (!k) { box.replaceChildren(); return; }
  const taken = view.players.length;
  const old = box.querySelector("#host");
  if (old) {   // drawn already: what is being copied stays; the start button and the links follow the seats
    const start = old.querySelector("#host-start");
    const keep = old.querySelector("#host-keep-open");
    if (keep) keep.hidden = !view.expires_at;
    if (start) {
      start.textContent = startWords(taken);
      start.disabled = taken < 2;
    }
    shown.set(old, view);
    markUsed(old, view);
    return;
  }
  const wrap = el("div");
  wrap.id = "host";
  if (k.links.length) {
    wrap.append(el("p", null, "Send a friend one of these links: each opens one seat, once, and the game starts " +
                              "when every seat is taken."));
    for (const l of k.links) {
      const link = typeof l === "string" ? { url: l, mailed_to: null } : l;   // kept by an older page: a string
      const f = el("input", "invite-link");
      f.readOnly = true;
      f.value = link.url;
      f.setAttribute("aria-label", "an invitation's link");
      f.addEventListener("focus", () => f.select());
      const note = el("p", "hint link-note");
      note.dataset.mailedTo = link.mailed_to || "";
      wrap.append(f, note);
    }
  }
  const problem = alertLine("host-problem");
  if (k.creator) addRemoveButtons(wrap, id, k, problem, done);
  const act = async (what) => {
    problem.hidden = true;
    try {
      await postAs(k.creator, "/v1/games/" + id + "/" + what, {});
      done();
    } catch (e) {
      problem.textContent = "Not done: " + e.message;
      problem.hidden = false;
    }
  };
  if (k.creator) {
    const row = el("div", "buttons");
    const start = el("button", null, startWords(taken));
    start.type = "button";
    start.id = "host-start";
    start.disabled = taken < 2;
    start.addEventListener("click", () => act("start"));
    // cancelling cannot be undone: the first press asks, a second one within 5 s does it
    const cancel = confirmButton("Cancel the game", "Press again to cancel the game", 5000, () => act("cancel"));
    cancel.id = "host-cancel";
    // a game nobody joins is cancelled at expires_at; this gives it the server's whole wait again from now
    const keep = el("button", null, "Keep it open longer");
    keep.type = "button";
    keep.id = "host-keep-open";
    keep.hidden = !view.expires_at;
    keep.addEventListener("click", () => act("keep-open"));
    row.append(start, keep, cancel);
    wrap.append(row);
  }
  wrap.append(problem);
  shown.set(wrap, view);
  markUsed(wrap, view);
  box.replaceChildren(wrap);
  if (k.creator && k.links.length) addMailForms(wrap, id, k).catch(() => {});   // no forms: the links still work
  if (k.creator && k.links.length) watchMails(wrap, id, k);
}

// How carcd's invitation mails fared (GET .../invites with the creator token): a mail the server refused for
// good says so under its link, so the creator mails it elsewhere instead of waiting. Looked at again every
// 5 s while a mail is still on its way, as long as the creator's part is on the page.
async function watchMails(wrap, id, k) {
  let again = false;
  try {
    const a = await get("/v1/games/" + id + "/invites", k.creator);
    const notes = wrap.querySelectorAll(".link-note");
    a.places.forEach((p, i) => {
      if (!notes[i] || !p.mailed_to) return;
      notes[i].dataset.mailedTo = p.mailed_to;
      notes[i].dataset.mailFailed = p.mail && p.mail.state === "failed" ? (p.mail.error || "refused") : "";
      if (p.mail && p.mail.state === "pending") again = true;
    });
    markUsed(wrap, shown.get(wrap));
  } catch (e) {
    again = true;   // the server or the network: try again later, the links work meanwhile
  }
  if (again && wrap.isConnected) setTimeout(() => { if (wrap.isConnected) watchMails(wrap, id, k); }, 5000);
}

// Where the server mails invitations (GET /v1/lobby's invite_mail), a form under each link that mails it to
// a friend (POST .../invites/mail with the creator token, the invitation named by the code in its link).
async function addMailForms(wrap, id, k) {
  if (!(await get("/v1/lobby?limit=1")).invite_mail) return;
  const fields = wrap.querySelectorAll(".invite-link");
  wrap.querySelectorAll(".link-note").forEach((note, i) => {
    const form = el("form", "mail-form");
    form.hidden = fields[i].classList.contains("used");
    const addr = el("input");
    addr.type = "text";   // the server's refusal says what is wrong, as on the lobby's form
    addr.inputMode = "email";
    addr.placeholder = "a friend's e-mail address";
    addr.setAttribute("aria-label", "mail this link to");
    const send = el("button", null, "Mail it");
    send.type = "submit";
    const problem = alertLine();
    form.append(addr, send, problem);
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      problem.hidden = true;
      send.disabled = true;
      const url = typeof k.links[i] === "string" ? k.links[i] : k.links[i].url;
      const code = decodeURIComponent((/#invite=([^&]+)/.exec(url) || [])[1] || "");
      try {
        const a = await postAs(k.creator, "/v1/games/" + id + "/invites/mail", { invite: code, email: addr.value.trim() });
        k.links[i] = { url, mailed_to: a.mailed_to };
        localStorage.setItem(KEEP + id, JSON.stringify(k));
        note.dataset.mailedTo = a.mailed_to;
        note.dataset.mailFailed = "";
        note.textContent = "mailed to " + a.mailed_to;
        note.classList.remove("bounced");
        note.classList.add("mailed");
        watchMails(wrap, id, k);
        addr.value = "";
      } catch (e) {
        problem.textContent = "Not mailed: " + e.message;
        problem.hidden = false;
      }
      send.disabled = false;
    });
    const remove = note.nextElementSibling;   // the form goes after the note's remove button
    (remove && remove.classList.contains("remove-seat") ? remove : note).after(form);
  });
  wrap.dataset.mailForms = "1";
}

// After each link's note, for its creator: a button that removes the person who took its seat (POST
// .../seats/{seat}/remove), pressed twice. The place opens again; when it opens to a new code (the removed person
// had the old one), the link shown and kept becomes the new one, and the old link no longer opens it. The request
// names the link's place too: if a seat before it was given up meanwhile, the number shown is someone else's now,
// and carcd removes nobody (409 seat-changed) rather than them.
function addRemoveButtons(wrap, id, k, problem, done) {
  wrap.querySelectorAll(".link-note").forEach((note, i) => {
    const b = confirmButton("Remove this player", "Press again to remove them from the game", 5000, async () => {
      problem.hidden = true;
      try {
        const a = await postAs(k.creator, "/v1/games/" + id + "/seats/" + b.dataset.seat + "/remove", { place: i });
        if (a.invite) {
          const url = new URL(a.invite.page_url, location.origin).href;
          k.links[a.invite.place] = { url, mailed_to: null };
          localStorage.setItem(KEEP + id, JSON.stringify(k));
          wrap.querySelectorAll(".invite-link")[a.invite.place].value = url;
          wrap.querySelectorAll(".link-note")[a.invite.place].dataset.mailedTo = "";
        }
        done();
      } catch (e) {
        problem.textContent = "Not removed: " + e.message;
        problem.hidden = false;
      }
    });
    b.className = "remove-seat";
    b.hidden = true;
    note.after(b);
  });
}

// Under each link: who took its seat (the view's places[i].seat: link i is place i), else whether carcd mailed
// it. A used link is dimmed: it opens no seat any more.
function markUsed(wrap, view) {
  const fields = wrap.querySelectorAll(".invite-link"), notes = wrap.querySelectorAll(".link-note");
  const places = view.places || [];
  fields.forEach((f, i) => {
    const seat = places[i] ? places[i].seat : null;
    const who = seat === null ? null : (view.players.find((p) => p.seat === seat) || {}).name;
    f.classList.toggle("used", seat !== null);
    const mailed = notes[i].dataset.mailedTo, failed = notes[i].dataset.mailFailed;
    notes[i].textContent = seat !== null ? "used: " + (who || "seat " + seat) + " took this seat"
      : mailed && failed ? "not delivered to " + mailed + ": the mail server refused it (" + failed + "). Mail it " +
                           "to another address, or send the link yourself."
      : mailed ? "mailed to " + mailed : "";
    notes[i].classList.toggle("mailed", seat === null && !!mailed && !failed);
    notes[i].classList.toggle("bounced", seat === null && !!mailed && !!failed);
    // what follows the note, up to the next link: its remove button (the creator's) and its mail form
    for (let n = notes[i].nextElementSibling; n && !n.classList.contains("invite-link"); n = n.nextElementSibling) {
      if (n.classList.contains("remove-seat")) {
        n.hidden = seat === null;
        n.dataset.seat = seat === null ? "" : String(seat);
      }
      if (n.classList.contains("mail-form")) n.hidden = seat !== null;   // a used link goes nowhere
    }
  });
}
