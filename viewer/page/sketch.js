// Sketching over the scene: with Sketch on (the button, or S), a drag draws a stroke instead
// of panning. Points are kept in world units (Y up), one every few screen pixels, and the
// stroke is posted when the pointer lifts; the server's sketch event then brings every tab
// the strokes as stored. The strokes live in a layer above the drawing that follows the
// camera, with a pen of constant width on screen.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const stage = $('stage'), layer = $('sketchlayer'), button = $('sketch');
  const ns = 'http://www.w3.org/2000/svg';
  const minStep = 3;        // screen pixels between two points kept
  const maxPoints = 10000;  // MaxStrokePoints
  let on = false;
  let strokes = [];         // as stored: [{points: [[x, y], ...]}]
  let version = -1;         // of the last sketch event
  let drawing = null;       // {id, points, last: {x, y}, el}
  let loading = Promise.resolve();
  let refused = '';         // the server's last refusal, shown in the status line
  const status = $('st-sketch');

  const view = () => window.cadrunView;
  function toggle(next) {
    on = next;
    button.setAttribute('aria-pressed', String(on));
    document.body.dataset.sketching = on ? '1' : '';
  }
  function polyline(points) {
    const el = document.createElementNS(ns, 'polyline');
    el.setAttribute('points', points.map(([x, y]) => `${x},${-y}`).join(' '));
    return el;
  }
  function draw() {
    const els = strokes.map((s) => polyline(s.points));
    if (drawing) els.push(drawing.el);
    layer.replaceChildren(...els);
    document.body.dataset.sketchStrokes = String(strokes.length);
    if (!refused) status.textContent = strokes.length ? ` · sketch: ${strokes.length} ${strokes.length === 1 ? 'stroke' : 'strokes'}` : '';
  }
  // say shows why the server refused a stroke (the sketch is full, say) until the next one lands.
  function say(msg) {
    refused = msg;
    status.textContent = msg ? ` · sketch: ${msg}` : '';
    status.className = msg ? 'down' : '';
    if (!msg) draw();
  }
  async function load() {
    const res = await fetch('api/sketch', { cache: 'no-store' });
    if (!res.ok) throw new Error(`GET api/sketch: ${res.status} ${await window.cadrunRefusal(res)}`);
    strokes = (await res.json()).strokes || [];
    draw();
  }

  // Pointer events reach this page-wide listener first (capture), so that a drag that draws
  // never pans or selects.
  function local(e) {
    const r = stage.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }
  window.addEventListener('pointerdown', (e) => {
    if (!on || e.button !== 0 || !stage.contains(e.target) || e.target.closest('#overlay .box') || !view()) return;
    e.stopPropagation();
    e.preventDefault();
    stage.setPointerCapture(e.pointerId);
    const p = local(e), w = view().toWorld(p.x, p.y);
    drawing = { id: e.pointerId, points: [[w.x, w.y]], last: p, el: polyline([[w.x, w.y]]) };
    layer.append(drawing.el);
  }, true);
  window.addEventListener('pointermove', (e) => {
    if (!drawing || e.pointerId !== drawing.id) return;
    e.stopPropagation();
    const p = local(e);
    if (Math.hypot(p.x - drawing.last.x, p.y - drawing.last.y) < minStep || drawing.points.length >= maxPoints) return;
    const w = view().toWorld(p.x, p.y);
    drawing.points.push([w.x, w.y]);
    drawing.last = p;
    drawing.el.setAttribute('points', drawing.el.getAttribute('points') + ` ${w.x},${-w.y}`);
  }, true);
  const up = async (e) => {
    if (!drawing || e.pointerId !== drawing.id) return;
    e.stopPropagation();
    const done = drawing;
    if (e.type === 'pointerup') {
      const p = local(e), w = view().toWorld(p.x, p.y);
      const last = done.points[done.points.length - 1];
      if ((w.x !== last[0] || w.y !== last[1]) && done.points.length < maxPoints) done.points.push([w.x, w.y]);
    }
    drawing = null;
    if (e.type !== 'pointerup' || done.points.length < 2) { draw(); return; }
    strokes = [...strokes, { points: done.points }]; // shown now; the event brings the stored list
    draw();
    const msg = await failure(fetch('api/sketch', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ points: done.points }) }));
    if (msg) {
      say(`not kept: ${msg}`);
      loading = loading.then(load, load);
    } else if (refused) {
      say('');
    }
  };
  // failure waits for a request and says why it failed ('' when it did not): the server's
  // refusal, or that the server could not be reached.
  async function failure(request) {
    let msg;
    try {
      const res = await request;
      if (res.ok) return '';
      msg = await window.cadrunRefusal(res);
    } catch (err) {
      msg = `the viewer's server did not answer (${err.message || err}); is cadrun still running?`;
    }
    console.error(msg);
    window.cadrunError = msg;
    return msg;
  }
  window.addEventListener('pointerup', up, true);
  window.addEventListener('pointercancel', up, true);

  button.addEventListener('click', () => toggle(!on));
  $('sketch-clear').addEventListener('click', async () => {
    strokes = [];
    say('');
    // A clear that did not happen must not look done: the agent still sees those strokes.
    const msg = await failure(fetch('api/sketch/clear', { method: 'POST' }));
    if (msg) {
      say(`not cleared: ${msg}`);
      reload();
    }
  });
  window.addEventListener('keydown', (e) => {
    if (e.target.closest && e.target.closest('input, textarea')) return;
    if (e.key === 's') toggle(!on);
  });
  // A sketch event says the strokes changed; a new server (its epoch) may hold other strokes
  // and says nothing when it holds none.
  const reload = () => { loading = loading.then(load, load).catch((err) => { console.error(err); window.cadrunError = String(err); }); };
  document.addEventListener('cadrun-sketch', (e) => { version = e.detail.version; reload(); });
  document.addEventListener('cadrun-epoch', reload);
  view().onCamera((t) => layer.setAttribute('transform', t));
  window.cadrunSketch = () => ({ on, strokes: strokes.length, version, drawing: !!drawing });
})();
