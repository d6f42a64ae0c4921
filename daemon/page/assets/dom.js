// dom.js — the helpers the page's modules share to make elements. Text goes in with textContent only,
// never as HTML: a player's words or a server's detail are shown as the characters they are.
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// The line under a form where a refusal is said: hidden until then, announced when it shows.
export function alertLine(id) {
  const p = el("p");
  if (id) p.id = id;
  p.setAttribute("role", "alert");
  p.hidden = true;
  return p;
}

// A button for what cannot be taken back (cancel a game, resign): the first press only asks, in `again`; a
// second press within `ms` calls onConfirm; otherwise it goes back to `text`.
export function confirmButton(text, again, ms, onConfirm) {
  const b = el("button", null, text);
  b.type = "button";
  let armed = null;
  b.addEventListener("click", () => {
    if (!armed) {
      b.textContent = again;
      armed = setTimeout(() => { armed = null; b.textContent = text; }, ms);
      return;
    }
    clearTimeout(armed);
    armed = null;
    onConfirm();
  });
  return b;
}
