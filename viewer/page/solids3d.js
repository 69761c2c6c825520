// The 3D view of the scene's solids: WebGL, no library. The page (viewer.js) asks it to show
// a scene version through window.cadrun3d.show; it fetches api/solids (viewer/solids3d.go
// gives the format), draws the solids shaded with their feature edges, and the 2D shapes as
// lines in the plane z = 0, as the pictures do, in an orthographic
// camera, and takes the pointer while it is shown: drag to orbit, shift-drag or the right
// button to pan, the wheel to zoom, a click to select (shift adds), hover for names. Without
// WebGL, or for a scene over the server's triangle cap, show() answers false and the page
// shows the server's shaded picture instead.
//
// The camera is that of the pictures cadrun draws (render/shade.go): looking from the
// direction d = (cos p cos y, cos p sin y, sin p), screen right (-sin y, cos y, 0), screen
// up d × right; the standard views are the pictures' (front from -Y, top from +Z with Y up,
// right from +X, iso from (1, -1, 1)), and the light sits where the pictures' light sits
// for the iso view, turning with the camera, so that an iso view here shades a box's faces
// as the picture does.
'use strict';
(() => {
  const stage = document.getElementById('stage'), tip = document.getElementById('tip');
  const canvas = document.createElement('canvas');
  canvas.id = 'gl';
  canvas.hidden = true;
  stage.insertBefore(canvas, tip);
  // preserveDrawingBuffer: a screenshot (and the tests') sees the last frame.
  const gl = canvas.getContext('webgl', { antialias: true, preserveDrawingBuffer: true });
  const deg = Math.PI / 180;
  const views = {
    iso: [-45, Math.asin(1 / Math.sqrt(3)) / deg],
    front: [-90, 0], back: [90, 0], right: [0, 0], left: [180, 0], top: [-90, 90], bottom: [-90, -90],
  };
  const margin = 0.05; // render.DefaultMargin
  const ambient = 0.35; // render/shade.go's shadeAmbient
  let data = null;      // the solids drawn: {heads, bounds, buffers}
  let version = -1, wantVersion = -1, loadingVersion = -1;
  let failed = '';      // why the last load failed, for the page's status
  let cam = null;       // {yaw, pitch (degrees), t: [x, y, z] target, k: pixels per unit}
  let selected = new Set(), hidden = new Set();
  let dirtyPick = true;

  // ---- shaders ----
  function program(vs, fs) {
    const p = gl.createProgram();
    for (const [type, src] of [[gl.VERTEX_SHADER, vs], [gl.FRAGMENT_SHADER, fs]]) {
      const s = gl.createShader(type);
      gl.shaderSource(s, src);
      gl.compileShader(s);
      if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s));
      gl.attachShader(p, s);
    }
    gl.linkProgram(p);
    if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(p));
    return p;
  }
  let faceProg = null, flatProg = null;
  if (gl) {
    try {
      // Faces: each corner carries its face's normal and colour; the light turns with the camera.
      faceProg = program(`
        attribute vec3 pos; attribute vec3 nrm; attribute vec3 col;
        uniform mat4 view; uniform vec3 light; uniform float ambient;
        varying vec3 c;
        void main() {
          gl_Position = view * vec4(pos, 1.0);
          c = col * (ambient + (1.0 - ambient) * max(0.0, dot(nrm, light)));
        }`, `
        precision mediump float; varying vec3 c;
        void main() { gl_FragColor = vec4(c, 1.0); }`);
      // Lines, and the picking pass: one colour per draw.
      flatProg = program(`
        attribute vec3 pos; uniform mat4 view;
        void main() { gl_Position = view * vec4(pos, 1.0); }`, `
        precision mediump float; uniform vec4 colour;
        void main() { gl_FragColor = colour; }`);
    } catch (err) {
      console.error(err);
      faceProg = null;
    }
  }

  // ---- data ----
  async function load(v) {
    loadingVersion = v;
    try {
      const res = await fetch(`api/solids?v=${v}`, { cache: 'no-store' });
      if (!res.ok) {
        // The viewer's refusals are {"error": "..."} (the front door's form).
        const text = (await res.text()).trim();
        let msg = text;
        try { msg = JSON.parse(text).error || text; } catch (_) { /* the text says it */ }
        throw new Error(msg);
      }
      const buf = await res.arrayBuffer();
      const dv = new DataView(buf);
      const magic = String.fromCharCode(...new Uint8Array(buf, 0, 4));
      if (magic !== 'CDS1') throw new Error('api/solids: not the 3D view\'s data');
      const n = dv.getUint32(4, true);
      const head = JSON.parse(new TextDecoder().decode(new Uint8Array(buf, 8, n)));
      let off = (8 + n + 3) & ~3;
      const heads = [];
      for (const h of head.solids) {
        const verts = new Float32Array(buf, off, 3 * h.vertices); off += 12 * h.vertices;
        const tris = new Uint32Array(buf, off, 3 * h.triangles); off += 12 * h.triangles;
        const edges = new Uint32Array(buf, off, 2 * h.edges); off += 8 * h.edges;
        heads.push({ ...h, verts, tris, edges });
      }
      const flat = [];
      for (const f of head.flat) {
        flat.push({ ...f, xy: new Float32Array(buf, off, 4 * f.segments) });
        off += 16 * f.segments;
      }
      if (head.flatLeftOut && window.cadrunPage) window.cadrunPage.note('the 2D shapes are too many to draw in 3D: the plan shows them');
      if (loadingVersion !== v) return; // a newer version was asked for meanwhile
      build(heads, head.bounds, flat);
      version = v;
      failed = '';
      document.body.dataset.view3d = '1';
      if (!cam) home();
      draw();
    } catch (err) {
      failed = String(err.message || err);
      console.error(err);
      if (window.cadrunPage) window.cadrunPage.fallback(failed);
    }
  }

  // build turns the solids into GPU buffers: faces as separate triangles (each corner with its
  // face's normal and colour: flat shading, as the pictures shade), edges as line pairs.
  function build(heads, bounds, flat) {
    if (data) for (const b of data.buffers) gl.deleteBuffer(b);
    const buffers = [];
    const make = (arr) => { const b = gl.createBuffer(); gl.bindBuffer(gl.ARRAY_BUFFER, b); gl.bufferData(gl.ARRAY_BUFFER, arr, gl.STATIC_DRAW); buffers.push(b); return b; };
    let nt = 0, ne = 0;
    for (const h of heads) { nt += h.triangles; ne += h.edges; }
    const pos = new Float32Array(9 * nt), nrm = new Float32Array(9 * nt), col = new Float32Array(9 * nt);
    const lines = new Float32Array(6 * ne);
    const solids = [];
    let t = 0, e = 0;
    const bg = [1, 1, 1];
    for (const h of heads) {
      const first = t, firstEdge = e;
      const face = h.face ? h.face.slice(0, 3) : bg;
      const v = h.verts;
      for (let i = 0; i < h.triangles; i++) {
        const a = 3 * h.tris[3 * i], b = 3 * h.tris[3 * i + 1], c = 3 * h.tris[3 * i + 2];
        const ux = v[b] - v[a], uy = v[b + 1] - v[a + 1], uz = v[b + 2] - v[a + 2];
        const wx = v[c] - v[a], wy = v[c + 1] - v[a + 1], wz = v[c + 2] - v[a + 2];
        let nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
        const l = Math.hypot(nx, ny, nz) || 1;
        nx /= l; ny /= l; nz /= l;
        for (const [k, p] of [[0, a], [1, b], [2, c]]) {
          const o = 9 * t + 3 * k;
          pos[o] = v[p]; pos[o + 1] = v[p + 1]; pos[o + 2] = v[p + 2];
          nrm[o] = nx; nrm[o + 1] = ny; nrm[o + 2] = nz;
          col[o] = face[0]; col[o + 1] = face[1]; col[o + 2] = face[2];
        }
        t++;
      }
      for (let i = 0; i < h.edges; i++) {
        const a = 3 * h.edges[2 * i], b = 3 * h.edges[2 * i + 1];
        lines.set([v[a], v[a + 1], v[a + 2], v[b], v[b + 1], v[b + 2]], 6 * e);
        e++;
      }
      solids.push({ name: h.name, first, count: t - first, firstEdge, edgeCount: e - firstEdge, face, edge: h.edge });
    }
    // The 2D shapes, as lines in the plane z = 0.
    let nf = 0;
    for (const f of flat) nf += f.segments;
    const flatPos = new Float32Array(6 * nf);
    const shapes = [];
    let k = 0;
    for (const f of flat) {
      shapes.push({ name: f.name, colour: f.color, first: k, count: f.segments });
      for (let i = 0; i < f.segments; i++, k++) {
        flatPos.set([f.xy[4 * i], f.xy[4 * i + 1], 0, f.xy[4 * i + 2], f.xy[4 * i + 3], 0], 6 * k);
      }
    }
    data = { solids, shapes, bounds, buffers, pos: make(pos), nrm: make(nrm), col: make(col), lines: make(lines), flat: make(flatPos), triangles: nt };
    dirtyPick = true;
  }

  // ---- camera ----
  function basis(c) {
    const y = c.yaw * deg, p = c.pitch * deg;
    const d = [Math.cos(p) * Math.cos(y), Math.cos(p) * Math.sin(y), Math.sin(p)];
    const r = [-Math.sin(y), Math.cos(y), 0];
    const u = [d[1] * r[2] - d[2] * r[1], d[2] * r[0] - d[0] * r[2], d[0] * r[1] - d[1] * r[0]];
    return { d, r, u };
  }
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  function size() {
    const r = stage.getBoundingClientRect();
    return { w: Math.max(1, Math.round(r.width)), h: Math.max(1, Math.round(r.height)) };
  }
  // fit frames the solids as the pictures do: their vertices' projection grown by the margin.
  function fit(c) {
    const { r, u, d } = basis(c);
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity, z0 = Infinity, z1 = -Infinity;
    const b = data.bounds;
    for (let i = 0; i < 8; i++) {
      const p = [(i & 1 ? b.max : b.min)[0], (i & 2 ? b.max : b.min)[1], (i & 4 ? b.max : b.min)[2]];
      const x = dot(p, r), y = dot(p, u), z = dot(p, d);
      x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y); z0 = Math.min(z0, z); z1 = Math.max(z1, z);
    }
    // The box's corners bound the vertices' projection; the pictures frame the vertices
    // themselves, which the box's corners equal for the standard views of a box.
    const pad = Math.max(x1 - x0, y1 - y0) * margin || 1;
    const { w, h } = size();
    c.k = Math.min(w / (x1 - x0 + 2 * pad), h / (y1 - y0 + 2 * pad));
    const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2, cz = (z0 + z1) / 2;
    c.t = [0, 1, 2].map((i) => cx * r[i] + cy * u[i] + cz * d[i]);
  }
  function home(name) {
    const [yaw, pitch] = views[name || 'iso'];
    cam = { yaw, pitch, t: [0, 0, 0], k: 1 };
    fit(cam);
  }
  // matrix maps the world to clip space (column-major): x along r, y along u, depth against d.
  function matrix(c) {
    const { r, u, d } = basis(c);
    const { w, h } = size();
    const b = data.bounds;
    const reach = Math.hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]) || 1;
    // Depth: the target's plane at 0, the camera's side negative, within ±1 for anything
    // within reach of the target (the solids, wherever the target was panned to).
    const far = reach + Math.hypot(c.t[0] - (b.min[0] + b.max[0]) / 2, c.t[1] - (b.min[1] + b.max[1]) / 2, c.t[2] - (b.min[2] + b.max[2]) / 2);
    const sx = 2 * c.k / w, sy = 2 * c.k / h, sz = -1 / far;
    const m = new Float32Array(16);
    for (let i = 0; i < 3; i++) { m[4 * i] = sx * r[i]; m[4 * i + 1] = sy * u[i]; m[4 * i + 2] = sz * d[i]; }
    m[12] = -sx * dot(r, c.t); m[13] = -sy * dot(u, c.t); m[14] = -sz * dot(d, c.t); m[15] = 1;
    return m;
  }
  // The light: where render/shade.go's light stands in the iso camera, kept in the camera.
  const isoLight = (() => {
    const L = [0.3, -0.6, 1], l = Math.hypot(...L);
    const { r, u, d } = basis({ yaw: views.iso[0], pitch: views.iso[1] });
    return [dot(L, r) / l, dot(L, u) / l, dot(L, d) / l];
  })();

  // ---- drawing ----
  function resize() {
    const { w, h } = size();
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; dirtyPick = true; }
  }
  function attrib(p, name, buf, n) {
    const loc = gl.getAttribLocation(p, name);
    gl.bindBuffer(gl.ARRAY_BUFFER, buf);
    gl.enableVertexAttribArray(loc);
    gl.vertexAttribPointer(loc, n, gl.FLOAT, false, 0, 0);
    return loc;
  }
  const highlight = [0.16, 0.45, 0.95]; // the 2D view's selection colour
  function draw() {
    if (!data || canvas.hidden) return;
    resize();
    gl.viewport(0, 0, canvas.width, canvas.height);
    gl.clearColor(1, 1, 1, 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
    gl.enable(gl.CULL_FACE);
    const m = matrix(cam);
    const { r, u, d } = basis(cam);
    const light = [0, 1, 2].map((i) => isoLight[0] * r[i] + isoLight[1] * u[i] + isoLight[2] * d[i]);
    // Faces a little behind their edges, so the edges show through.
    gl.enable(gl.POLYGON_OFFSET_FILL);
    gl.polygonOffset(1, 1);
    gl.useProgram(faceProg);
    gl.uniformMatrix4fv(gl.getUniformLocation(faceProg, 'view'), false, m);
    gl.uniform3fv(gl.getUniformLocation(faceProg, 'light'), light);
    gl.uniform1f(gl.getUniformLocation(faceProg, 'ambient'), ambient);
    const a = [attrib(faceProg, 'pos', data.pos, 3), attrib(faceProg, 'nrm', data.nrm, 3)];
    const colLoc = gl.getAttribLocation(faceProg, 'col');
    for (const s of data.solids) {
      if (hidden.has(s.name)) continue;
      if (selected.has(s.name)) {
        gl.disableVertexAttribArray(colLoc);
        gl.vertexAttrib3fv(colLoc, s.face.map((c, i) => 0.45 * c + 0.55 * highlight[i]));
      } else {
        attrib(faceProg, 'col', data.col, 3);
      }
      gl.drawArrays(gl.TRIANGLES, 3 * s.first, 3 * s.count);
    }
    for (const loc of a) gl.disableVertexAttribArray(loc);
    gl.disableVertexAttribArray(colLoc);
    gl.disable(gl.POLYGON_OFFSET_FILL);
    gl.useProgram(flatProg);
    gl.uniformMatrix4fv(gl.getUniformLocation(flatProg, 'view'), false, m);
    const pl = attrib(flatProg, 'pos', data.lines, 3);
    for (const s of data.solids) {
      if (hidden.has(s.name)) continue;
      gl.uniform4fv(gl.getUniformLocation(flatProg, 'colour'), s.edge);
      gl.drawArrays(gl.LINES, 2 * s.firstEdge, 2 * s.edgeCount);
    }
    gl.disableVertexAttribArray(pl);
    const fl = attrib(flatProg, 'pos', data.flat, 3);
    for (const f of data.shapes) {
      if (hidden.has(f.name)) continue;
      gl.uniform4fv(gl.getUniformLocation(flatProg, 'colour'), f.colour);
      gl.drawArrays(gl.LINES, 2 * f.first, 2 * f.count);
    }
    gl.disableVertexAttribArray(fl);
    dirtyPick = true;
    document.body.dataset.view3dFrame = String(+(document.body.dataset.view3dFrame || 0) + 1);
  }
  let queued = false;
  function redraw() {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; draw(); });
  }

  // ---- picking: each solid drawn in a colour of its own into a buffer of the canvas's size ----
  let pickFB = null, pickTex = null, pickDepth = null, pickW = 0, pickH = 0;
  function pickBuffer() {
    if (pickFB && pickW === canvas.width && pickH === canvas.height) return;
    if (pickFB) { gl.deleteFramebuffer(pickFB); gl.deleteTexture(pickTex); gl.deleteRenderbuffer(pickDepth); }
    pickW = canvas.width; pickH = canvas.height;
    pickTex = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, pickTex);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, pickW, pickH, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
    pickDepth = gl.createRenderbuffer();
    gl.bindRenderbuffer(gl.RENDERBUFFER, pickDepth);
    gl.renderbufferStorage(gl.RENDERBUFFER, gl.DEPTH_COMPONENT16, pickW, pickH);
    pickFB = gl.createFramebuffer();
    gl.bindFramebuffer(gl.FRAMEBUFFER, pickFB);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, pickTex, 0);
    gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.RENDERBUFFER, pickDepth);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  }
  // solidAt is the name of the solid seen at the page point (x, y) of the canvas, or ''.
  function solidAt(x, y) {
    if (!data) return '';
    pickBuffer();
    gl.bindFramebuffer(gl.FRAMEBUFFER, pickFB);
    if (dirtyPick) {
      gl.viewport(0, 0, pickW, pickH);
      gl.clearColor(0, 0, 0, 0);
      gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
      gl.enable(gl.DEPTH_TEST);
      gl.useProgram(flatProg);
      gl.uniformMatrix4fv(gl.getUniformLocation(flatProg, 'view'), false, matrix(cam));
      const pl = attrib(flatProg, 'pos', data.pos, 3);
      data.solids.forEach((s, i) => {
        if (hidden.has(s.name)) return;
        const id = i + 1;
        gl.uniform4fv(gl.getUniformLocation(flatProg, 'colour'), [(id & 255) / 255, ((id >> 8) & 255) / 255, ((id >> 16) & 255) / 255, 1]);
        gl.drawArrays(gl.TRIANGLES, 3 * s.first, 3 * s.count);
      });
      gl.disableVertexAttribArray(pl);
      dirtyPick = false;
    }
    const px = new Uint8Array(4);
    gl.readPixels(Math.round(x), pickH - 1 - Math.round(y), 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    const id = px[0] | (px[1] << 8) | (px[2] << 16);
    return id > 0 && id <= data.solids.length ? data.solids[id - 1].name : '';
  }

  // ---- pointer ----
  let drag = null;
  const local = (e) => { const r = canvas.getBoundingClientRect(); return { x: e.clientX - r.left, y: e.clientY - r.top }; };
  canvas.addEventListener('contextmenu', (e) => e.preventDefault());
  canvas.addEventListener('pointerdown', (e) => {
    e.stopPropagation();
    if (!cam) return;
    canvas.setPointerCapture(e.pointerId);
    drag = { x: e.clientX, y: e.clientY, moved: false, pan: e.shiftKey || e.button !== 0 };
  });
  canvas.addEventListener('pointermove', (e) => {
    e.stopPropagation();
    if (!cam) return;
    if (drag) {
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 4) return;
      drag.moved = true;
      tip.hidden = true;
      if (drag.pan) {
        const { r, u } = basis(cam);
        for (let i = 0; i < 3; i++) cam.t[i] -= (dx * r[i] - dy * u[i]) / cam.k;
      } else {
        cam.yaw -= dx * 0.4;
        cam.pitch = Math.max(-90, Math.min(90, cam.pitch + dy * 0.4));
      }
      drag.x = e.clientX; drag.y = e.clientY;
      redraw();
      return;
    }
    const p = local(e), name = solidAt(p.x, p.y);
    canvas.dataset.hover = name;
    if (!name) { tip.hidden = true; return; }
    tip.textContent = `${name} · solid`;
    tip.style.left = `${p.x + 14}px`;
    tip.style.top = `${p.y + 14}px`;
    tip.hidden = false;
  });
  const up = (e) => {
    e.stopPropagation();
    if (drag && !drag.moved && e.type === 'pointerup' && window.cadrunPage) {
      const p = local(e);
      window.cadrunPage.pick(solidAt(p.x, p.y), e.shiftKey);
    }
    drag = null;
  };
  canvas.addEventListener('pointerup', up);
  canvas.addEventListener('pointercancel', up);
  canvas.addEventListener('pointerleave', () => { tip.hidden = true; });
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    e.stopPropagation();
    if (!cam) return;
    // Zoom about the point under the pointer: it stays where it is on the screen.
    const p = local(e), { w, h } = size(), { r, u } = basis(cam);
    const f = Math.exp(-e.deltaY * (e.ctrlKey ? 0.01 : 0.0015));
    const ox = (p.x - w / 2) / cam.k, oy = (h / 2 - p.y) / cam.k;
    for (let i = 0; i < 3; i++) cam.t[i] += (ox * r[i] + oy * u[i]) * (1 - 1 / f);
    cam.k *= f;
    redraw();
  }, { passive: false });
  window.addEventListener('resize', redraw);

  // ---- the page's side ----
  window.cadrun3d = {
    // show shows scene version v in 3D; false when this page cannot (no WebGL, or the last
    // load failed for this version), for the page to show the picture instead.
    show(v) {
      if (!faceProg) return false;
      if (failed && wantVersion === v) return false;
      wantVersion = v;
      canvas.hidden = false;
      if (version !== v && loadingVersion !== v) load(v);
      else redraw();
      return true;
    },
    hide() { canvas.hidden = true; tip.hidden = true; delete document.body.dataset.view3d; },
    view(name) { if (data && views[name]) { home(name); redraw(); } },
    fit() { if (data && cam) { fit(cam); redraw(); } },
    selected(names, gone) { selected = new Set(names); hidden = new Set(gone || []); redraw(); },
    // state is for the tests and the curious.
    state: () => ({ version, triangles: data ? data.triangles : 0, solids: data ? data.solids.map((s) => s.name) : [], shapes: data ? data.shapes.map((s) => s.name) : [], cam, failed }),
    solidAt,
  };
})();
