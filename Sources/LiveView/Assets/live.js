// trackd live view: draws the track as Server-Sent Events bring its points, follows the
// current position, and stops following for 10 s after the user pans or zooms.
//
// Coordinates are Web Mercator pixels at zoom 20, relative to the track's first point, so
// that the numbers stay small enough for the SVG renderer's precision at every zoom.
"use strict";

(() => {
  const SVG = "http://www.w3.org/2000/svg";
  const WORLD = 256 * 2 ** 20;            // pixels around the equator at zoom 20
  const EARTH_CIRCUMFERENCE = 40075016.686; // metres, WGS-84 equator
  const PAUSE_AFTER_GESTURE_MS = 10000;
  const MIN_ZOOM = 2, MAX_ZOOM = 20;

  const map = document.getElementById("map");
  const view = document.getElementById("view");
  const pathGroup = document.getElementById("path");
  const accuracyCircle = document.getElementById("accuracy");
  const positionDot = document.getElementById("position");
  const startDot = document.getElementById("start");
  const grid = document.getElementById("grid");
  const gridLines = document.getElementById("grid-lines");
  const recenter = document.getElementById("recenter");
  const tileLayer = document.getElementById("tiles");
  const MAX_TILES = 64;
  const text = (id, value) => { document.getElementById(id).textContent = value; };

  const state = {
    track: null,          // id of the track drawn
    origin: null,         // [x, y] world pixels of the first point
    lastLongitude: null,  // for unwrapping across the antimeridian
    lastNumber: 0,
    count: 0,
    segments: new Map(),  // segment number -> polyline
    current: null,        // {x, y, lat, accuracy}
    first: null,          // {x, y} of the first point
    centre: [0, 0],
    zoom: 16,
    fitted: false,        // fitted to the first points drawn
    fittedAll: false,     // fitted to the whole track as first received (at its first status)
    pausedUntil: 0,
    tiles: false,         // whether the server has map tiles (trackd serve --tiles)
    tileImages: new Map(),// "z/x/y" -> <image>
    missingTiles: new Set(),
  };

  // --- Projection ----------------------------------------------------------------------

  function project(lat, lon) {
    const phi = Math.max(-85.05112878, Math.min(85.05112878, lat)) * Math.PI / 180;
    return [
      (lon + 180) / 360 * WORLD,
      (1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2 * WORLD,
    ];
  }

  function metresPerWorldPixel(lat) {
    return EARTH_CIRCUMFERENCE * Math.cos(lat * Math.PI / 180) / WORLD;
  }

  function scale() { return 2 ** (state.zoom - 20); }

  function size() {
    const box = map.getBoundingClientRect();
    return [box.width || 1, box.height || 1];
  }

  function toScreen(x, y) {
    const [w, h] = size();
    const s = scale();
    return [(x - state.centre[0]) * s + w / 2, (y - state.centre[1]) * s + h / 2];
  }

  // --- Drawing -------------------------------------------------------------------------

  function render() {
    const [w, h] = size();
    const s = scale();
    const tx = w / 2 - state.centre[0] * s;
    const ty = h / 2 - state.centre[1] * s;
    view.setAttribute("transform", `translate(${tx} ${ty}) scale(${s})`);
    const lat = state.current ? state.current.lat : 0;
    const metresPerScreenPixel = metresPerWorldPixel(lat) / s;
    const step = roundMetres(metresPerScreenPixel * 90);
    const spacing = step / metresPerScreenPixel;
    grid.setAttribute("width", spacing);
    grid.setAttribute("height", spacing);
    grid.setAttribute("x", ((tx % spacing) + spacing) % spacing);
    grid.setAttribute("y", ((ty % spacing) + spacing) % spacing);
    gridLines.setAttribute("d", `M ${spacing} 0 L 0 0 0 ${spacing}`);
    document.getElementById("scale-bar").style.width = `${spacing}px`;
    text("scale-label", step >= 1000 ? `${step / 1000} km` : `${step} m`);
    place(positionDot, state.current);
    place(startDot, state.first);
    drawTiles();
    map.dataset.zoom = state.zoom.toFixed(2);
  }

  // The server's z/x/y.png tiles under the path, at the whole zoom nearest the map's, each
  // placed and sized in screen pixels; those out of view are dropped.
  function drawTiles() {
    if (!state.tiles || !state.origin) return;
    const [w, h] = size();
    const s = scale();
    const z = Math.max(0, Math.min(19, Math.round(state.zoom)));
    const n = 2 ** z;
    const side = 256 * 2 ** (20 - z);  // a tile's side in zoom-20 pixels
    const left = state.origin[0] + state.centre[0] - w / 2 / s;
    const top = state.origin[1] + state.centre[1] - h / 2 / s;
    const wanted = new Set();
    for (let ty = Math.max(0, Math.floor(top / side)); ty <= Math.min(n - 1, Math.floor((top + h / s) / side)); ty++) {
      for (let tx = Math.max(0, Math.floor(left / side)); tx <= Math.min(n - 1, Math.floor((left + w / s) / side)); tx++) {
        const key = `${z}/${tx}/${ty}`;
        if (state.missingTiles.has(key) || wanted.size >= MAX_TILES) continue;
        wanted.add(key);
        let image = state.tileImages.get(key);
        if (!image) {
          image = document.createElementNS(SVG, "image");
          image.setAttribute("class", "tile");
          image.setAttribute("href", `tiles/${key}.png`);
          image.addEventListener("error", () => {
            state.missingTiles.add(key);
            state.tileImages.delete(key);
            image.remove();
          });
          tileLayer.appendChild(image);
          state.tileImages.set(key, image);
        }
        const [x, y] = toScreen(tx * side - state.origin[0], ty * side - state.origin[1]);
        image.setAttribute("x", x.toFixed(1));
        image.setAttribute("y", y.toFixed(1));
        image.setAttribute("width", (side * s + 0.5).toFixed(1));
        image.setAttribute("height", (side * s + 0.5).toFixed(1));
      }
    }
    for (const [key, image] of state.tileImages) {
      if (!wanted.has(key)) { image.remove(); state.tileImages.delete(key); }
    }
  }

  function place(dot, point) {
    if (!point) { dot.setAttribute("visibility", "hidden"); return; }
    const [x, y] = toScreen(point.x, point.y);
    dot.setAttribute("cx", x.toFixed(1));
    dot.setAttribute("cy", y.toFixed(1));
    dot.setAttribute("visibility", "visible");
  }

  function roundMetres(m) {
    const p = 10 ** Math.floor(Math.log10(Math.max(m, 0.1)));
    for (const f of [1, 2, 5, 10]) if (f * p >= m) return f * p;
    return 10 * p;
  }

  function reset(track) {
    state.track = track;
    state.origin = null;
    state.lastLongitude = null;
    state.lastNumber = 0;
    state.count = 0;
    state.segments.clear();
    state.current = null;
    state.first = null;
    state.fitted = false;
    state.fittedAll = false;
    pathGroup.replaceChildren();
    tileLayer.replaceChildren();
    state.tileImages.clear();
    accuracyCircle.setAttribute("visibility", "hidden");
    map.dataset.points = "0";
    map.dataset.segments = "0";
    delete map.dataset.lastNumber;
    delete map.dataset.lastLatitude;
    delete map.dataset.lastLongitude;
  }

  function polyline(segment) {
    let line = state.segments.get(segment);
    if (!line) {
      line = document.createElementNS(SVG, "polyline");
      line.setAttribute("class", "segment");
      line.dataset.segment = String(segment);
      line.setAttribute("points", "");
      pathGroup.appendChild(line);
      state.segments.set(segment, line);
      map.dataset.segments = String(state.segments.size);
    }
    return line;
  }

  // A point row: [number, segment, latitude, longitude, accuracy_m, speed_mps, time_ms, elevation_m].
  function addPoints(rows) {
    for (const [number, segment, lat, lon0, accuracy] of rows) {
      if (number <= state.lastNumber) continue;
      let lon = lon0;
      if (state.lastLongitude !== null) {
        while (lon - state.lastLongitude > 180) lon -= 360;
        while (lon - state.lastLongitude < -180) lon += 360;
      }
      state.lastLongitude = lon;
      const [wx, wy] = project(lat, lon);
      if (!state.origin) state.origin = [wx, wy];
      const x = wx - state.origin[0], y = wy - state.origin[1];
      const line = polyline(segment);
      const point = map.createSVGPoint();
      point.x = x;
      point.y = y;
      line.points.appendItem(point);
      state.lastNumber = number;
      state.count += 1;
      state.current = { x, y, lat, accuracy };
      if (!state.first) state.first = { x, y };
      map.dataset.lastNumber = String(number);
      map.dataset.lastLatitude = String(lat);
      map.dataset.lastLongitude = String(lon0);
    }
    map.dataset.points = String(state.count);
    if (!state.current) return;
    const c = state.current;
    if (c.accuracy) {
      accuracyCircle.setAttribute("cx", c.x);
      accuracyCircle.setAttribute("cy", c.y);
      accuracyCircle.setAttribute("r", c.accuracy / metresPerWorldPixel(c.lat));
      accuracyCircle.setAttribute("visibility", "visible");
    } else {
      accuracyCircle.setAttribute("visibility", "hidden");
    }
    if (!state.fitted) fit(trackBounds());
    if (following()) state.centre = [c.x, c.y];
    render();
  }

  function trackBounds() {
    let b = null;
    for (const line of state.segments.values()) {
      for (let i = 0; i < line.points.numberOfItems; i++) {
        const p = line.points.getItem(i);
        b = b ? [Math.min(b[0], p.x), Math.min(b[1], p.y), Math.max(b[2], p.x), Math.max(b[3], p.y)] : [p.x, p.y, p.x, p.y];
      }
    }
    return b;
  }

  // The zoom at which the whole track fits (at most 17), so the first sight shows it all.
  function fit(b) {
    if (!b) return;
    const [w, h] = size();
    const span = Math.max((b[2] - b[0]) / (w * 0.8), (b[3] - b[1]) / (h * 0.6), 1e-9);
    state.zoom = Math.max(MIN_ZOOM, Math.min(17, 20 - Math.log2(span)));
    state.fitted = true;
  }

  // --- Following and gestures --------------------------------------------------------

  function following() { return Date.now() >= state.pausedUntil; }

  function userMoved() {
    state.pausedUntil = Date.now() + PAUSE_AFTER_GESTURE_MS;
    map.dataset.following = "false";
    recenter.hidden = false;
  }

  function resumeFollowing() {
    state.pausedUntil = 0;
    map.dataset.following = "true";
    recenter.hidden = true;
    if (state.current) state.centre = [state.current.x, state.current.y];
    render();
  }

  setInterval(() => {
    if (map.dataset.following === "false" && following()) resumeFollowing();
  }, 250);
  recenter.addEventListener("click", resumeFollowing);

  function zoomAround(screenX, screenY, newZoom) {
    const [w, h] = size();
    const before = scale();
    const wx = state.centre[0] + (screenX - w / 2) / before;
    const wy = state.centre[1] + (screenY - h / 2) / before;
    state.zoom = Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, newZoom));
    const after = scale();
    state.centre = [wx - (screenX - w / 2) / after, wy - (screenY - h / 2) / after];
    render();
  }

  const pointers = new Map();
  let pinch = null;

  map.addEventListener("pointerdown", (e) => {
    map.setPointerCapture(e.pointerId);
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    map.classList.add("dragging");
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { distance: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1, zoom: state.zoom };
    }
  });
  map.addEventListener("pointermove", (e) => {
    const previous = pointers.get(e.pointerId);
    if (!previous) return;
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    userMoved();
    if (pointers.size === 1) {
      const s = scale();
      state.centre = [state.centre[0] - (e.clientX - previous[0]) / s, state.centre[1] - (e.clientY - previous[1]) / s];
      render();
    } else if (pointers.size === 2 && pinch) {
      const [a, b] = [...pointers.values()];
      const distance = Math.hypot(a[0] - b[0], a[1] - b[1]) || 1;
      const box = map.getBoundingClientRect();
      zoomAround((a[0] + b[0]) / 2 - box.left, (a[1] + b[1]) / 2 - box.top, pinch.zoom + Math.log2(distance / pinch.distance));
    }
  });
  const release = (e) => {
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
    if (pointers.size === 0) map.classList.remove("dragging");
  };
  map.addEventListener("pointerup", release);
  map.addEventListener("pointercancel", release);
  map.addEventListener("wheel", (e) => {
    e.preventDefault();
    userMoved();
    const box = map.getBoundingClientRect();
    zoomAround(e.clientX - box.left, e.clientY - box.top, state.zoom - e.deltaY / 300);
  }, { passive: false });
  window.addEventListener("resize", render);

  // --- The panel -----------------------------------------------------------------------

  function duration(seconds) {
    const s = Math.max(0, Math.round(seconds));
    const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, r = s % 60;
    return `${h}:${String(m).padStart(2, "0")}:${String(r).padStart(2, "0")}`;
  }

  function showStatus(status) {
    // The first status follows the whole track so far: show all of it once.
    if (!state.fittedAll && state.count > 0) {
      fit(trackBounds());
      state.fittedAll = true;
      render();
    }
    const signal = document.getElementById("signal");
    const names = { strong: "Strong", weak: "Weak", invalid: "No fix" };
    const value = status.source_lost ? "invalid" : (status.signal || "");
    signal.dataset.signal = value;
    signal.textContent = status.source_lost ? "Receiver lost" : (names[value] || "–");
    const d = status.distance_m;
    text("distance", d >= 1000 ? `${(d / 1000).toFixed(2)} km` : `${Math.round(d)} m`);
    text("speed", status.speed_mps === null ? "–" : `${(status.speed_mps * 3.6).toFixed(1)} km/h`);
    text("elapsed", duration(status.elapsed_s));
    text("accuracy-text", status.accuracy_m === null ? "–" : `±${Math.round(status.accuracy_m)} m`);
    map.dataset.state = status.state;
    map.dataset.distance = String(d);
    connection(status.state === "recording" ? "live" : status.state,
      status.state === "recording" ? "Live: recording" : `This track is ${status.state}`);
  }

  function connection(value, message) {
    const element = document.getElementById("connection");
    element.dataset.state = value;
    element.textContent = message;
  }

  // --- The event stream ------------------------------------------------------------------

  fetch("tiles.json").then((r) => r.json()).then((answer) => {
    state.tiles = answer.tiles === true;
    document.getElementById("grid-fill").setAttribute("visibility", state.tiles ? "hidden" : "visible");
    render();
  }).catch(() => {});

  const events = new EventSource("events");
  events.addEventListener("track", (e) => {
    const track = JSON.parse(e.data);
    if (track.id !== state.track) reset(track.id);
    text("title", track.name ? `${track.name} · track ${track.id}` : `Track ${track.id}`);
    document.title = `trackd · ${track.name || "track " + track.id}`;
    map.dataset.track = String(track.id);
  });
  events.addEventListener("notrack", (e) => {
    reset(null);
    text("title", "trackd");
    connection("waiting", JSON.parse(e.data).message);
  });
  events.addEventListener("points", (e) => {
    const batch = JSON.parse(e.data);
    if (batch.track === state.track) addPoints(batch.points);
  });
  events.addEventListener("status", (e) => showStatus(JSON.parse(e.data)));
  events.addEventListener("error", () => {
    const ended = map.dataset.state === "finished" || map.dataset.state === "recovered";
    if (events.readyState === EventSource.CLOSED) connection("closed", "Disconnected");
    else if (ended) connection("ended", `This track is ${map.dataset.state}; trackd stopped serving (reconnecting)`);
    else connection("reconnecting", "Connection lost: reconnecting…");
  });
  render();
})();
