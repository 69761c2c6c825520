// The cadrun viewer page. No framework and no build step: the server's SVG is moved into one
// <g> whose transform is the camera, so the drawing stays vector-crisp at any zoom and the
// camera survives every update. Y points up in the world; the scene's SVG already has Y
// negated, so a world point (x, y) is (x, -y) inside #world.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const stage = $('stage'), world = $('world'), gridG = $('grid'), labelsG = $('labels');
  const tip = $('tip');

  let cam = null;          // {cx, cy, k}: world point at the centre, pixels per world unit
  let fitBox = null;       // the scene SVG's viewBox [x, y, w, h] (SVG coordinates)
  let epoch = '';          // the server's epoch: versions restart with the server
  let shown = 0;           // the scene version in the page
  let wanted = 0;          // the newest scene version announced
  let loading = false;
  let sel = { selected: [], locked: [], hidden: [] };
  let byName = null;       // entity name -> element, built when first needed after a load
  let marked = [];         // elements given .sel or data-hidden, to clear them cheaply
  let hoverEl = null;
  let eventAt = 0;         // when the newest scene event arrived
  let entities = 0;        // in the newest scene
  let sharpen = 0;         // the timer that turns anti-aliasing back on
  const fastAbove = 2000;  // entities above which changes paint without anti-aliasing first

  // refusal is why the server refused a request: the error of the one JSON form every
  // refusal under api/ takes ({"error": "..."}), or the text of any other answer.
  async function refusal(res) {
    const text = (await res.text()).trim();
    try {
      const e = JSON.parse(text).error;
      if (typeof e === 'string') return e;
    } catch (_) { /* not JSON: the text says it */ }
    return text;
  }
  window.cadrunRefusal = refusal; // sketch.js's too

  // moving marks a change of the picture: a large drawing paints fast now and sharp later.
  function moving() {
    if (entities <= fastAbove) return;
    world.classList.add('fast');
    clearTimeout(sharpen);
    sharpen = setTimeout(() => world.classList.remove('fast'), 400);
  }
  const cameraKey = 'cadrun.camera';
  const onCamera = []; // called with #world's transform after every camera change (sketch.js)

  // ---- camera ----
  function size() {
    const r = stage.getBoundingClientRect();
    return { w: Math.max(1, r.width), h: Math.max(1, r.height) };
  }
  function toWorld(px, py) {
    const { w, h } = size();
    return { x: (px - w / 2) / cam.k + cam.cx, y: cam.cy - (py - h / 2) / cam.k };
  }
  function toScreen(x, y) {
    const { w, h } = size();
    return { x: (x - cam.cx) * cam.k + w / 2, y: (cam.cy - y) * cam.k + h / 2 };
  }
  function apply() {
    if (!cam) return;
    const { w, h } = size();
    const tx = w / 2 - cam.k * cam.cx, ty = h / 2 + cam.k * cam.cy;
    moving();
    world.setAttribute('transform', `matrix(${cam.k} 0 0 ${cam.k} ${tx} ${ty})`);
    for (const f of onCamera) f(world.getAttribute('transform'));
    drawGrid(w, h);
    try { sessionStorage.setItem(cameraKey, JSON.stringify(cam)); } catch (_) { /* private mode */ }
  }
  function fit() {
    if (!fitBox) return;
    const { w, h } = size();
    const [x, y, bw, bh] = fitBox;
    cam = { cx: x + bw / 2, cy: -(y + bh / 2), k: Math.min(w / bw, h / bh) };
    apply();
  }
  function zoomAt(px, py, f) {
    const before = toWorld(px, py);
    cam.k = Math.min(1e9, Math.max(1e-9, cam.k * f));
    const after = toWorld(px, py);
    cam.cx += before.x - after.x;
    cam.cy += before.y - after.y;
    apply();
  }

  // ---- grid: lines every step, labels in world units, the origin marked; Y up ----
  function niceStep(min) {
    const p = Math.pow(10, Math.floor(Math.log10(min)));
    for (const m of [1, 2, 5]) if (m * p >= min) return m * p;
    return 10 * p;
  }
  function label(v, step) {
    const d = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
    const s = (Math.abs(v) < step / 1e6 ? 0 : v).toFixed(d);
    return s === '-0' ? '0' : s;
  }
  function drawGrid(w, h) {
    const step = niceStep(90 / cam.k);
    const minor = step / 5;
    const a = toWorld(0, h), b = toWorld(w, 0);
    let lines = '', texts = '';
    if (minor * cam.k >= 6) {
      for (let x = Math.ceil(a.x / minor) * minor; x <= b.x; x += minor) {
        const sx = toScreen(x, 0).x.toFixed(1);
        lines += `<line x1="${sx}" y1="0" x2="${sx}" y2="${h}"/>`;
      }
      for (let y = Math.ceil(a.y / minor) * minor; y <= b.y; y += minor) {
        const sy = toScreen(0, y).y.toFixed(1);
        lines += `<line x1="0" y1="${sy}" x2="${w}" y2="${sy}"/>`;
      }
    }
    for (let i = Math.ceil(a.x / step); i * step <= b.x; i++) {
      const x = i * step, sx = toScreen(x, 0).x.toFixed(1);
      lines += `<line class="${i === 0 ? 'axis' : 'major'}" x1="${sx}" y1="0" x2="${sx}" y2="${h}"/>`;
      texts += `<text x="${+sx + 3}" y="${h - 4}">${label(x, step)}</text>`;
    }
    for (let i = Math.ceil(a.y / step); i * step <= b.y; i++) {
      const y = i * step, sy = toScreen(0, y).y.toFixed(1);
      lines += `<line class="${i === 0 ? 'axis' : 'major'}" x1="0" y1="${sy}" x2="${w}" y2="${sy}"/>`;
      texts += `<text x="3" y="${+sy - 3}">${label(y, step)}</text>`;
    }
    const o = toScreen(0, 0);
    if (o.x >= -10 && o.x <= w + 10 && o.y >= -10 && o.y <= h + 10) {
      texts += `<circle class="origin" cx="${o.x.toFixed(1)}" cy="${o.y.toFixed(1)}" r="5"/>` +
        `<text class="origin-label" x="${(o.x + 7).toFixed(1)}" y="${(o.y - 7).toFixed(1)}">0,0</text>`;
    }
    gridG.innerHTML = lines;
    labelsG.innerHTML = texts;
  }

  // ---- the scene ----
  async function loadScene() {
    if (loading) return; // the running load picks up the newest version when it ends
    loading = true;
    try {
      while (shown !== wanted) {
        const target = wanted;
        const t0 = performance.now();
        const res = await fetch('api/scene.svg', { cache: 'no-store' });
        if (!res.ok) throw new Error(`GET api/scene.svg: ${res.status} ${await refusal(res)}`);
        const solids = +(res.headers.get('X-Cadrun-Solids') || 0);
        const text = await res.text();
        const t1 = performance.now();
        // The HTML parser (inline SVG) is many times faster than DOMParser's XML parser on a
        // large drawing: 10,000 paths parse in tens of milliseconds instead of most of a second.
        const tpl = document.createElement('template');
        // Without the writer's line breaks and indents, which would each become a text node,
        // and without the round joins and caps it writes on every stroked path, which #world
        // passes down instead (viewer.css): a quarter fewer bytes to parse, and fewer
        // attributes to style.
        tpl.innerHTML = text.replace(/>\s+</g, '><').replaceAll(' stroke-linejoin="round" stroke-linecap="round"', '');
        const root = tpl.content.querySelector('svg');
        if (!root) throw new Error('the scene SVG did not parse');
        fitBox = root.getAttribute('viewBox').split(/\s+/).map(Number);
        // Each entity is one line of the writer's output, in document order: remember each
        // element's line, so that the next update can tell an unchanged entity by comparing
        // two strings rather than reading its attributes.
        const lines = text.split('\n').filter((l) => l.includes(' data-name="'));
        const els = root.querySelectorAll('[data-name]');
        if (lines.length === els.length) els.forEach((el, i) => { el.cadrunLine = lines[i]; });
        const t2 = performance.now();
        if (hoverEl) hoverEl.classList.remove('hover');
        // A large replacement paints fast first; an edit of a few entities repaints only them.
        if (reconcile(world, root) > fastAbove) moving();
        const t3 = performance.now();
        byName = null;
        hoverEl = null;
        tip.hidden = true;
        shown = target;
        showShaded(solids);
        if (!cam) {
          try { cam = JSON.parse(sessionStorage.getItem(cameraKey)); } catch (_) { cam = null; }
          if (!cam || !(cam.k > 0)) fit(); else apply();
        }
        buildTree();
        showSelection();
        document.body.dataset.version = String(shown);
        const t4 = performance.now();
        // Timings for the curious and for the speed benchmark (times since the epoch, in ms).
        const loaded = { version: shown, event: t0 - eventAt, fetch: t1 - t0, parse: t2 - t1, insert: t3 - t2, index: t4 - t3, inDOM: performance.timeOrigin + t4 };
        window.cadrunLoaded = loaded;
        requestAnimationFrame(() => setTimeout(() => { loaded.painted = performance.timeOrigin + performance.now(); }, 0));
      }
    } catch (err) {
      console.error(err);
      window.cadrunError = String((err && err.stack) || err); // for tests and the curious
      setTimeout(loadScene, 1000);
    } finally {
      loading = false;
    }
  }

  // ---- solids ----
  // The SVG leaves solids out, so a scene with solids is shown in the 3D view, or, where it
  // cannot be (no WebGL, or over the server's triangle cap), as the server's own shaded
  // picture (api/scene.png, as the agent sees it) over the plan, from the side the view
  // buttons name (pictureView); the 3D button (key 3) turns either off to see and pick in the
  // plan, and on again.
  const shaded = $('shaded'), solidBtn = $('solid3d');
  const planKey = 'cadrun.plan';
  let solidsShown = 0, planWanted = false, resized = 0, pictureView = 'iso';
  try { planWanted = sessionStorage.getItem(planKey) === '1'; } catch (_) { /* private mode */ }
  function showShaded(solids) {
    solidsShown = solids;
    document.body.dataset.solids = String(solids);
    solidBtn.hidden = solids === 0;
    const on = solids > 0 && !planWanted;
    solidBtn.setAttribute('aria-pressed', String(on));
    $('views3d').hidden = true;
    // The 3D view (solids3d.js) when this browser has WebGL and the scene is within the
    // server's triangle cap; else the server's shaded picture.
    const gl3d = window.cadrun3d;
    if (on && gl3d && !pictureFor[shown] && gl3d.show(shown)) {
      shaded.hidden = true;
      $('views3d').hidden = false;
      // The 3D view orbits freely: no button stays pressed.
      for (const b of document.querySelectorAll('#views3d button')) b.removeAttribute('aria-pressed');
      return;
    }
    if (gl3d) gl3d.hide();
    shaded.hidden = !on;
    if (!on) return;
    $('views3d').hidden = false;
    for (const b of document.querySelectorAll('#views3d button')) b.setAttribute('aria-pressed', String(b.dataset.view === pictureView));
    // As many pixels as the stage shows (the server's MaxPNGWidth at most); the picture is
    // only ever scaled down to fit.
    const w = Math.max(1, Math.min(4096, Math.round(stage.clientWidth * (window.devicePixelRatio || 1))));
    const src = `api/scene.png?width=${w}&view=${pictureView}&v=${shown}`;
    if (shaded.getAttribute('src') !== src) shaded.src = src;
  }
  // pictureFor marks the versions the 3D view could not show (over the server's cap), with why.
  const pictureFor = {};
  function togglePlan() {
    if (solidsShown === 0) return;
    planWanted = !planWanted;
    try { sessionStorage.setItem(planKey, planWanted ? '1' : '0'); } catch (_) { /* private mode */ }
    showShaded(solidsShown);
  }
  solidBtn.addEventListener('click', togglePlan);
  for (const b of document.querySelectorAll('#views3d button')) {
    b.addEventListener('click', () => {
      if (!shaded.hidden) { pictureView = b.dataset.view; showShaded(solidsShown); return; }
      if (window.cadrun3d) window.cadrun3d.view(b.dataset.view);
    });
  }
  window.addEventListener('resize', () => { clearTimeout(resized); resized = setTimeout(() => showShaded(solidsShown), 200); });

  // reconcile makes the children of cur (in the page) those of next (just parsed), keeping
  // every element whose entity did not change: the browser then styles, lays out and paints
  // only what an edit touched, instead of the whole drawing. It returns the number of
  // elements it put in.
  function reconcile(cur, next) {
    const olds = cur.children, news = Array.from(next.children);
    let added = 0;
    // A hatch (written after its shape, without a data-name) is keyed apart from the names.
    const name = (el) => el.getAttribute('data-name') ?? '\u0000' + el.getAttribute('data-hatch');
    if (olds.length === news.length && news.every((n, i) => olds[i].tagName === n.tagName && name(olds[i]) === name(n))) {
      const pairs = news.map((n, i) => [olds[i], n]); // olds is live: replacing changes it
      for (const [o, n] of pairs) {
        if (n.tagName === 'g') added += reconcile(o, n);
        else if (!same(o, n)) { o.replaceWith(n); added++; }
      }
      return added;
    }
    const have = new Map();
    for (const o of olds) have.set(name(o), o);
    const frag = document.createDocumentFragment();
    for (const n of news) {
      const o = have.get(name(n));
      if (o && o.tagName === n.tagName && (n.tagName === 'g' || same(o, n))) {
        if (n.tagName === 'g') added += reconcile(o, n);
        frag.appendChild(o);
      } else {
        frag.appendChild(n);
        added += 1 + n.getElementsByTagName('*').length;
      }
    }
    // Through a fragment, not a spread: a drawing can have more nodes than a call has room for
    // arguments.
    cur.replaceChildren(frag);
    return added;
  }

  // same tells whether an element in the page still shows the entity of a new element: by the
  // writer's line for both when known, else by what the server wrote (not by the marks the
  // page adds, class and data-hidden).
  function same(o, n) {
    if (o.cadrunLine !== undefined && n.cadrunLine !== undefined) {
      return o.cadrunLine === n.cadrunLine;
    }
    const na = n.attributes;
    const marks = (o.hasAttribute('class') ? 1 : 0) + (o.hasAttribute('data-hidden') ? 1 : 0);
    if (o.attributes.length - marks !== na.length) return false;
    for (let i = 0; i < na.length; i++) {
      if (o.getAttribute(na[i].name) !== na[i].value) return false;
    }
    return true;
  }

  function buildTree() {
    const tree = $('tree');
    const walk = (parent, ul) => {
      for (const el of parent.children) {
        if (el.tagName !== 'g' || !el.dataset.name) continue;
        const li = document.createElement('li');
        const span = document.createElement('span');
        span.textContent = el.dataset.name;
        span.dataset.name = el.dataset.name;
        span.title = `${el.childElementCount} members`;
        li.append(span);
        const sub = document.createElement('ul');
        sub.className = 'tree';
        walk(el, sub);
        if (sub.children.length) li.append(sub);
        ul.append(li);
      }
    };
    const ul = document.createDocumentFragment();
    walk(world, ul);
    tree.replaceChildren(ul);
    if (!tree.children.length) tree.innerHTML = '<li class="muted">no groups</li>';
  }

  // ---- selection ----
  function kindOf(el) { return el.dataset.kind || (el.tagName === 'g' ? 'group' : 'shape'); }
  function parentOf(el) {
    const p = el.parentElement && el.parentElement.closest('[data-name]');
    return p && world.contains(p) ? p.dataset.name : '';
  }

  function showSelection() {
    for (const el of marked) { el.classList.remove('sel'); el.removeAttribute('data-hidden'); }
    marked = [];
    if ((sel.selected.length || sel.hidden.length) && !byName) {
      byName = new Map();
      for (const el of world.querySelectorAll('[data-name]')) byName.set(el.dataset.name, el);
    }
    for (const n of sel.selected) { const el = byName.get(n); if (el) { el.classList.add('sel'); marked.push(el); } }
    for (const n of sel.hidden) { const el = byName.get(n); if (el) { el.setAttribute('data-hidden', ''); marked.push(el); } }
    for (const s of $('tree').querySelectorAll('span[data-name]')) s.classList.toggle('sel', sel.selected.includes(s.dataset.name));
    const hb = $('hiddenbox'), hl = $('hiddenlist');
    if (window.cadrun3d) window.cadrun3d.selected(sel.selected, sel.hidden);
    hb.hidden = sel.hidden.length === 0;
    hl.replaceChildren(...sel.hidden.map((n) => {
      const li = document.createElement('li');
      const span = document.createElement('span');
      span.textContent = n;
      span.title = 'show again';
      span.addEventListener('click', () => post({ ...sel, hidden: sel.hidden.filter((h) => h !== n) }));
      li.append(span);
      return li;
    }));
    showDetails();
  }

  async function showDetails() {
    const box = $('details');
    const name = sel.selected[sel.selected.length - 1];
    if (!name) { box.hidden = true; return; }
    box.hidden = false;
    $('lock').textContent = sel.locked.includes(name) ? 'Unlock' : 'Lock';
    $('hide').textContent = sel.hidden.includes(name) ? 'Show' : 'Hide';
    $('more').textContent = sel.selected.length > 1 ? `${sel.selected.length} selected: ${sel.selected.join(', ')}` : '';
    const props = $('props');
    const rows = [['name', name]];
    const res = await fetch('api/entity?name=' + encodeURIComponent(name), { cache: 'no-store' });
    if (res.ok) {
      const d = await res.json();
      const num = (v) => +v.toPrecision(6);
      const box2 = d.worldBounds ? `${num(d.worldBounds.min[0])}, ${num(d.worldBounds.min[1])} … ${num(d.worldBounds.max[0])}, ${num(d.worldBounds.max[1])}` : 'empty';
      const colour = (c) => c ? `rgba(${c.map((v, i) => i < 3 ? Math.round(v * 255) : num(v)).join(', ')})` : 'none';
      rows.push(['kind', d.kind], ['parent', d.parent || '(top level)'], ['world bounds', box2],
        ['fill', colour(d.style.fill)], ['stroke', `${colour(d.style.stroke)} × ${num(d.style.strokeWidth)}`], ['z rank', String(d.zRank)]);
      if (d.kind === 'group') rows.push(['members', String(d.children || 0)]);
    } else {
      rows.push(['', 'not in this scene']);
    }
    if (sel.locked.includes(name)) rows.push(['locked', 'yes: a change to it warns']);
    if (sel.selected[sel.selected.length - 1] !== name) return; // a newer selection won
    props.replaceChildren(...rows.flatMap(([k, v]) => {
      const dt = document.createElement('dt'); dt.textContent = k;
      const dd = document.createElement('dd'); dd.textContent = v;
      return [dt, dd];
    }));
  }

  // The selection shown follows the server's selection events. A change made here shows at
  // once and is posted; events that arrive while posts are in flight wait until they are done
  // (they may predate this tab's change), and the server's event for the change follows.
  // A change the server did not keep is undone and the status line says why, since the agent
  // does not see it.
  let posting = 0, deferred = null;
  async function post(next) {
    sel = next;
    showSelection();
    posting++;
    const said = $('st-sel');
    try {
      const res = await fetch('api/selection', {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(next),
      });
      if (!res.ok) {
        const msg = await refusal(res);
        console.error(msg);
        said.textContent = ` · selection not kept: ${msg}`;
        const cur = await fetch('api/selection', { cache: 'no-store' });
        if (cur.ok) deferred = await cur.json();
      } else {
        said.textContent = '';
      }
    } catch (err) {
      said.textContent = ` · selection not kept: the viewer's server did not answer (${err.message || err}); is cadrun still running?`;
    } finally {
      posting--;
      if (posting === 0 && deferred) { sel = deferred; deferred = null; showSelection(); }
    }
  }
  function selectionEvent(next) {
    if (posting > 0) { deferred = next; return; }
    sel = next;
    showSelection();
  }

  function pick(name, add) {
    let selected;
    if (!name) selected = add ? sel.selected : [];
    else if (add) selected = sel.selected.includes(name) ? sel.selected.filter((n) => n !== name) : [...sel.selected, name];
    else selected = [name];
    post({ ...sel, selected });
  }

  function toggle(list) {
    const name = sel.selected[sel.selected.length - 1];
    if (!name) return;
    const cur = sel[list];
    post({ ...sel, [list]: cur.includes(name) ? cur.filter((n) => n !== name) : [...cur, name] });
  }

  // ---- pointer: pan (drag), zoom (wheel, pinch), hover, click ----
  const pointers = new Map();
  let drag = null; // {x, y, moved}
  let pinch = null; // {d, k}

  function entityAt(target) {
    const el = target && target.closest ? target.closest('[data-name]') : null;
    return el && world.contains(el) ? el : null;
  }
  // pickAt is the entity painted under a point, or within 4 px of it: an outline drawn at a
  // fraction of a pixel could not be pointed at otherwise.
  const near = [[0, 0], [4, 0], [-4, 0], [0, 4], [0, -4], [3, 3], [-3, 3], [3, -3], [-3, -3], [2, 0], [-2, 0], [0, 2], [0, -2]];
  function pickAt(x, y) {
    for (const [dx, dy] of near) {
      const el = entityAt(document.elementFromPoint(x + dx, y + dy));
      if (el) return el;
    }
    return null;
  }

  function hover(el, e) {
    if (hoverEl !== el) {
      if (hoverEl) hoverEl.classList.remove('hover');
      hoverEl = el;
      if (el) el.classList.add('hover');
    }
    if (!el) { tip.hidden = true; return; }
    const p = parentOf(el);
    tip.textContent = `${el.dataset.name} · ${kindOf(el)}${p ? ' · in ' + p : ''}`;
    const r = stage.getBoundingClientRect();
    tip.style.left = `${e.clientX - r.left + 14}px`;
    tip.style.top = `${e.clientY - r.top + 14}px`;
    tip.hidden = false;
  }

  // The error overlay is the stage's too, but its header and link take clicks of their own:
  // a capture here would take them away (and a click on it is no click on empty space).
  const onOverlay = (e) => e.target.closest && e.target.closest('#overlay .box');
  stage.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 || !cam || onOverlay(e)) return;
    stage.setPointerCapture(e.pointerId);
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.size === 1) drag = { x: e.clientX, y: e.clientY, moved: false, target: e.target };
    if (pointers.size === 2) {
      const [p, q] = [...pointers.values()];
      pinch = { d: Math.hypot(p.x - q.x, p.y - q.y), k: cam.k };
      drag = null;
    }
  });
  stage.addEventListener('pointermove', (e) => {
    const r = stage.getBoundingClientRect();
    if (cam) {
      const wp = toWorld(e.clientX - r.left, e.clientY - r.top);
      const d = Math.max(0, Math.ceil(Math.log10(cam.k)) + 1);
      $('coords').textContent = `x ${wp.x.toFixed(d)}  y ${wp.y.toFixed(d)}`;
    }
    if (pointers.has(e.pointerId)) pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pinch && pointers.size === 2) {
      const [p, q] = [...pointers.values()];
      const d = Math.hypot(p.x - q.x, p.y - q.y);
      zoomAt((p.x + q.x) / 2 - r.left, (p.y + q.y) / 2 - r.top, (pinch.k * d / pinch.d) / cam.k);
      return;
    }
    if (drag) {
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 4) return;
      if (!drag.moved) { drag.moved = true; stage.classList.add('dragging'); hover(null, e); }
      cam.cx -= dx / cam.k;
      cam.cy += dy / cam.k;
      drag.x = e.clientX; drag.y = e.clientY;
      apply();
      return;
    }
    hover(pickAt(e.clientX, e.clientY), e);
  });
  const up = (e) => {
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
    if (drag && !drag.moved && e.type === 'pointerup') {
      const el = pickAt(e.clientX, e.clientY);
      pick(el ? el.dataset.name : '', e.shiftKey);
    }
    drag = null;
    stage.classList.remove('dragging');
  };
  stage.addEventListener('pointerup', up);
  stage.addEventListener('pointercancel', up);
  stage.addEventListener('pointerleave', () => { if (!drag) { hover(null); $('coords').textContent = ''; } });
  stage.addEventListener('wheel', (e) => {
    if (!cam) return;
    e.preventDefault();
    hover(null, e);
    const r = stage.getBoundingClientRect();
    // ctrlKey: a trackpad pinch arrives as a wheel event with small deltas.
    zoomAt(e.clientX - r.left, e.clientY - r.top, Math.exp(-e.deltaY * (e.ctrlKey ? 0.01 : 0.0015)));
  }, { passive: false });

  const fitAny = () => { if (!$('views3d').hidden && window.cadrun3d) window.cadrun3d.fit(); else fit(); };
  $('fit').addEventListener('click', fitAny);
  $('one').addEventListener('click', () => { if (cam) { cam.k = 1; apply(); } });
  $('lock').addEventListener('click', () => toggle('locked'));
  $('hide').addEventListener('click', () => toggle('hidden'));
  $('clear').addEventListener('click', () => pick('', false));
  $('tree').addEventListener('click', (e) => {
    const s = e.target.closest('span[data-name]');
    if (s) pick(s.dataset.name, e.shiftKey);
  });
  window.addEventListener('keydown', (e) => {
    if (e.target.closest && e.target.closest('input, textarea')) return;
    if (e.key === 'f') fitAny();
    else if (e.key === '1' && cam) { cam.k = 1; apply(); }
    else if (e.key === '3') togglePlan();
    else if (e.key === 'Escape') pick('', false);
  });
  window.addEventListener('resize', apply);

  // ---- events ----
  // The error overlay. A place is named by the parts that are known: a missing main has a
  // file and no line, some errors a line and no column (the server leaves out what is 0).
  const place = (file, line, column) => !file ? '' : !(line > 0) ? file : !(column > 0) ? `${file}:${line}` : `${file}:${line}:${column}`;
  // Folding is kept for one error (its file, kind and message, not its line, which moves as
  // the person edits above it) until a different error or a good run, and across reloads of
  // the tab: a person who folded it while fixing it is not shown it again at every save.
  const foldKey = 'cadrun.folded';
  let diag = null;      // the diagnostic shown
  let copiedTimer = 0;
  const diagID = (d) => JSON.stringify([d.file || '', d.kind || '', d.message || '']);
  function fold(on) {
    const ov = $('overlay');
    ov.dataset.folded = on ? '1' : '';
    $('diag-fold').textContent = on ? '▸' : '▾';
    $('diag-fold').setAttribute('aria-expanded', String(!on));
    try {
      if (on && diag) sessionStorage.setItem(foldKey, diagID(diag)); else sessionStorage.removeItem(foldKey);
    } catch (_) { /* private mode */ }
  }
  function sceneNote() {
    // Scene version 0 is the empty scene a server starts with: no run has succeeded yet.
    $('diag-scene').textContent = wanted > 0 ? 'showing the last good scene' : 'no good scene yet';
  }
  function showDiagnostic(d, version) {
    const ov = $('overlay');
    document.body.dataset.diagnostic = d ? '1' : '';
    document.body.dataset.diagnosticVersion = String(version);
    diag = d;
    if (!d) {
      ov.hidden = true;
      fold(false); // a good run: the next error is news
      return;
    }
    const loc = place(d.file, d.line, d.column);
    $('diag-loc').textContent = loc;
    $('diag-loc').hidden = !loc;
    $('diag-copied').textContent = '';
    const msg = d.kind ? `${d.kind}: ${d.message}` : d.message;
    $('diag-msg').textContent = msg;
    $('diag-sum').textContent = msg.split('\n')[0];
    const excerpt = (line, source, column) => source && line > 0 ? `${String(line).padStart(5)} | ${source}` + (column > 0 ? `\n        ${' '.repeat(column - 1)}^` : '') : '';
    // Notes (the first declaration of a name declared twice, ...) follow, each with its line.
    const parts = [excerpt(d.line, d.source, d.column)];
    for (const n of d.notes || []) {
      const at = place(n.file, n.line, n.column);
      parts.push(`${at ? at + ': ' : ''}note: ${n.message}`, excerpt(n.line, n.source, n.column));
    }
    const src = parts.filter(Boolean).join('\n');
    $('diag-src').textContent = src;
    $('diag-src').hidden = !src;
    $('diag-hint').textContent = d.hint ? `hint: ${d.hint}` : '';
    sceneNote();
    let folded = '';
    try { folded = sessionStorage.getItem(foldKey) || ''; } catch (_) { /* private mode */ }
    fold(folded === diagID(d));
    ov.hidden = false;
  }
  $('overlay').querySelector('.head').addEventListener('click', (e) => {
    if (e.target.closest('#diag-loc')) return;
    fold($('overlay').dataset.folded !== '1');
  });
  // The viewer has no editor: the place is copied (relative to the workspace, as the error
  // names it), for the person to paste into their editor's "go to file" box.
  $('diag-loc').addEventListener('click', async (e) => {
    e.preventDefault();
    const text = e.currentTarget.textContent;
    const said = $('diag-copied');
    let ok = false;
    try {
      await navigator.clipboard.writeText(text);
      ok = true;
    } catch (_) {
      // No async clipboard: a page served over plain HTTP to another machine is not a secure
      // context. The old way still works from a click.
      const ta = document.createElement('textarea');
      ta.value = text;
      ta.style.position = 'fixed';
      ta.style.opacity = '0';
      document.body.append(ta);
      ta.select();
      try { ok = document.execCommand('copy'); } catch (_) { ok = false; }
      ta.remove();
    }
    said.textContent = ok ? 'copied' : 'not copied: select it and copy';
    clearTimeout(copiedTimer);
    copiedTimer = setTimeout(() => { said.textContent = ''; }, 3000);
  });

  function connect() {
    const es = new EventSource('events');
    const conn = $('st-conn');
    es.onopen = () => { conn.textContent = 'connected'; conn.className = ''; document.body.dataset.conn = 'up'; };
    es.onerror = () => { conn.textContent = 'reconnecting…'; conn.className = 'down'; document.body.dataset.conn = 'down'; };
    es.addEventListener('scene', (e) => {
      const d = JSON.parse(e.data);
      if (d.epoch !== epoch) { epoch = d.epoch; shown = -1; document.dispatchEvent(new Event('cadrun-epoch')); }
      wanted = d.version;
      eventAt = performance.now();
      entities = d.entities;
      $('st-version').textContent = d.version > 0 ? `scene v${d.version}` : 'no scene yet';
      sceneNote();
      $('st-count').textContent = `${d.entities.toLocaleString('en')} ${d.entities === 1 ? 'entity' : 'entities'}`;
      const when = new Date(d.at).toLocaleTimeString();
      $('st-run').textContent = d.run_ms > 0 ? `run ${d.run_ms} ms at ${when}` : `at ${when}`;
      loadScene();
    });
    es.addEventListener('diagnostic', (e) => { const d = JSON.parse(e.data); showDiagnostic(d.diagnostic, d.version); });
    es.addEventListener('selection', (e) => selectionEvent(JSON.parse(e.data)));
    es.addEventListener('sketch', (e) => document.dispatchEvent(new CustomEvent('cadrun-sketch', { detail: JSON.parse(e.data) })));
    // The server drops a stream whose ping goes unanswered (a client that does not read);
    // answering shows this one is read. A lost answer only costs a reconnect.
    es.addEventListener('ping', (e) => {
      fetch('events/ack?ping=' + encodeURIComponent(JSON.parse(e.data).ping), { method: 'POST', cache: 'no-store' }).catch(() => {});
    });
  }
  connect();
  // For sketch.js: the camera's mapping between the stage's pixels and the world.
  window.cadrunView = { toWorld, toScreen, onCamera: (f) => { onCamera.push(f); if (cam) f(world.getAttribute('transform')); } };
  // What solids3d.js calls back: a pick in 3D, and a version it cannot show (its reason goes
  // to the status line, and the picture shows instead).
  window.cadrunPage = {
    pick,
    note(what) { $('st-run').textContent = `3D view: ${what}`; },
    fallback(why) {
      pictureFor[shown] = why;
      $('st-run').textContent = `3D view: ${why}`;
      showShaded(solidsShown);
    },
  };
  window.cadrunState = () => ({ shown, wanted, loading, epoch, camera: cam, selection: sel });
})();
