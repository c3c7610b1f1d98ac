/* Hourglass dashboard: shared helpers. Every value from the server goes into the page as text
   (textContent, setAttribute), never as HTML: queue names, ids, payloads and errors are data. */
'use strict';
var HG = (function () {
  var TOKEN_KEY = 'hourglass.token';
  var TIMEOUT_MS = 15000;

  function $(id) { return document.getElementById(id); }
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function seg(s) { return encodeURIComponent(s); }

  function num(n) { return typeof n === 'number' ? n.toLocaleString('en-US') : '—'; }
  function rate(n) {
    if (typeof n !== 'number') return '—';
    if (n === 0) return '0';
    return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(n >= 10 ? 1 : 2);
  }
  function absTime(ms) {
    if (typeof ms !== 'number') return '—';
    var d = new Date(ms);
    function p(x) { return (x < 10 ? '0' : '') + x; }
    return d.getFullYear() + '-' + p(d.getMonth() + 1) + '-' + p(d.getDate()) + ' ' +
      p(d.getHours()) + ':' + p(d.getMinutes()) + ':' + p(d.getSeconds());
  }
  function span(ms) {
    var s = Math.round(Math.abs(ms) / 1000);
    if (s < 60) return s + 's';
    if (s < 3600) return Math.floor(s / 60) + 'm ' + (s % 60) + 's';
    if (s < 86400) return Math.floor(s / 3600) + 'h ' + Math.floor((s % 3600) / 60) + 'm';
    return Math.floor(s / 86400) + 'd ' + Math.floor((s % 86400) / 3600) + 'h';
  }
  function relTime(ms) {
    if (typeof ms !== 'number') return '—';
    var d = ms - Date.now();
    return Math.abs(d) < 1000 ? 'now' : d > 0 ? 'in ' + span(d) : span(d) + ' ago';
  }
  /** A cell or span with the relative time, the absolute one in its title. */
  function timeEl(tag, ms) {
    var e = el(tag, relTime(ms));
    e.title = absTime(ms);
    return e;
  }
  function preview(payload, max) {
    var s;
    try { s = JSON.stringify(payload); } catch (e) { s = String(payload); }
    if (s === undefined) s = '';
    return s.length > max ? s.slice(0, max - 1) + '…' : s;
  }
  /** Text cut to one line with an ellipsis by CSS; the whole text in the title. */
  function ellipsis(tag, text) {
    var e = el(tag, text, 'ellipsis');
    e.title = text;
    return e;
  }

  // ---------- token ----------
  function token() { try { return sessionStorage.getItem(TOKEN_KEY) || ''; } catch (e) { return ''; } }
  function setToken(t) {
    try { if (t) sessionStorage.setItem(TOKEN_KEY, t); else sessionStorage.removeItem(TOKEN_KEY); } catch (e) { /* private mode */ }
  }
  var onToken = null;
  function askToken(reason) {
    var d = $('tokenDialog');
    if (d.open) return;
    $('tokenText').textContent = reason || 'A viewer token can look; an admin token can also act.';
    $('tokenInput').value = '';
    d.showModal();
    $('tokenInput').focus();
  }

  // ---------- API ----------
  function ApiError(status, code, message) { this.status = status; this.code = code; this.message = message; }
  ApiError.prototype.toString = function () {
    return (this.status ? this.status + ' ' : '') + (this.code ? this.code + ': ' : '') + this.message;
  };

  /** Same-origin JSON call with the token; rejects with ApiError. A 401 asks for a token. */
  function api(method, path, body) {
    var headers = { 'Accept': 'application/json' };
    var t = token();
    if (t) headers['Authorization'] = 'Bearer ' + t;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    var ctl = new AbortController();
    var timer = setTimeout(function () { ctl.abort(); }, TIMEOUT_MS);
    return fetch(path, {
      method: method, headers: headers, cache: 'no-store', credentials: 'same-origin', signal: ctl.signal,
      body: body === undefined ? undefined : JSON.stringify(body)
    }).then(function (res) {
      clearTimeout(timer);
      return res.text().then(function (text) {
        var json = null;
        if (text) { try { json = JSON.parse(text); } catch (e) { json = null; } }
        if (res.ok) return json;
        var err = json && json.error ? json.error : {};
        var e = new ApiError(res.status, err.code || '', err.message || res.statusText || 'request failed');
        if (res.status === 401) askToken(t ? 'The token was refused: ' + e.message : 'This server needs a token.');
        throw e;
      });
    }, function (netErr) {
      clearTimeout(timer);
      if (netErr && netErr.name === 'AbortError') throw new ApiError(0, 'timeout', 'no answer within ' + TIMEOUT_MS / 1000 + ' s');
      throw new ApiError(0, 'network', 'cannot reach the server');
    });
  }

  /** An error as a sentence for people; a 403 says the token may not do it. */
  function explain(e) {
    if (!(e instanceof ApiError)) return String(e);
    if (e.status === 403) return 'Not allowed with this token: ' + e.message;
    return e.message + (e.code ? ' (' + e.code + ')' : '');
  }

  // ---------- toasts ----------
  function toast(text, kind) {
    var t = el('div', text, 'toast ' + (kind || 'info'));
    t.setAttribute('role', kind === 'error' ? 'alert' : 'status');
    $('toasts').appendChild(t);
    setTimeout(function () { if (t.parentNode) t.parentNode.removeChild(t); }, kind === 'error' ? 9000 : 4000);
  }

  // ---------- confirmation ----------
  /**
   * Opens the confirmation dialog; resolves with true (or the input's value when opts.input is
   * given) on confirm, false on Cancel or Esc. Cancel has the focus, so Enter alone does nothing harmful.
   */
  function confirmAction(opts) {
    var d = $('confirmDialog');
    $('confirmTitle').textContent = opts.title;
    $('confirmText').textContent = opts.text;
    $('confirmOk').textContent = opts.ok;
    $('confirmOk').className = opts.danger ? 'danger' : 'primary';
    var input = $('confirmInput');
    $('confirmInputLabel').classList.toggle('hidden', !opts.input);
    if (opts.input) { $('confirmInputName').textContent = opts.input.label; input.value = opts.input.value; }
    d.returnValue = '';
    return new Promise(function (resolve) {
      function done() {
        d.removeEventListener('close', done);
        var ok = d.returnValue === 'ok';
        resolve(ok ? (opts.input ? input.value : true) : false);
      }
      d.addEventListener('close', done);
      d.showModal();
      (opts.input ? input : $('confirmCancel')).focus();
    });
  }

  function wireDialogs() {
    $('confirmCancel').addEventListener('click', function () { $('confirmDialog').close('cancel'); });
    $('tokenCancel').addEventListener('click', function () { $('tokenDialog').close(); });
    $('tokenForget').addEventListener('click', function () { setToken(''); $('tokenDialog').close(); if (onToken) onToken(); });
    $('tokenForm').addEventListener('submit', function () {
      setToken($('tokenInput').value.trim());
      if (onToken) setTimeout(onToken, 0);
    });
    $('tokenButton').addEventListener('click', function () { askToken(); });
  }

  return {
    $: $, el: el, clear: clear, seg: seg, num: num, rate: rate, absTime: absTime, relTime: relTime,
    span: span, timeEl: timeEl, preview: preview, ellipsis: ellipsis, api: api, explain: explain, toast: toast,
    confirmAction: confirmAction, wireDialogs: wireDialogs, ApiError: ApiError,
    onToken: function (f) { onToken = f; }
  };
})();
