/* Small SVG charts drawn here (no library, nothing fetched): a line chart over time and a bar chart. */
'use strict';
HG.charts = (function () {
  var NS = 'http://www.w3.org/2000/svg';
  var H = 170, PAD = { l: 44, r: 10, t: 10, b: 22 };

  function svgEl(tag, attrs, text) {
    var e = document.createElementNS(NS, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = String(text);
    return e;
  }
  /** 1, 2 or 5 times a power of ten, at least max / 4: four tidy grid steps. */
  function niceStep(max) {
    var raw = Math.max(max, 1e-9) / 4, pow = Math.pow(10, Math.floor(Math.log10(raw)));
    var m = raw / pow;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * pow;
  }
  function label(v) {
    if (v >= 1000) return (v / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 }) + 'k';
    return Number(v.toPrecision(3)).toString();
  }
  function hhmm(ms) {
    var d = new Date(ms);
    return (d.getHours() < 10 ? '0' : '') + d.getHours() + ':' + (d.getMinutes() < 10 ? '0' : '') + d.getMinutes();
  }
  function frame(container, title) {
    HG.clear(container);
    var w = Math.max(240, container.clientWidth || 480);
    var svg = svgEl('svg', { width: w, height: H, viewBox: '0 0 ' + w + ' ' + H, role: 'img', 'aria-label': title, 'class': 'svgchart' });
    container.appendChild(svg);
    return { svg: svg, w: w };
  }
  /** Grid lines and labels from 0 to a tidy top above max (counts: whole steps, room for labels). */
  function yAxis(svg, w, max, counts) {
    if (!(max > 0)) max = 1;
    if (counts) max = max * 1.15;
    var step = counts ? Math.max(1, Math.round(niceStep(max))) : niceStep(max), top = Math.max(step * Math.ceil(max / step), step);
    for (var v = 0; v <= top + step / 2; v += step) {
      var y = PAD.t + (H - PAD.t - PAD.b) * (1 - v / top);
      svg.appendChild(svgEl('line', { x1: PAD.l, x2: w - PAD.r, y1: y, y2: y, 'class': 'gridline' }));
      svg.appendChild(svgEl('text', { x: PAD.l - 6, y: y + 4, 'text-anchor': 'end', 'class': 'tick' }, label(v)));
    }
    return top;
  }
  function legend(container, series) {
    var ul = HG.el('ul', null, 'legend');
    series.forEach(function (s) {
      var li = HG.el('li');
      li.appendChild(HG.el('span', null, 'swatch ' + s.cls));
      li.appendChild(document.createTextNode(s.name + (s.last !== undefined ? ' ' + s.last : '')));
      ul.appendChild(li);
    });
    container.appendChild(ul);
  }

  /**
   * Lines over [from, to] (epoch ms). series: [{name, cls, points: [[t, v|null], ...]}]; a null
   * value breaks the line. An empty chart says so.
   */
  function line(container, series, from, to, title, emptyText) {
    var f = frame(container, title), svg = f.svg, w = f.w;
    var max = 0, any = false;
    series.forEach(function (s) { s.points.forEach(function (p) { if (p[1] !== null) { any = true; max = Math.max(max, p[1]); } }); });
    var top = yAxis(svg, w, max);
    var x = function (t) { return PAD.l + (w - PAD.l - PAD.r) * (t - from) / Math.max(1, to - from); };
    var y = function (v) { return PAD.t + (H - PAD.t - PAD.b) * (1 - v / top); };
    [from, from + (to - from) / 2, to].forEach(function (t, i) {
      svg.appendChild(svgEl('text', { x: x(t), y: H - 6, 'text-anchor': i === 0 ? 'start' : i === 2 ? 'end' : 'middle', 'class': 'tick' }, hhmm(t)));
    });
    series.forEach(function (s) {
      var d = '', pen = false;
      s.points.forEach(function (p) {
        if (p[1] === null) { pen = false; return; }
        d += (pen ? 'L' : 'M') + x(p[0]).toFixed(1) + ' ' + y(p[1]).toFixed(1) + ' ';
        pen = true;
      });
      if (d) svg.appendChild(svgEl('path', { d: d, 'class': 'series ' + s.cls }));
      if (s.points.length < 40) {
        s.points.forEach(function (p) {
          if (p[1] !== null) svg.appendChild(svgEl('circle', { cx: x(p[0]).toFixed(1), cy: y(p[1]).toFixed(1), r: 2.5, 'class': 'dot ' + s.cls }));
        });
      }
      var last = s.points.length ? s.points[s.points.length - 1][1] : null;
      s.last = last === null || last === undefined ? undefined : label(last);
    });
    if (!any) svg.appendChild(svgEl('text', { x: w / 2, y: H / 2, 'text-anchor': 'middle', 'class': 'nodata' }, emptyText));
    legend(container, series);
  }

  /** Bars with labels: bars: [{label, value, cls}]. */
  function bars(container, items, title) {
    var f = frame(container, title), svg = f.svg, w = f.w;
    var max = 0;
    items.forEach(function (b) { max = Math.max(max, b.value); });
    var top = yAxis(svg, w, max, true);
    var slot = (w - PAD.l - PAD.r) / items.length;
    items.forEach(function (b, i) {
      var h = (H - PAD.t - PAD.b) * b.value / top, bx = PAD.l + slot * i + slot * 0.18;
      var r = svgEl('rect', { x: bx, y: H - PAD.b - h, width: slot * 0.64, height: Math.max(h, 0.5), 'class': 'bar ' + b.cls });
      r.appendChild(svgEl('title', {}, b.label + ': ' + b.value.toLocaleString('en-US')));
      svg.appendChild(r);
      svg.appendChild(svgEl('text', { x: bx + slot * 0.32, y: H - 6, 'text-anchor': 'middle', 'class': 'tick' }, b.label));
      svg.appendChild(svgEl('text', { x: bx + slot * 0.32, y: Math.max(H - PAD.b - h - 4, PAD.t + 10), 'text-anchor': 'middle', 'class': 'barval' }, b.value.toLocaleString('en-US')));
    });
  }

  return { line: line, bars: bars };
})();
