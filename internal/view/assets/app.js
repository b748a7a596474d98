// omnihsr view: canvas viewer over the server's tile and spectrum API.
"use strict";
const $ = id => document.getElementById(id);
const canvas = $("view"), ctx = canvas.getContext("2d");
const TILE = 256;
const V = {
  scenes: [], presets: [], f: 0, zoom: 1, cx: 0, cy: 0,
  tiles: new Map(), prepared: new Map(), pending: 0, lastMs: 0, pins: [], ready: false, err: null,
  queue: [], fetching: 0, // tile fetches waiting and under way (pump)
  log: [], // tiles received: {url, ms (server), cache, start, end (page clock)}
};
window.viewer = V;

function scene() { return V.scenes[V.f]; }
// The grid level: integer zoom factors render the scene at that factor;
// below 1:1 the 1:1 tiles are drawn smaller.
function level() { return Math.max(1, Math.round(V.zoom)); }
function grid() { const s = scene(), z = level(); return {gh: Math.round(s.h * z), gw: Math.round(s.w * z), z}; }

function bands() { return [$("br").value, $("bg").value, $("bb").value].map(Number); }

// rendering describes one side of the swipe: {f, m}.
function rendering(side) {
  const v = $(side).value;
  if (v.startsWith("file:")) return {f: Number(v.slice(5)), m: "bicubic"};
  return {f: V.f, m: v};
}

function tileURL(r, tx, ty) {
  const {gh, gw} = grid();
  const x = tx * TILE, y = ty * TILE;
  const w = Math.min(TILE, gw - x), h = Math.min(TILE, gh - y);
  // At 1:1 and below every method shows the low-res pixels: one set of
  // tiles serves them all.
  const m = r.f === V.f && grid().z === 1 ? "lowres" : r.m;
  let q = `/api/tile?f=${r.f}&m=${m}&gh=${gh}&gw=${gw}&x=${x}&y=${y}&w=${w}&h=${h}&lo=${$("lo").value}&hi=${$("hi").value}`;
  if (r.f !== V.f) q += `&ref=${V.f}`;
  const p = $("preset").value;
  if (r.f !== V.f && p) q += `&preset=${p}`;
  else if (r.f === V.f) q += `&b=${bands().join(",")}`;
  return q;
}

// screen <-> low-res pixel coordinates.
function toScreen(lx, ly) { return [(lx - V.cx) * V.zoom + canvas.width / 2, (ly - V.cy) * V.zoom + canvas.height / 2]; }
function toLowRes(sx, sy) { return [(sx - canvas.width / 2) / V.zoom + V.cx, (sy - canvas.height / 2) / V.zoom + V.cy]; }
// screenToGrid returns the grid pixel under canvas pixel (sx, sy).
V.screenToGrid = (sx, sy) => {
  const [lx, ly] = toLowRes(sx + 0.5, sy + 0.5), {gh, gw, z} = grid(), s = scene();
  return {u: Math.floor(ly * gh / s.h), v: Math.floor(lx * gw / s.w), gh, gw};
};

function getTile(url) {
  let t = V.tiles.get(url);
  if (t) return t;
  t = {img: null, err: null};
  V.tiles.set(url, t);
  V.pending++;
  status();
  const t0 = performance.now();
  V.queue.push(() => fetch(url).then(async res => {
    if (!res.ok) throw new Error(await res.text());
    V.lastMs = Number(res.headers.get("X-Render-Ms"));
    if (V.log.length >= 10000) V.log.splice(0, 5000);
    V.log.push({url, ms: V.lastMs, cache: res.headers.get("X-Cache"), start: t0, end: performance.now()});
    t.img = await createImageBitmap(await res.blob());
  }).catch(e => { t.err = String(e); }).finally(() => {
    V.pending--;
    V.fetching--;
    if (V.tiles.size > 600) V.tiles.clear();
    pump();
    draw();
  }));
  pump();
  return t;
}

// At most TILE_FETCHES tiles are fetched at once, in the order asked, so
// that of the browser's six connections to the server one stays free for
// a spectrum and one for a preparation, however many tiles a view asks.
const TILE_FETCHES = 4;
function pump() {
  while (V.fetching < TILE_FETCHES && V.queue.length) {
    V.fetching++;
    V.queue.shift()();
  }
}

function status() {
  let t = V.pending > 0 ? `rendering ${V.pending} tile(s)…` : `ready; last tile ${V.lastMs} ms`;
  if ([...V.prepared.values()].includes("pending")) t += " preparing the model's rendering (bicubic shown meanwhile)…";
  else if (V.encodeMs > 0) t += `; model encoding ${(V.encodeMs / 1000).toFixed(1)} s`;
  $("status").textContent = V.err || t;
}

// prepared reports whether the model's rendering of rendering r on the
// current grid is ready (the scene encoded, the grid's primitives made),
// asking the server to prepare it the first time: until then the view
// shows bicubic tiles in its place. A failed preparation is not retried.
function prepared(r) {
  const {gh, gw, z} = grid();
  if (r.m !== "omnihsr" || z <= 1) return true;
  const key = `${r.f}|${gh}|${gw}`;
  const st = V.prepared.get(key);
  if (st === "done") return true;
  // One preparation at a time: each holds one of the browser's few
  // connections to the server until the model is ready.
  if (st === undefined && ![...V.prepared.values()].includes("pending")) {
    V.prepared.set(key, "pending");
    V.pending++;
    const t0 = performance.now();
    fetch(`/api/prepare?f=${r.f}&gh=${gh}&gw=${gw}`).then(async res => {
      if (!res.ok) throw new Error(await res.text());
      const d = await res.json();
      V.prepareMs = performance.now() - t0;
      V.encodeMs = d.encodeMs;
      V.prepared.set(key, "done");
    }).catch(e => { V.prepared.set(key, String(e)); }).finally(() => { V.pending--; draw(); });
  }
  return false;
}

function drawSide(r, x0, x1) {
  const {gh, gw, z} = grid(), s = scene();
  ctx.save();
  ctx.beginPath(); ctx.rect(x0, 0, x1 - x0, canvas.height); ctx.clip();
  const [la, ta] = toLowRes(0, 0), [lb, tb] = toLowRes(canvas.width, canvas.height);
  const k = gw / s.w;
  const tx0 = Math.max(0, Math.floor(la * k / TILE)), tx1 = Math.min(Math.ceil(gw / TILE) - 1, Math.floor(lb * k / TILE));
  const ty0 = Math.max(0, Math.floor(ta * k / TILE)), ty1 = Math.min(Math.ceil(gh / TILE) - 1, Math.floor(tb * k / TILE));
  // The model's tiles come after bicubic ones, which stand in for them
  // until they arrive (and while the model's rendering is prepared).
  const ready = x1 > x0 && prepared(r);
  const fallback = r.m === "omnihsr" && z > 1 ? {...r, m: "bicubic"} : null;
  let err = null;
  const show = t => {
    if (t.err) err = t.err;
    return t.img;
  };
  const place = (img, tx, ty) => {
    const [sx, sy] = toScreen(tx * TILE / k, ty * TILE / k);
    ctx.drawImage(img, Math.round(sx), Math.round(sy), img.width * V.zoom / z, img.height * V.zoom / z);
  };
  const want = [];
  for (let ty = ty0; ty <= ty1; ty++) for (let tx = tx0; tx <= tx1; tx++) want.push([tx, ty]);
  if (x1 > x0 && fallback) for (const [tx, ty] of want) {
    const done = ready && V.tiles.get(tileURL(r, tx, ty));
    if (done && done.img) continue;
    const img = show(getTile(tileURL(fallback, tx, ty)));
    if (img) place(img, tx, ty);
  }
  if (x1 > x0 && ready) for (const [tx, ty] of want) {
    const img = show(getTile(tileURL(r, tx, ty)));
    if (img) place(img, tx, ty);
  }
  ctx.restore();
  const st = V.prepared.get(`${r.f}|${gh}|${gw}`);
  if (r.m === "omnihsr" && st && st !== "done" && st !== "pending") err = st;
  if (err) V.err = err;
}

function draw() {
  if (!scene()) return;
  ctx.imageSmoothingEnabled = false;
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  V.err = null;
  const sw = Math.round(canvas.width * $("swipe").value / 100);
  drawSide(rendering("left"), 0, sw);
  drawSide(rendering("right"), sw, canvas.width);
  ctx.fillStyle = "#fff"; ctx.fillRect(sw, 0, 1, canvas.height);
  for (const p of V.pins) {
    const [sx, sy] = toScreen(p.lx, p.ly);
    ctx.strokeStyle = p.color; ctx.strokeRect(sx - 4, sy - 4, 8, 8);
  }
  $("zoom").textContent = `zoom ${V.zoom >= 1 ? V.zoom : "1/" + 1 / V.zoom}`;
  status();
  V.ready = V.pending === 0;
}

V.setZoom = (z, cx, cy) => {
  V.zoom = Math.min(64, Math.max(1 / 64, z));
  if (cx !== undefined) { V.cx = cx; V.cy = cy; }
  draw();
};
V.fit = () => {
  const s = scene();
  let z = 1;
  while (z > 1 / 64 && (s.w * z > canvas.width || s.h * z > canvas.height)) z /= 2;
  while (z < 64 && s.w * z * 2 <= canvas.width && s.h * z * 2 <= canvas.height) z *= 2;
  V.setZoom(z, s.w / 2, s.h / 2);
};

function fillSelects() {
  const s = scene();
  $("preset").innerHTML = `<option value="">bands</option>` +
    V.presets.filter(p => s.presets[p.name]).map(p => `<option value="${p.name}">${p.label}</option>`).join("");
  const firstPreset = V.presets.find(p => s.presets[p.name]);
  $("preset").value = firstPreset ? firstPreset.name : "";
  setBands(s.defaultBands);
  const opts = ["lowres", "bicubic", "omnihsr"].map(m => `<option value="${m}">${m}</option>`)
    .concat(V.scenes.filter(o => o.index !== V.f).map(o => `<option value="file:${o.index}">${o.name}</option>`)).join("");
  $("left").innerHTML = opts; $("right").innerHTML = opts;
  $("left").value = "lowres"; $("right").value = "omnihsr";
  showGeo();
}

// showGeo describes the file and how a file on either side of the swipe
// is aligned with it.
function showGeo() {
  const s = scene();
  let t = `${s.name}: ${s.h} x ${s.w} x ${s.b}; georeferencing: ${s.geo}`;
  for (const side of ["left", "right"]) {
    const r = rendering(side);
    if (r.f === V.f) continue;
    const al = s.align.find(a => a.file === r.f);
    if (al) t += `. ${side}: ${V.scenes[r.f].name} ${al.note}`;
  }
  $("geo").textContent = t;
}

function setBands(b) { $("br").value = b[0]; $("bg").value = b[1]; $("bb").value = b[2]; }

// Spectra.
const COLORS = ["#f66", "#6cf", "#fd5", "#9f9", "#f9f", "#fa5"];
canvas.addEventListener("click", ev => {
  if (V.dragged) return;
  V.pin(ev.offsetX, ev.offsetY);
});
V.pin = async (sx, sy) => {
  const g = V.screenToGrid(sx, sy), s = scene();
  if (g.u < 0 || g.v < 0 || g.u >= g.gh || g.v >= g.gw) return;
  $("status").textContent = "rendering spectrum…";
  const url = `/api/spectrum?f=${V.f}&gh=${g.gh}&gw=${g.gw}&x=${g.v}&y=${g.u}`;
  const res = await fetch(url);
  if (!res.ok) { $("status").textContent = await res.text(); return; }
  const sp = await res.json();
  const [lx, ly] = toLowRes(sx + 0.5, sy + 0.5);
  const pin = {...sp, gh: g.gh, gw: g.gw, lx, ly, color: COLORS[V.pins.length % COLORS.length]};
  V.pins.push(pin);
  $("status").textContent = `spectrum ${sp.ms} ms` + (sp.omnihsrPending ? "; the model's follows when its rendering is ready…" : "");
  plot(); draw();
  if (!sp.omnihsrPending) return;
  // The low-res and bicubic spectra came at once; the model's waits for
  // its rendering of the grid (the scene's encoding, the level's
  // primitives).
  const t0 = performance.now();
  const more = await fetch(url + "&wait=1");
  if (!more.ok) { $("status").textContent = await more.text(); return; }
  const full = await more.json();
  pin.omnihsr = full.omnihsr;
  pin.omnihsrPending = false;
  pin.modelMs = performance.now() - t0;
  $("status").textContent = `spectrum ${sp.ms} ms; the model's ${(pin.modelMs / 1000).toFixed(1)} s later`;
  plot(); draw();
};

function plot() {
  const svg = $("plot"), s = scene(), W = 348, H = 220, m = 24;
  const xs = s.wavelengths || [...Array(s.b).keys()];
  let lo = Infinity, hi = -Infinity;
  for (const p of V.pins) for (const k of ["lowres", "bicubic", "omnihsr"]) for (const v of p[k] || []) if (v !== null) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  if (!(hi > lo)) { hi = lo + 1; }
  const x0 = Math.min(...xs), x1 = Math.max(...xs) || 1;
  const X = x => m + (x - x0) / (x1 - x0 || 1) * (W - 2 * m), Y = v => H - m - (v - lo) / (hi - lo) * (H - 2 * m);
  let out = `<text x="${m}" y="12" fill="#aaa" font-size="10">${lo.toPrecision(3)} – ${hi.toPrecision(3)}, ${s.wavelengths ? "nm" : "band"} ${x0}–${x1}</text>`;
  const dash = {lowres: "4 3", bicubic: "1 2", omnihsr: ""};
  for (const p of V.pins) for (const k of ["lowres", "bicubic", "omnihsr"]) {
    if (!p[k]) continue;
    let d = "", pen = "M";
    p[k].forEach((v, b) => { if (v === null) { pen = "M"; return; } d += `${pen}${X(xs[b]).toFixed(1)},${Y(v).toFixed(1)}`; pen = "L"; });
    out += `<path class="spec ${k}" d="${d}" fill="none" stroke="${p.color}" stroke-dasharray="${dash[k]}"/>`;
  }
  svg.innerHTML = out;
  $("pins").textContent = V.pins.map(p => `(${p.x}, ${p.y})`).join(" ") + " — solid OmniHSR, dotted bicubic, dashed low-res";
  const csv = $("csv");
  csv.hidden = V.pins.length === 0;
  if (V.pins.length) {
    const p0 = V.pins[V.pins.length - 1];
    const same = V.pins.filter(p => p.gh === p0.gh && p.gw === p0.gw);
    csv.href = `/api/export.csv?f=${V.f}&gh=${p0.gh}&gw=${p0.gw}&${same.map(p => "p=" + p.x + "," + p.y).join("&")}`;
  }
}

// Coordinates.
canvas.addEventListener("mousemove", ev => {
  if (V.drag) {
    const dx = ev.offsetX - V.drag.x, dy = ev.offsetY - V.drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 2) V.dragged = true;
    V.cx = V.drag.cx - dx / V.zoom; V.cy = V.drag.cy - dy / V.zoom;
    draw();
    return;
  }
  const s = scene(); if (!s) return;
  const [lx, ly] = toLowRes(ev.offsetX + 0.5, ev.offsetY + 0.5);
  let t = `pixel x ${lx.toFixed(2)}, y ${ly.toFixed(2)}`;
  const gt = s.transform;
  if (gt) t += `; CRS X ${(gt[0] + lx * gt[1] + ly * gt[2]).toFixed(3)}, Y ${(gt[3] + lx * gt[4] + ly * gt[5]).toFixed(3)}`;
  $("coords").textContent = t;
});
canvas.addEventListener("mousedown", ev => { V.drag = {x: ev.offsetX, y: ev.offsetY, cx: V.cx, cy: V.cy}; V.dragged = false; });
window.addEventListener("mouseup", () => { V.drag = null; });
canvas.addEventListener("wheel", ev => {
  ev.preventDefault();
  const [lx, ly] = toLowRes(ev.offsetX, ev.offsetY);
  const z = ev.deltaY < 0 ? V.zoom * 2 : V.zoom / 2;
  V.setZoom(z, lx - (ev.offsetX - canvas.width / 2) / Math.min(64, Math.max(1 / 64, z)), ly - (ev.offsetY - canvas.height / 2) / Math.min(64, Math.max(1 / 64, z)));
}, {passive: false});
$("zoomin").onclick = () => V.setZoom(V.zoom * 2);
$("zoomout").onclick = () => V.setZoom(V.zoom / 2);
$("fit").onclick = () => V.fit();
$("clear").onclick = () => { V.pins = []; plot(); draw(); };
for (const id of ["br", "bg", "bb", "lo", "hi", "swipe", "left", "right"]) $(id).addEventListener("input", draw);
for (const id of ["left", "right"]) $(id).addEventListener("input", showGeo);
$("preset").addEventListener("input", () => { const p = scene().presets[$("preset").value]; if (p) setBands(p); draw(); });
$("file").addEventListener("input", () => { V.f = Number($("file").value); V.pins = []; fillSelects(); plot(); V.fit(); });

fetch("/api/scenes").then(r => r.json()).then(d => {
  V.scenes = d.scenes; V.presets = d.presets;
  $("file").innerHTML = V.scenes.map(s => `<option value="${s.index}">${s.name}</option>`).join("");
  fillSelects(); V.fit();
});
