// dom.js: writing the page only where it changes. Each helper compares
// first, so a draw pass that finds nothing new leaves the page untouched
// (no mutation, the focus, the selection and the scroll kept).

// @ts-check
export function setText(el, text) {
  const s = String(text);
  if (el.textContent !== s) el.textContent = s;
}

export function setHidden(el, hidden) {
  if (el.hidden !== !!hidden) el.hidden = !!hidden;
}

export function setDisabled(el, disabled) {
  if (el.disabled !== !!disabled) el.disabled = !!disabled;
}

// value null removes the attribute.
export function setAttr(el, name, value) {
  if (value === null || value === undefined) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else if (el.getAttribute(name) !== String(value)) {
    el.setAttribute(name, String(value));
  }
}

// value null removes the data attribute.
export function setData(el, name, value) {
  if (value === null || value === undefined) {
    if (name in el.dataset) delete el.dataset[name];
  } else if (el.dataset[name] !== String(value)) {
    el.dataset[name] = String(value);
  }
}

// Keeps parent's children in step with items, by key (kept in data-key):
// a child whose key stays is kept (and given to update), a new key gets a
// child from make(item), a key gone loses its child; children move only
// when the order changes. So appending leaves the others untouched.
export function keyedList(parent, items, keyOf, make, update) {
  const old = new Map();
  for (const el of parent.children) old.set(el.dataset.key, el);
  const kept = new Set();
  let at = parent.firstElementChild;
  for (const item of items) {
    const key = String(keyOf(item));
    let el = old.get(key);
    if (!el) {
      el = make(item);
      el.dataset.key = key;
    }
    kept.add(el);
    update(el, item);
    if (el === at) at = at.nextElementSibling;
    else parent.insertBefore(el, at);
  }
  for (const el of old.values()) if (!kept.has(el)) el.remove();
}
