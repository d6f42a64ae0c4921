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
