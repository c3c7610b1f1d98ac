/* A queue's jobs by state (paged), its history, one job's page, and the job actions. Its schedules are in schedules.js. */
'use strict';
HG.jobs = (function () {
  var TABS = [['delayed', 'Delayed'], ['ready', 'Ready'], ['inflight', 'Inflight'], ['dead', 'Dead'], ['history', 'History'],
    ['schedules', 'Schedules']];
  var PAGE = 25;
  var queue = null, tab = null, cursors = [null], next = null;
  function qpath(q) { return '/v1/queues/' + HG.seg(q); }
  function jpath(q, id) { return qpath(q) + '/jobs/' + HG.seg(id); }

  // ---------- actions (shared by the tables and the job page) ----------
  function attempt(promise, message, after) {
    return promise.then(function () { HG.toast(message, 'info'); after(); },
      function (e) { HG.toast(HG.explain(e), 'error'); });
  }
  function runNow(q, id, after) {
    return HG.confirmAction({ title: 'Run job ' + id + ' now?', text: 'It becomes ready at once and the next claim gets it.', ok: 'Run now' })
      .then(function (ok) { if (ok) return attempt(HG.api('PUT', jpath(q, id) + '/schedule', { delayMs: 0 }), 'Job ' + id + ' is due now.', after); });
  }
  function localInput(ms) {
    var d = new Date(ms - new Date(ms).getTimezoneOffset() * 60000);
    return d.toISOString().slice(0, 19);
  }
  function reschedule(q, job, after) {
    return HG.confirmAction({ title: 'Reschedule job ' + job.id, text: 'Pick the new due time (your local time).', ok: 'Reschedule',
      input: { label: 'Due at', value: localInput(Math.max(job.runAt || 0, Date.now())) } })
      .then(function (value) {
        if (!value) return;
        var ms = new Date(value).getTime();
        if (isNaN(ms)) { HG.toast('Not a date and time: ' + value, 'error'); return; }
        return attempt(HG.api('PUT', jpath(q, job.id) + '/schedule', { runAt: ms }), 'Job ' + job.id + ' now due ' + HG.absTime(ms) + '.', after);
      });
  }
  function cancel(q, id, after) {
    return HG.confirmAction({ title: 'Cancel job ' + id + '?', text: 'The job is deleted and never runs.', ok: 'Cancel job', danger: true })
      .then(function (ok) { if (ok) return attempt(HG.api('DELETE', jpath(q, id)), 'Job ' + id + ' cancelled.', after); });
  }
  function requeue(q, id, after) {
    return HG.confirmAction({ title: 'Requeue dead job ' + id + '?', text: 'It becomes ready now with its attempts reset.', ok: 'Requeue' })
      .then(function (ok) { if (ok) return attempt(HG.api('POST', qpath(q) + '/dead/' + HG.seg(id) + '/requeue'), 'Job ' + id + ' requeued.', after); });
  }
  function actionButtons(q, job, after) {
    var box = HG.el('div', null, 'row-actions');
    function b(text, f, cls) {
      var btn = HG.el('button', text, cls || 'small');
      btn.type = 'button';
      btn.setAttribute('data-action', text.toLowerCase().replace(/ /g, '-'));
      btn.addEventListener('click', f);
      box.appendChild(btn);
    }
    if (job.state === 'delayed' || job.state === 'ready') {
      b('Run now', function () { runNow(q, job.id, after); });
      b('Reschedule', function () { reschedule(q, job, after); });
    } else if (job.state === 'dead') {
      b('Requeue', function () { requeue(q, job.id, after); });
    }
    if (job.state !== 'inflight') b('Cancel', function () { cancel(q, job.id, after); }, 'small danger');
    return box;
  }

  // ---------- tabs and tables ----------
  function tabs() {
    var nav = HG.$('tabs');
    HG.clear(nav);
    TABS.forEach(function (t) {
      var a = HG.el('a', t[1], 'tab' + (t[0] === tab ? ' active' : ''));
      a.href = '#/queue/' + HG.seg(queue) + '/' + t[0];
      a.setAttribute('data-tab', t[0]);
      if (t[0] === tab) a.setAttribute('aria-current', 'page');
      nav.appendChild(a);
    });
  }
  function show(q, t) {
    if (q !== queue || t !== tab) { cursors = [null]; next = null; }
    queue = q; tab = t;
    tabs();
    if (t === 'schedules') return HG.schedules.show(q);
    HG.schedules.hide();
    return load();
  }
  function reload() { return !queue ? Promise.resolve() : tab === 'schedules' ? HG.schedules.refresh() : load(); }

  function load() {
    var q = queue, t = tab, cursor = cursors[cursors.length - 1];
    var c = cursor ? '&cursor=' + HG.seg(cursor) : '';
    var url = t === 'dead' ? qpath(q) + '/dead?limit=' + PAGE + c
      : t === 'history' ? qpath(q) + '/history?limit=' + PAGE + c
        : qpath(q) + '/jobs?state=' + t + '&limit=' + PAGE + c;
    return HG.api('GET', url).then(function (page) {
      if (q === queue && t === tab) table(page);
    }, function (e) {
      if (q !== queue || t !== tab) return;
      var body = HG.$('tabBody');
      HG.clear(body);
      var archive = t === 'history' && e.status === 404 && (e.code === 'archive_not_configured' || e.code === 'not_found');
      body.appendChild(HG.el('p', archive ? 'No archive configured: finished jobs are not kept on this server.' : 'Could not load: ' + HG.explain(e), archive ? 'empty' : 'empty error'));
    });
  }

  function table(page) {
    var jobs = (page && page.jobs) || [];
    next = page && page.next;
    var body = HG.$('tabBody');
    HG.clear(body);
    if (!jobs.length) { body.appendChild(HG.el('p', 'No ' + (tab === 'history' ? 'finished' : tab) + ' jobs.', 'empty')); }
    else {
      var t = HG.el('table', null, 'grid stack jobs');
      var head = HG.el('tr');
      var cols = tab === 'history' ? ['ID', 'Outcome', 'Finished', 'Attempts', 'Payload', 'Last error']
        : ['ID', tab === 'inflight' ? 'Lease until' : tab === 'dead' ? 'Was due' : 'Due', 'Priority', 'Attempts', 'Payload', 'Last error', ''];
      cols.forEach(function (c) { var th = HG.el('th', c); th.setAttribute('scope', 'col'); if (c === 'Attempts' || c === 'Priority') th.className = 'num'; head.appendChild(th); });
      var thead = HG.el('thead'); thead.appendChild(head); t.appendChild(thead);
      var tb = HG.el('tbody');
      jobs.forEach(function (j) { tb.appendChild(row(j, cols)); });
      t.appendChild(tb);
      body.appendChild(t);
    }
    var pager = HG.el('div', null, 'pager');
    var first = HG.el('button', 'First page', 'small'); first.type = 'button'; first.disabled = cursors.length === 1;
    first.addEventListener('click', function () { cursors = [null]; load(); });
    var more = HG.el('button', 'Next page', 'small'); more.type = 'button'; more.disabled = !next;
    more.addEventListener('click', function () { if (next) { cursors.push(next); load(); } });
    var again = HG.el('button', 'Refresh', 'small'); again.type = 'button';
    again.addEventListener('click', load);
    pager.appendChild(HG.el('span', 'Page ' + cursors.length, 'muted'));
    [first, more, again].forEach(function (b) { pager.appendChild(b); });
    body.appendChild(pager);
  }

  function row(j, cols) {
    var tr = HG.el('tr');
    tr.setAttribute('data-job', j.id);
    function td(label, node, cls) {
      var c = HG.el('td', null, cls);
      c.setAttribute('data-label', label);
      if (node) c.appendChild(node);
      tr.appendChild(c);
      return c;
    }
    var a = HG.ellipsis('a', j.id);
    a.href = '#/queue/' + HG.seg(queue) + '/job/' + HG.seg(j.id);
    td(cols[0], a, 'idcell');
    if (tab === 'history') {
      td('Outcome', HG.el('span', j.outcome, 'badge'));
      td('Finished', HG.timeEl('span', j.finishedAt));
    } else {
      td(cols[1], HG.timeEl('span', tab === 'inflight' && typeof j.leaseUntil === 'number' ? j.leaseUntil : j.runAt));
      td('Priority', priority(j), 'num prio');
    }
    td('Attempts', HG.el('span', HG.num(j.attempts) + (j.maxAttempts ? ' / ' + HG.num(j.maxAttempts) : '')), 'num');
    td('Payload', HG.ellipsis('code', HG.preview(j.payload, 120)), 'payloadcell');
    td('Last error', j.lastError ? HG.ellipsis('span', j.lastError) : null, 'errcell');
    if (tab !== 'history') td('', actionButtons(queue, j, reload), 'actcell');
    return tr;
  }

  // A job's priority: a badge when above 0 (claimed ahead of the rest once due), else a plain 0.
  function priority(j) {
    if (typeof j.priority !== 'number') return HG.el('span', '—', 'muted');
    if (j.priority === 0) return HG.el('span', '0', 'muted');
    var b = HG.el('span', String(j.priority), 'badge small prio');
    b.title = 'Priority ' + j.priority + ' of 9: claimed before lower priorities once due';
    return b;
  }

  // ---------- one job ----------
  function showJob(q, id) {
    queue = q;
    HG.$('jobTitle').textContent = id;
    HG.$('jobTitle').title = id;
    return HG.api('GET', jpath(q, id)).then(function (j) { job(q, j); }, function (e) {
      HG.$('jobState').textContent = e.code === 'job_not_found' ? 'not found' : 'error';
      HG.clear(HG.$('jobFields')); HG.clear(HG.$('jobActions'));
      HG.$('jobPayload').textContent = e.code === 'job_not_found'
        ? 'No live job ' + id + ' in ' + q + ': it may have been acked, cancelled or expired.' : HG.explain(e);
    });
  }
  function job(q, j) {
    HG.$('jobState').textContent = j.state;
    HG.$('jobState').className = 'badge state-' + j.state;
    var dl = HG.$('jobFields');
    HG.clear(dl);
    var f = [['Queue', j.queue], ['State', j.state], ['Due', HG.absTime(j.runAt) + ' (' + HG.relTime(j.runAt) + ')'],
      ['Priority', typeof j.priority === 'number' ? String(j.priority) : '—'],
      ['Attempts', HG.num(j.attempts) + ' of ' + HG.num(j.maxAttempts)], ['Created', HG.absTime(j.createdAt)]];
    if (typeof j.leaseUntil === 'number') f.push(['Lease until', HG.absTime(j.leaseUntil)]);
    f.push(['Last error', j.lastError || '—']);
    f.forEach(function (p) { dl.appendChild(HG.el('dt', p[0])); dl.appendChild(HG.el('dd', p[1])); });
    var pretty;
    try { pretty = JSON.stringify(j.payload, null, 2); } catch (e) { pretty = String(j.payload); }
    HG.$('jobPayload').textContent = pretty;
    var acts = HG.$('jobActions');
    HG.clear(acts);
    acts.appendChild(actionButtons(q, j, function () { showJob(q, j.id); }));
  }

  function init() {
    HG.$('findForm').addEventListener('submit', function (ev) {
      ev.preventDefault();
      var id = HG.$('findId').value.trim();
      if (id && queue) location.hash = '#/queue/' + HG.seg(queue) + '/job/' + HG.seg(id);
    });
  }

  return { show: show, reload: reload, showJob: showJob, init: init };
})();
