// fake-dom.mjs: as much of a page as the client's draws and its Board
// touch, for the node tests that run them (draw.test.mjs): elements with
// their children, attributes, classes, data, text and listeners, and a
// document whose focus the test can watch. An element asked for by id
// that the page has not made is made on the spot (empty), as index.html
// would hold it; so is a child asked for by one class (`.row-top`).
// Nothing here is a browser: only what a draw reads and writes.

class FakeText {
  constructor(text) { this.nodeType = 3; this.textContent = String(text); this.parentNode = null; }
  remove() { if (this.parentNode) this.parentNode._drop(this); }
}

class FakeClassList {
  constructor() { this.set = new Set(); }
  contains(c) { return this.set.has(c); }
  add(...cs) { for (const c of cs) this.set.add(c); }
  remove(...cs) { for (const c of cs) this.set.delete(c); }
  toggle(c, on) {
    const want = on === undefined ? !this.set.has(c) : !!on;
    if (want) this.set.add(c); else this.set.delete(c);
    return want;
  }
}

export class FakeElement {
  constructor(doc, tag) {
    this.ownerDocument = doc;
    this.nodeType = 1;
    this.tagName = String(tag).toUpperCase();
    this.childNodes = [];
    this.parentNode = null;
    this.attrs = new Map();
    this.dataset = {};
    this.classList = new FakeClassList();
    this.style = { setProperty() {}, removeProperty() {} };
    this.hidden = false;
    this.disabled = false;
    this.checked = false;
    this.open = false;
    this.value = '';
    this.title = '';
    this.scrollTop = 0;
    this.scrollHeight = 0;
    this.listeners = {};
  }

  get className() { return [...this.classList.set].join(' '); }
  set className(v) { this.classList.set = new Set(String(v).split(/\s+/).filter(Boolean)); }
  get id() { return this.attrs.get('id') || ''; }
  set id(v) { this.setAttribute('id', v); }
  get children() { return this.childNodes.filter((n) => n.nodeType === 1); }
  get firstChild() { return this.childNodes[0] || null; }
  get firstElementChild() { return this.children[0] || null; }
  get childElementCount() { return this.children.length; }
  get nextElementSibling() {
    if (!this.parentNode) return null;
    const sibs = this.parentNode.children;
    return sibs[sibs.indexOf(this) + 1] || null;
  }

  get textContent() { return this.childNodes.map((n) => n.textContent).join(''); }
  set textContent(v) { this.replaceChildren(String(v)); }

  _node(n) { return typeof n === 'string' || typeof n === 'number' ? new FakeText(n) : n; }
  _drop(n) {
    const i = this.childNodes.indexOf(n);
    if (i >= 0) this.childNodes.splice(i, 1);
    n.parentNode = null;
  }

  insertBefore(n, ref) {
    n = this._node(n);
    if (n.parentNode) n.parentNode._drop(n);
    const i = ref ? this.childNodes.indexOf(ref) : -1;
    this.childNodes.splice(i < 0 ? this.childNodes.length : i, 0, n);
    n.parentNode = this;
    return n;
  }

  appendChild(n) { return this.insertBefore(n, null); }
  append(...ns) { for (const n of ns) this.appendChild(n); }
  prepend(...ns) { for (const n of ns.reverse()) this.insertBefore(n, this.childNodes[0] || null); }
  replaceChildren(...ns) {
    for (const n of [...this.childNodes]) this._drop(n);
    this.append(...ns);
  }

  remove() { if (this.parentNode) this.parentNode._drop(this); }
  before(...ns) { for (const n of ns) this.parentNode.insertBefore(n, this); }
  after(...ns) {
    const next = this.parentNode.childNodes[this.parentNode.childNodes.indexOf(this) + 1] || null;
    for (const n of ns) this.parentNode.insertBefore(n, next);
  }

  setAttribute(k, v) { this.attrs.set(k, String(v)); }
  getAttribute(k) { return this.attrs.has(k) ? this.attrs.get(k) : null; }
  hasAttribute(k) { return this.attrs.has(k); }
  removeAttribute(k) { this.attrs.delete(k); }
  toggleAttribute(k, on) { if (on) this.setAttribute(k, ''); else this.removeAttribute(k); }

  addEventListener(type, fn) { (this.listeners[type] ||= []).push(fn); }
  removeEventListener(type, fn) { this.listeners[type] = (this.listeners[type] || []).filter((f) => f !== fn); }
  dispatch(type, ev = {}) { for (const fn of this.listeners[type] || []) fn({ type, target: this, ...ev }); }

  // The keyboard's focus (focus-visible), as a key press would leave it.
  focus() {
    const doc = this.ownerDocument;
    if (doc.activeElement === this) return;
    const was = doc.activeElement;
    doc.activeElement = this;
    doc.focusVisible = true;
    doc.focusMoves.push(this);
    if (was && was.dispatch) was.dispatch('blur');
    this.dispatch('focus');
  }

  blur() { if (this.ownerDocument.activeElement === this) this.ownerDocument.activeElement = this.ownerDocument.body; }
  matches(sel) { return sel === ':focus-visible' ? this.ownerDocument.activeElement === this && this.ownerDocument.focusVisible : false; }
  closest() { return null; }
  getBoundingClientRect() { return { x: 0, y: 0, left: 0, top: 0, right: 0, bottom: 0, width: 0, height: 0 }; }
  scrollIntoView() {}
  showModal() { this.open = true; }
  close() { this.open = false; }

  _all() { return this.children.flatMap((c) => [c, ...c._all()]); }
  _matches(sel) {
    if (sel.startsWith('#')) return this.id === sel.slice(1);
    if (sel.startsWith('.')) return sel.slice(1).split('.').every((c) => this.classList.contains(c));
    return this.tagName === sel.toUpperCase();
  }

  // One simple selector (#id, .a.b or a tag); a class the page lacks is
  // made, as index.html would hold it.
  querySelector(sel) {
    const found = this._all().find((el) => el._matches(sel));
    if (found || !/^\.[\w-]+$/.test(sel)) return found || null;
    const el = new FakeElement(this.ownerDocument, 'div');
    el.className = sel.slice(1);
    this.appendChild(el);
    return el;
  }

  querySelectorAll(sel) { return /^[#.]?[\w-]+(\.[\w-]+)*$/.test(sel) ? this._all().filter((el) => el._matches(sel)) : []; }
}

// A document: elements by id made on demand; focusMoves lists every
// element focused, in order (a draw must add none).
export function fakeDocument() {
  const doc = {
    ids: new Map(),
    focusMoves: [],
    focusVisible: false,
    title: '',
    visibilityState: 'visible',
    createElement: (tag) => new FakeElement(doc, tag),
    createElementNS: (ns, tag) => new FakeElement(doc, tag),
    createTextNode: (text) => new FakeText(text),
    getElementById(id) {
      if (!doc.ids.has(id)) {
        const el = new FakeElement(doc, 'div');
        el.id = id;
        doc.body.appendChild(el);
        doc.ids.set(id, el);
      }
      return doc.ids.get(id);
    },
    querySelector: (sel) => doc.body.querySelector(sel),
    querySelectorAll: (sel) => doc.body.querySelectorAll(sel),
    addEventListener() {},
    removeEventListener() {},
  };
  doc.documentElement = new FakeElement(doc, 'html');
  doc.body = new FakeElement(doc, 'body');
  doc.activeElement = doc.body;
  return doc;
}

// The page's globals for a test: document, window, localStorage (whose
// reads the test may forbid: storage.forbid = true makes each throw and
// be counted), navigator; returns them.
export function installPage() {
  const document = fakeDocument();
  const data = new Map();
  const storage = {
    forbid: false,
    keys: [],   // the keys read while forbidden
    reads: 0,
    getItem(k) {
      if (storage.forbid) { storage.reads++; storage.keys.push(k); throw new Error(`localStorage read during a draw: ${k}`); }
      return data.has(k) ? data.get(k) : null;
    },
    setItem(k, v) {
      if (storage.forbid) { storage.reads++; throw new Error(`localStorage written during a draw: ${k}`); }
      data.set(k, String(v));
    },
    removeItem(k) { data.delete(k); },
    key: (i) => [...data.keys()][i] ?? null,
    get length() { return data.size; },
  };
  const window = {
    matchMedia: () => ({ matches: true, addEventListener() {} }),
    addEventListener() {},
    scrollTo() {},
    scrollY: 0,
    location: { href: 'http://localhost/', search: '', origin: 'http://localhost', pathname: '/' },
  };
  Object.assign(globalThis, { document, window, localStorage: storage });
  return { document, window, storage };
}
