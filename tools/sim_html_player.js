// The player of the simulation page (written into the page by sim_html.c).
// Canvas 2D only: a perspective projection by hand, the painter's algorithm
// (every triangle sorted by depth, far to near), Lambert shading with a light
// fixed to the camera. The data is the JSON in #gjk-data
// (docs/simulation-html.md).
(function () {
  'use strict';
  var D = JSON.parse(document.getElementById('gjk-data').textContent);
  var F = D.frames, NB = D.bodies.length, box = D.box;

  function bytes(s) {
    var bin = atob(s), u = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) u[i] = bin.charCodeAt(i);
    return new DataView(u.buffer);
  }
  function int16s(s) {
    var dv = bytes(s), n = dv.byteLength >> 1, a = new Int16Array(n);
    for (var i = 0; i < n; i++) a[i] = dv.getInt16(2 * i, true);
    return a;
  }
  function unbox(q, k) { return box[k] + (q + 32768) / 65535 * box[3 + k]; }

  // Poses: per body, 7 numbers a pose (x, y, z, qw, qx, qy, qz).
  var P = int16s(D.poses), poses = [], badQuaternions = 0, poseCount = 0;
  D.bodies.forEach(function (b) {
    var count = b.fixed ? Math.min(F, 1) : F, a = new Float64Array(7 * count);
    for (var f = 0; f < count; f++) {
      var s = 7 * (b.pose + f), d = 7 * f;
      for (var k = 0; k < 3; k++) a[d + k] = unbox(P[s + k], k);
      var w = P[s + 3] / 32767, x = P[s + 4] / 32767, y = P[s + 5] / 32767, z = P[s + 6] / 32767;
      var n = Math.sqrt(w * w + x * x + y * y + z * z);
      if (!(Math.abs(n - 1) < 1e-3)) { badQuaternions++; if (!(n > 0)) { w = 1; x = y = z = 0; n = 1; } }
      a[d + 3] = w / n; a[d + 4] = x / n; a[d + 5] = y / n; a[d + 6] = z / n;
    }
    poseCount += count;
    poses.push(a);
  });
  var poseDataOk = P.length === 7 * poseCount;

  // Contacts: frame f has contacts contactFirst[f] .. contactFirst[f + 1] − 1.
  var C = int16s(D.contacts), contactFirst = new Int32Array(F + 1);
  for (var f = 0; f < F; f++) contactFirst[f + 1] = contactFirst[f] + D.contact_counts[f];
  var NC = contactFirst[F], contacts = new Float64Array(6 * NC);
  var contactDataOk = C.length === 6 * NC;
  for (var i = 0; i < NC && contactDataOk; i++) {
    for (var k = 0; k < 3; k++) contacts[6 * i + k] = unbox(C[6 * i + k], k);
    var nx = C[6 * i + 3] / 32767, ny = C[6 * i + 4] / 32767, nz = C[6 * i + 5] / 32767;
    var nl = Math.sqrt(nx * nx + ny * ny + nz * nz) || 1;
    contacts[6 * i + 3] = nx / nl; contacts[6 * i + 4] = ny / nl; contacts[6 * i + 5] = nz / nl;
  }

  // Triangles longer than an eighth of the scene are halved across their
  // longest edge until they are not: the painter's algorithm sorts by the
  // triangle's mean depth, which for a large face (a ground box) is far from
  // the depth of the part of it beside a small body.
  var split2 = Math.pow(D.view[3] / 8, 2);
  D.meshes.forEach(function (m) {
    if (m.kind > 1) return;
    var V = m.v.slice(), out = [], stack = m.t.slice();
    function d2(i, j) {
      var x = V[3 * i] - V[3 * j], y = V[3 * i + 1] - V[3 * j + 1], z = V[3 * i + 2] - V[3 * j + 2];
      return x * x + y * y + z * z;
    }
    while (stack.length) {
      var c = stack.pop(), b = stack.pop(), a = stack.pop(), x;
      var ab = d2(a, b), bc = d2(b, c), ca = d2(c, a), longest = Math.max(ab, bc, ca);
      if (!(longest > split2) || out.length + stack.length > 3 * 20000) { out.push(a, b, c); continue; }
      if (bc === longest) { x = a; a = b; b = c; c = x; } // same orientation, longest edge a–b
      else if (ca === longest) { x = a; a = c; c = b; b = x; }
      V.push((V[3 * a] + V[3 * b]) / 2, (V[3 * a + 1] + V[3 * b + 1]) / 2, (V[3 * a + 2] + V[3 * b + 2]) / 2);
      var mid = V.length / 3 - 1;
      stack.push(a, mid, c, mid, b, c);
    }
    m.v = V; m.t = out;
  });

  // Colours: moving bodies from a palette, static ones grey.
  var palette = [[70, 130, 200], [225, 130, 50], [90, 170, 90], [200, 80, 90], [150, 110, 200],
                 [60, 170, 170], [210, 180, 60], [170, 110, 80], [220, 120, 170], [110, 120, 140]];
  var LEVELS = 48, styles = [], moving = 0;
  D.bodies.forEach(function (b) {
    var c = b.static ? [165, 168, 175] : palette[moving++ % palette.length], s = [];
    for (var l = 0; l <= LEVELS; l++) {
      var t = l / LEVELS;
      s.push('rgb(' + Math.round(c[0] * t) + ',' + Math.round(c[1] * t) + ',' + Math.round(c[2] * t) + ')');
    }
    styles.push(s);
  });

  // Scratch for transformed vertices and drawing items.
  var maxV = 1, items = 0;
  D.meshes.forEach(function (m) {
    maxV = Math.max(maxV, m.v.length / 3);
  });
  D.bodies.forEach(function (b) {
    var m = D.meshes[b.mesh];
    items += m.kind === 2 || m.kind === 3 ? 1 : m.t.length / 3;
  });
  var WX = new Float64Array(3 * maxV), CZ = new Float64Array(maxV), SX = new Float64Array(2 * maxV);
  var depth = new Float64Array(items + 1), order = new Uint32Array(items + 1);
  var itemXY = new Float64Array(6 * (items + 1)), itemType = new Uint8Array(items + 1);
  var itemStyle = new Array(items + 1);

  var canvas = document.getElementById('view'), ctx = canvas.getContext('2d');
  var slider = document.getElementById('slider'), label = document.getElementById('label');
  var playButton = document.getElementById('play'), contactBox = document.getElementById('contacts');
  var upSelect = document.getElementById('up');
  var BG = [244, 245, 247];
  var frame = 0, playing = F > 1, showContacts = false, up = D.up;
  var fov = 45 * Math.PI / 180;
  var cam = {};
  function resetView() {
    cam.target = [D.view[0], D.view[1], D.view[2]];
    cam.yaw = -Math.PI / 3; cam.pitch = 0.45;
    cam.dist = D.view[3] / Math.tan(fov / 2) * 0.9; // the bounding sphere of the moving bodies, about filled
  }
  resetView();
  slider.max = String(Math.max(0, F - 1));
  upSelect.value = String(up);

  function resize() {
    var r = window.devicePixelRatio || 1;
    var w = Math.max(1, Math.round(canvas.clientWidth * r)), h = Math.max(1, Math.round(canvas.clientHeight * r));
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  }

  // Camera basis: U is up; A, B span the ground (A × B = U).
  function basis() {
    var k = up >> 1, s = up & 1 ? -1 : 1;
    var U = [0, 0, 0], A = [0, 0, 0];
    U[k] = s; A[(k + 1) % 3] = 1;
    var B = cross(U, A);
    var cp = Math.cos(cam.pitch), dir = [0, 0, 0];
    for (var i = 0; i < 3; i++)
      dir[i] = cp * (Math.cos(cam.yaw) * A[i] + Math.sin(cam.yaw) * B[i]) + Math.sin(cam.pitch) * U[i];
    var eye = [0, 0, 0];
    for (i = 0; i < 3; i++) eye[i] = cam.target[i] + cam.dist * dir[i];
    var fw = [-dir[0], -dir[1], -dir[2]];
    var r = normalize(cross(fw, U)), c = cross(r, fw);
    return { eye: eye, f: fw, r: r, c: c };
  }
  function cross(a, b) { return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]; }
  function normalize(a) { var n = Math.hypot(a[0], a[1], a[2]) || 1; return [a[0] / n, a[1] / n, a[2] / n]; }

  function render(fr) {
    resize();
    var W = canvas.width, H = canvas.height;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = 'rgb(' + BG.join(',') + ')';
    ctx.fillRect(0, 0, W, H);
    var cb = basis(), eye = cb.eye, fw = cb.f, rt = cb.r, cu = cb.c;
    var focal = H / 2 / Math.tan(fov / 2), cx = W / 2, cy = H / 2, near = cam.dist * 1e-3;
    // Light from above-left-behind the viewer, in camera terms.
    var L = normalize([-0.35 * rt[0] + 0.6 * cu[0] - 0.7 * fw[0], -0.35 * rt[1] + 0.6 * cu[1] - 0.7 * fw[1],
                       -0.35 * rt[2] + 0.6 * cu[2] - 0.7 * fw[2]]);
    var n = 0;
    for (var b = 0; b < NB; b++) {
      var m = D.meshes[D.bodies[b].mesh], V = m.v, T = m.t, nv = V.length / 3, pz = poses[b];
      if (!pz.length) continue;
      var o = D.bodies[b].fixed ? 0 : 7 * fr;
      var px = pz[o], py = pz[o + 1], pzz = pz[o + 2], qw = pz[o + 3], qx = pz[o + 4], qy = pz[o + 5], qz = pz[o + 6];
      for (var v = 0; v < nv; v++) {
        // p' = q p q* + position (the rotation written out: t = 2 q×p, p' = p + w t + q×t).
        var x = V[3 * v], y = V[3 * v + 1], z = V[3 * v + 2];
        var tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
        var wx = x + qw * tx + (qy * tz - qz * ty) + px;
        var wy = y + qw * ty + (qz * tx - qx * tz) + py;
        var wz = z + qw * tz + (qx * ty - qy * tx) + pzz;
        WX[3 * v] = wx; WX[3 * v + 1] = wy; WX[3 * v + 2] = wz;
        var dx = wx - eye[0], dy = wy - eye[1], dz = wz - eye[2];
        var zc = dx * fw[0] + dy * fw[1] + dz * fw[2];
        CZ[v] = zc;
        var s = focal / Math.max(zc, near);
        SX[2 * v] = cx + s * (dx * rt[0] + dy * rt[1] + dz * rt[2]);
        SX[2 * v + 1] = cy - s * (dx * cu[0] + dy * cu[1] + dz * cu[2]);
      }
      var st = styles[b];
      if (m.kind === 2 || m.kind === 3) { // segment or point marker
        var last = m.kind === 2 ? 1 : 0;
        if (CZ[0] < near || CZ[last] < near) continue;
        itemType[n] = m.kind;
        itemXY[6 * n] = SX[0]; itemXY[6 * n + 1] = SX[1];
        itemXY[6 * n + 2] = SX[2 * last]; itemXY[6 * n + 3] = SX[2 * last + 1];
        itemStyle[n] = st[Math.round(LEVELS * 0.8)];
        depth[n] = (CZ[0] + CZ[last]) / 2;
        order[n] = n; n++;
        continue;
      }
      var twoSided = m.kind === 1;
      for (var t = 0; t < T.length; t += 3) {
        var a = T[t], bb = T[t + 1], c = T[t + 2];
        if (CZ[a] < near || CZ[bb] < near || CZ[c] < near) continue;
        var ux = WX[3 * bb] - WX[3 * a], uy = WX[3 * bb + 1] - WX[3 * a + 1], uz = WX[3 * bb + 2] - WX[3 * a + 2];
        var vx = WX[3 * c] - WX[3 * a], vy = WX[3 * c + 1] - WX[3 * a + 1], vz = WX[3 * c + 2] - WX[3 * a + 2];
        var nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
        var nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
        if (!(nl > 0)) continue;
        var facing = nx * (WX[3 * a] - eye[0]) + ny * (WX[3 * a + 1] - eye[1]) + nz * (WX[3 * a + 2] - eye[2]);
        if (facing >= 0) {
          if (!twoSided) continue; // back face of a closed body
          nx = -nx; ny = -ny; nz = -nz;
        }
        var lambert = Math.max(0, (nx * L[0] + ny * L[1] + nz * L[2]) / nl);
        itemType[n] = 0;
        itemXY[6 * n] = SX[2 * a]; itemXY[6 * n + 1] = SX[2 * a + 1];
        itemXY[6 * n + 2] = SX[2 * bb]; itemXY[6 * n + 3] = SX[2 * bb + 1];
        itemXY[6 * n + 4] = SX[2 * c]; itemXY[6 * n + 5] = SX[2 * c + 1];
        itemStyle[n] = st[Math.round(LEVELS * (0.3 + 0.7 * lambert))];
        depth[n] = (CZ[a] + CZ[bb] + CZ[c]) / 3;
        order[n] = n; n++;
      }
    }
    var ord = order.subarray(0, n);
    ord.sort(function (i, j) { return depth[j] - depth[i]; });
    ctx.lineJoin = 'round';
    // Styles are set only when they change (each assignment parses a colour).
    var lastStyle = null, lastWidth = 0;
    function use(style, width) {
      if (style !== lastStyle) { ctx.fillStyle = style; ctx.strokeStyle = style; lastStyle = style; }
      if (width !== lastWidth) { ctx.lineWidth = width; lastWidth = width; }
    }
    for (var q = 0; q < n; q++) {
      var it = ord[q], e = 6 * it;
      ctx.beginPath();
      if (itemType[it] === 0) {
        use(itemStyle[it], 0.8);
        ctx.moveTo(itemXY[e], itemXY[e + 1]);
        ctx.lineTo(itemXY[e + 2], itemXY[e + 3]);
        ctx.lineTo(itemXY[e + 4], itemXY[e + 5]);
        ctx.closePath();
        ctx.fill();
        ctx.stroke(); // hides the antialiased seams between triangles
      } else if (itemType[it] === 2) {
        use(itemStyle[it], 3);
        ctx.moveTo(itemXY[e], itemXY[e + 1]);
        ctx.lineTo(itemXY[e + 2], itemXY[e + 3]);
        ctx.stroke();
      } else {
        use(itemStyle[it], lastWidth);
        ctx.arc(itemXY[e], itemXY[e + 1], 4, 0, 2 * Math.PI);
        ctx.fill();
      }
    }
    var nContacts = F ? contactFirst[fr + 1] - contactFirst[fr] : 0;
    if (showContacts && F) drawContacts(fr, eye, fw, rt, cu, focal, cx, cy, near);
    label.textContent = 'frame ' + (F ? fr + 1 : 0) + '/' + F + '  t=' + (fr * (D.dt || 0)).toFixed(3) + ' s  contacts ' +
      nContacts;
  }

  var CONTACT_RGB = [220, 30, 30];
  function drawContacts(fr, eye, fw, rt, cu, focal, cx, cy, near) {
    var len = D.view[3] * 0.08;
    function project(x, y, z) {
      var dx = x - eye[0], dy = y - eye[1], dz = z - eye[2], zc = dx * fw[0] + dy * fw[1] + dz * fw[2];
      if (zc < near) return null;
      var s = focal / zc;
      return [cx + s * (dx * rt[0] + dy * rt[1] + dz * rt[2]), cy - s * (dx * cu[0] + dy * cu[1] + dz * cu[2])];
    }
    var style = 'rgb(' + CONTACT_RGB.join(',') + ')';
    for (var i = contactFirst[fr]; i < contactFirst[fr + 1]; i++) {
      var c = contacts.subarray(6 * i, 6 * i + 6);
      var p = project(c[0], c[1], c[2]), q = project(c[0] + len * c[3], c[1] + len * c[4], c[2] + len * c[5]);
      if (!p) continue;
      if (q) {
        ctx.beginPath(); ctx.moveTo(p[0], p[1]); ctx.lineTo(q[0], q[1]);
        ctx.strokeStyle = '#f0a020'; ctx.lineWidth = 2; ctx.stroke();
        ctx.beginPath(); ctx.arc(q[0], q[1], 2, 0, 2 * Math.PI); ctx.fillStyle = '#f0a020'; ctx.fill();
      }
      ctx.beginPath(); ctx.arc(p[0], p[1], 4, 0, 2 * Math.PI); ctx.fillStyle = style; ctx.fill();
    }
  }

  // Redraws are coalesced into animation frames.
  var dirty = true, lastTime = null, acc = 0, dt = D.dt > 0 ? D.dt : 1 / 60;
  function setFrame(f) { frame = Math.max(0, Math.min(F - 1, f | 0)); slider.value = String(frame); dirty = true; }
  function tick(time) {
    if (playing && F > 1) {
      if (lastTime !== null) {
        acc += Math.min(1, (time - lastTime) / 1000);
        var steps = Math.floor(acc / dt);
        if (steps > 0) { acc -= steps * dt; setFrame((frame + steps) % F); }
      }
      lastTime = time;
    } else lastTime = null;
    if (dirty) { dirty = false; render(frame); }
    window.requestAnimationFrame(tick);
  }
  function setPlaying(p) { playing = p && F > 1; playButton.textContent = playing ? 'Pause' : 'Play'; acc = 0; }

  playButton.addEventListener('click', function () { setPlaying(!playing); });
  slider.addEventListener('input', function () { setPlaying(false); setFrame(+slider.value); });
  contactBox.addEventListener('change', function () { showContacts = contactBox.checked; dirty = true; });
  upSelect.addEventListener('change', function () { up = +upSelect.value; dirty = true; });
  var drag = null;
  canvas.addEventListener('pointerdown', function (e) {
    drag = { x: e.clientX, y: e.clientY }; canvas.style.cursor = 'grabbing';
    try { canvas.setPointerCapture(e.pointerId); } catch (err) { /* a pointer the browser does not know */ }
  });
  canvas.addEventListener('pointermove', function (e) {
    if (!drag) return;
    cam.yaw -= (e.clientX - drag.x) * 0.008;
    cam.pitch = Math.max(-1.55, Math.min(1.55, cam.pitch + (e.clientY - drag.y) * 0.008));
    drag = { x: e.clientX, y: e.clientY }; dirty = true;
  });
  function endDrag() { drag = null; canvas.style.cursor = 'grab'; }
  canvas.addEventListener('pointerup', endDrag);
  canvas.addEventListener('pointercancel', endDrag);
  canvas.addEventListener('wheel', function (e) {
    e.preventDefault();
    cam.dist *= Math.exp(Math.max(-0.5, Math.min(0.5, e.deltaY * 0.0015))); dirty = true;
  }, { passive: false });
  canvas.addEventListener('dblclick', function () { resetView(); dirty = true; });
  window.addEventListener('resize', function () { dirty = true; });
  window.addEventListener('keydown', function (e) {
    if (e.target && e.target.tagName === 'INPUT' && e.target.type === 'range') return;
    if (e.key === ' ') { e.preventDefault(); setPlaying(!playing); }
    else if (e.key === 'ArrowRight') { setPlaying(false); setFrame(frame + 1); }
    else if (e.key === 'ArrowLeft') { setPlaying(false); setFrame(frame - 1); }
    else if (e.key === 'c') { contactBox.checked = !contactBox.checked; showContacts = contactBox.checked; dirty = true; }
  });

  // Self-test, read by the browser test: the first frame drawn, how many
  // pixels differ from the background; the first frame with contacts drawn
  // with them, how many pixels have the contact colour.
  function countPixels(rgb, equal) {
    var d = ctx.getImageData(0, 0, canvas.width, canvas.height).data, count = 0;
    for (var i = 0; i < d.length; i += 4) {
      var same = d[i] === rgb[0] && d[i + 1] === rgb[1] && d[i + 2] === rgb[2];
      if (same === equal) count++;
    }
    return count;
  }
  // Drawing time: the fastest of three draws of the first frame.
  var renderMs = Infinity;
  for (var rep = 0; rep < 3; rep++) {
    var t0 = performance.now();
    render(0);
    renderMs = Math.min(renderMs, performance.now() - t0);
  }
  var drawn = countPixels(BG, false), contactPixels = 0;
  for (f = 0; f < F; f++) {
    if (contactFirst[f + 1] > contactFirst[f]) {
      showContacts = true; render(f); contactPixels = countPixels(CONTACT_RGB, true); showContacts = false;
      break;
    }
  }
  var st = document.getElementById('gjk-selftest');
  st.textContent = 'frames=' + F + ' bodies=' + NB + ' contacts=' + NC + ' drawn=' + drawn + ' of ' +
    canvas.width * canvas.height + ' contact_pixels=' + contactPixels + ' bad_quaternions=' + badQuaternions +
    ' data=' + (poseDataOk && contactDataOk ? 'ok' : 'bad') + ' render_ms=' + renderMs.toFixed(1);
  // Options in the address's fragment, e.g. page.html#frame=120&contacts&paused.
  location.hash.replace(/^#/, '').split('&').forEach(function (opt) {
    var kv = opt.split('=');
    if (kv[0] === 'contacts') { showContacts = contactBox.checked = true; }
    else if (kv[0] === 'paused') playing = false;
    else if (kv[0] === 'frame' && F > 0) { playing = false; setFrame(+kv[1] - 1); }
  });
  if (/(^|&)selftest(&|$)/.test(location.hash.replace(/^#/, ''))) testControls();
  render(frame);
  setPlaying(playing);
  window.requestAnimationFrame(tick);

  // With #selftest in the address: every control driven by synthetic events,
  // its effect checked on the state and on the pixels, the result written
  // into #gjk-controls ("name=ok" or "name=bad" each), the view restored.
  function testControls() {
    var results = [], savedFrame = frame, savedUp = up, i;
    function pixels() { render(frame); return ctx.getImageData(0, 0, canvas.width, canvas.height).data; }
    function changed(a, b) { var n = 0; for (var k = 0; k < a.length; k += 4) if (a[k] !== b[k] || a[k + 1] !== b[k + 1] || a[k + 2] !== b[k + 2]) n++; return n; }
    function drawnCount() { render(frame); return countPixels(BG, false); }
    function check(name, ok) { results.push(name + '=' + (ok ? 'ok' : 'bad')); }
    playing = false;
    var box = canvas.getBoundingClientRect(), x = box.left + box.width / 2, y = box.top + box.height / 2;
    // Orbit: a drag turns the camera and changes the picture.
    var before = pixels(), yaw = cam.yaw, pitch = cam.pitch;
    canvas.dispatchEvent(new PointerEvent('pointerdown', { clientX: x, clientY: y, pointerId: 7, bubbles: true }));
    canvas.dispatchEvent(new PointerEvent('pointermove', { clientX: x + 80, clientY: y + 30, pointerId: 7, bubbles: true }));
    canvas.dispatchEvent(new PointerEvent('pointerup', { clientX: x + 80, clientY: y + 30, pointerId: 7, bubbles: true }));
    check('orbit', cam.yaw !== yaw && cam.pitch !== pitch && (NB === 0 || changed(before, pixels()) > 0));
    // A move without the button held does nothing.
    yaw = cam.yaw;
    canvas.dispatchEvent(new PointerEvent('pointermove', { clientX: x + 10, clientY: y, pointerId: 7, bubbles: true }));
    check('hover', cam.yaw === yaw);
    // Zoom: the wheel toward the screen brings the camera closer (the
    // bodies cover more pixels), away from it moves it back.
    var dist = cam.dist, covered = drawnCount();
    canvas.dispatchEvent(new WheelEvent('wheel', { deltaY: -200, clientX: x, clientY: y, bubbles: true, cancelable: true }));
    var closer = cam.dist < dist && (F === 0 || NB === 0 || drawnCount() > covered);
    canvas.dispatchEvent(new WheelEvent('wheel', { deltaY: 400, clientX: x, clientY: y, bubbles: true, cancelable: true }));
    check('zoom', closer && cam.dist > dist);
    resetView();
    // The contacts switch: at a frame with contacts, pixels of the contact
    // colour appear only while it is on.
    var withContacts = -1;
    for (i = 0; i < F && withContacts < 0; i++) if (contactFirst[i + 1] > contactFirst[i]) withContacts = i;
    if (withContacts >= 0) {
      setFrame(withContacts);
      render(frame);
      var off = countPixels(CONTACT_RGB, true);
      contactBox.click();
      render(frame);
      var on = countPixels(CONTACT_RGB, true);
      contactBox.click();
      check('contacts', showContacts === false && on > off);
    }
    // The slider selects a frame (and pauses); the label follows.
    if (F > 1) {
      setPlaying(true);
      slider.value = String(F - 1);
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      render(frame);
      check('slider', frame === F - 1 && !playing && label.textContent.indexOf('frame ' + F + '/' + F) === 0);
      // Keys: ← steps back, → forward, space plays and pauses.
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }));
      var back = frame === F - 2;
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
      window.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', bubbles: true, cancelable: true }));
      var spacePlays = playing;
      window.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', bubbles: true, cancelable: true }));
      check('keys', back && frame === F - 1 && spacePlays && !playing);
      // The button plays and pauses.
      playButton.click();
      var plays = playing && playButton.textContent === 'Pause';
      playButton.click();
      check('play', plays && !playing && playButton.textContent === 'Play');
    }
    // The up menu turns the world.
    before = pixels();
    upSelect.value = String(savedUp ^ 1);
    upSelect.dispatchEvent(new Event('change', { bubbles: true }));
    check('up', up === (savedUp ^ 1) && (NB === 0 || changed(before, pixels()) > 0));
    upSelect.value = String(savedUp);
    upSelect.dispatchEvent(new Event('change', { bubbles: true }));
    // Double-click resets the view.
    cam.yaw += 1; cam.dist *= 2;
    canvas.dispatchEvent(new MouseEvent('dblclick', { clientX: x, clientY: y, bubbles: true }));
    var fresh = {}; var saved = cam; cam = fresh; resetView(); cam = saved;
    check('reset', cam.yaw === fresh.yaw && cam.dist === fresh.dist);
    setFrame(savedFrame);
    document.getElementById('gjk-controls').textContent = 'controls: ' + results.join(' ');
  }
})();
