/* A queue's Schedules tab: its schedules with their timing in words, zone, next runs and state;
   pause, resume and delete. Shown in the jobs panel (jobs.js) and refreshed by the 2 s loop (app.js). */
'use strict';
HG.schedules = (function () {
  var DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  var DAY_NAMES = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
  var UNITS = [[86400000, 'day'], [3600000, 'hour'], [60000, 'minute'], [1000, 'second']];
  var COLS = [['id', 'Schedule'], ['timing', 'Timing'], ['zone', 'Time zone'], ['runs', 'Next runs'], ['state', 'State'], ['act', '']];
  var queue = null, active = false, rows = {}, tbody = null, msg = null;

  // ---------- timing in words: common cron forms only, else the expression itself ----------
  function two(n) { return (n < 10 ? '0' : '') + n; }
  function int(s, max) { return /^\d{1,2}$/.test(s) && +s <= max ? +s : null; }
  /** N of "*\/N" when it divides the cycle evenly (so the gap is always N), else null. */
  function step(s, cycle) {
    var m = /^\*\/(\d{1,2})$/.exec(s);
    return m && +m[1] > 0 && cycle % +m[1] === 0 ? +m[1] : null;
  }
  function day(s) {
    var n = /^[0-7]$/.test(s) ? +s : DAY_NAMES[s.toLowerCase()];
    return n === undefined ? null : n;
  }
  function list(names) { return names.length < 2 ? names[0] : names.slice(0, -1).join(', ') + ' and ' + names[names.length - 1]; }
  /** "every Monday", "on Monday to Friday", "on Monday, Wednesday and Friday", or null. */
  function days(s) {
    var r = /^(\w+)-(\w+)$/.exec(s);
    if (r) {
      var a = day(r[1]), b = day(r[2]);
      return a !== null && b !== null && a < b ? 'on ' + DAYS[a % 7] + ' to ' + DAYS[b % 7] : null;
    }
    var ds = s.split(',').map(day);
    if (ds.indexOf(null) >= 0) return null;
    return (ds.length === 1 ? 'every ' : 'on ') + list(ds.map(function (d) { return DAYS[d % 7]; }));
  }
  function plural(n, unit) { return n === 1 ? '1 ' + unit : n.toLocaleString('en-US') + ' ' + unit + 's'; }
  /** Words for a 5-field Unix cron expression of a common form, or null. */
  function cronWords(expr) {
    var f = expr.trim().split(/\s+/);
    if (f.length !== 5 || f[3] !== '*' || (f[2] !== '*' && f[4] !== '*')) return null;
    var m = f[0], h = f[1], anyDay = f[2] === '*' && f[4] === '*';
    if (anyDay && h === '*' && m === '*') return 'every minute';
    if (anyDay && h === '*' && step(m, 60)) return 'every ' + plural(step(m, 60), 'minute');
    var min = int(m, 59);
    if (min === null) return null;
    if (anyDay && h === '*') return 'every hour at :' + two(min);
    if (anyDay && step(h, 24)) return 'every ' + plural(step(h, 24), 'hour') + ' at :' + two(min);
    var hour = int(h, 23);
    if (hour === null) return null;
    var at = 'at ' + two(hour) + ':' + two(min);
    if (anyDay) return at + ' every day';
    if (f[2] === '*') { var d = days(f[4]); return d && at + ' ' + d; }
    var dom = int(f[2], 31);
    return dom ? at + ' on day ' + dom + ' of every month' : null;
  }
  function everyWords(ms) {
    for (var i = 0; i < UNITS.length; i++) {
      if (ms % UNITS[i][0] === 0) return 'every ' + plural(ms / UNITS[i][0], UNITS[i][1]);
    }
    return 'every ' + ms.toLocaleString('en-US') + ' ms';
  }
  /** A schedule's timing in words; a cron form not translated is given as it is. */
  function words(s) {
    if (typeof s.every === 'number') return everyWords(s.every);
    return cronWords(s.cron) || 'cron ' + s.cron;
  }

  // ---------- the table ----------
  function spath(q, id) { return '/v1/queues/' + HG.seg(q) + '/schedules' + (id === undefined ? '' : '/' + HG.seg(id)); }

  function show(q) {
    queue = q; active = true; rows = {};
    var body = HG.$('tabBody');
    HG.clear(body);
    var t = HG.el('table', null, 'grid stack schedules');
    var head = HG.el('tr');
    COLS.forEach(function (c) { var th = HG.el('th', c[1]); th.setAttribute('scope', 'col'); head.appendChild(th); });
    var thead = HG.el('thead'); thead.appendChild(head); t.appendChild(thead);
    tbody = HG.el('tbody'); t.appendChild(tbody);
    msg = HG.el('p', 'Loading…', 'empty');
    body.appendChild(t);
    body.appendChild(msg);
    body.appendChild(HG.el('p', 'Timing follows each schedule\'s time zone; next runs are in your local time.', 'foot'));
    return Promise.resolve();
  }
  function hide() { active = false; }

  function refresh() {
    if (!active) return Promise.resolve();
    var q = queue;
    return HG.api('GET', spath(q)).then(function (r) {
      if (active && q === queue) render((r && r.schedules) || []);
    }, function (e) {
      if (!active || q !== queue) return;
      msg.textContent = 'Could not load: ' + HG.explain(e);
      msg.className = 'empty error';
    });
  }

  function render(list) {
    list.sort(function (a, b) { return a.id < b.id ? -1 : a.id > b.id ? 1 : 0; });
    var seen = {};
    list.forEach(function (s) {
      seen[s.id] = true;
      var tr = rows[s.id] || (rows[s.id] = newRow(s.id));
      tr.schedule = s;
      tbody.appendChild(tr); // keeps the sorted order; moving a row keeps focus inside it
      fill(tr, s);
    });
    Object.keys(rows).forEach(function (id) {
      if (!seen[id]) { if (rows[id].parentNode) rows[id].parentNode.removeChild(rows[id]); delete rows[id]; }
    });
    msg.textContent = list.length ? '' : 'No schedules. Put one with PUT /v1/queues/{queue}/schedules/{id} or hourglass schedules put.';
    msg.className = 'empty' + (list.length ? ' hidden' : '');
  }

  function newRow(id) {
    var tr = HG.el('tr');
    tr.setAttribute('data-schedule', id);
    COLS.forEach(function (c) {
      var td = HG.el('td', null, c[0] + 'cell');
      td.setAttribute('data-col', c[0]);
      td.setAttribute('data-label', c[1]);
      tr.appendChild(td);
    });
    cell(tr, 'id').appendChild(HG.ellipsis('code', id));
    var box = HG.el('div', null, 'row-actions');
    function b(text, action, f, cls) {
      var btn = HG.el('button', text, cls);
      btn.type = 'button';
      btn.setAttribute('data-action', action);
      btn.addEventListener('click', function () { f(tr.schedule); });
      box.appendChild(btn);
      return btn;
    }
    b('Pause', 'pause', function (s) { act(s, s.paused ? 'resume' : 'pause'); }, 'small');
    b('Delete', 'delete', function (s) { act(s, 'delete'); }, 'small danger');
    cell(tr, 'act').appendChild(box);
    return tr;
  }
  function cell(tr, col) { return tr.querySelector('td[data-col="' + col + '"]'); }

  function fill(tr, s) {
    var timing = HG.el('div');
    HG.clear(cell(tr, 'timing'));
    cell(tr, 'timing').appendChild(timing);
    timing.appendChild(HG.el('div', words(s), 'words'));
    if (s.cron && cronWords(s.cron)) timing.appendChild(HG.el('code', s.cron, 'raw muted'));
    if (typeof s.startAt === 'number' && s.startAt > Date.now()) timing.appendChild(HG.el('div', 'from ' + HG.absTime(s.startAt), 'muted note'));
    if (typeof s.endAt === 'number') timing.appendChild(HG.el('div', 'until ' + HG.absTime(s.endAt), 'muted note'));
    cell(tr, 'zone').textContent = s.timeZone;
    var runs = cell(tr, 'runs');
    HG.clear(runs);
    var times = s.nextRuns || [];
    if (!times.length) runs.appendChild(HG.el('span', s.paused ? '— (paused)' : 'none (ended)', 'muted'));
    else {
      var ul = HG.el('ul', null, 'runs' + (s.paused ? ' muted' : ''));
      if (s.paused) ul.title = 'Paused: these run only if it is resumed before them';
      times.forEach(function (ms) {
        var li = HG.el('li');
        li.appendChild(HG.el('span', HG.absTime(ms), 'abs'));
        li.appendChild(HG.el('span', HG.relTime(ms), 'rel muted'));
        ul.appendChild(li);
      });
      runs.appendChild(ul);
    }
    var state = cell(tr, 'state');
    HG.clear(state);
    state.appendChild(HG.el('span', s.paused ? 'paused' : 'active', 'badge ' + (s.paused ? 'warn' : 'ok')));
    var toggle = tr.querySelector('button[data-action="pause"], button[data-action="resume"]');
    toggle.textContent = s.paused ? 'Resume' : 'Pause';
    toggle.setAttribute('data-action', s.paused ? 'resume' : 'pause');
  }

  // ---------- actions, each behind the confirmation dialog ----------
  var ACTIONS = {
    pause: { method: 'POST', suffix: '/pause', ok: 'Pause', done: ' paused.',
      text: 'Its pending occurrence is removed and no occurrence is enqueued until it is resumed.' },
    resume: { method: 'POST', suffix: '/resume', ok: 'Resume', done: ' resumed.',
      text: 'Its next occurrence after now is enqueued.' },
    'delete': { method: 'DELETE', suffix: '', ok: 'Delete', done: ' deleted.', danger: true,
      text: 'The schedule and its pending occurrence are deleted; an occurrence being delivered finishes normally. This cannot be undone.' }
  };
  function act(s, verb) {
    var a = ACTIONS[verb], q = queue;
    return HG.confirmAction({ title: a.ok + ' schedule ' + s.id + '?', text: a.text, ok: a.ok, danger: a.danger })
      .then(function (ok) {
        if (!ok) return;
        return HG.api(a.method, spath(q, s.id) + a.suffix).then(function () {
          HG.toast('Schedule ' + s.id + a.done, 'info');
          return refresh();
        }, function (e) { HG.toast(HG.explain(e), 'error'); });
      });
  }

  return { show: show, hide: hide, refresh: refresh, words: words };
})();
