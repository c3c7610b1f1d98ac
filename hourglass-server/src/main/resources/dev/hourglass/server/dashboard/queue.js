/* A queue's page: counts, charts, and queue-wide actions. Jobs are in jobs.js. */
'use strict';
HG.queue = (function () {
  var current = null, paused = false, lastSeries = 0, seriesData = null, dueData = null, dueError = null;
  var THROUGHPUT = [['enqueued', 'Enqueued'], ['delivered', 'Delivered'], ['acked', 'Acked'],
    ['retried', 'Retried'], ['dead', 'Dead']];
  function path(suffix) { return '/v1/queues/' + HG.seg(current) + (suffix || ''); }

  function show(name) {
    if (current !== name) { seriesData = null; dueData = null; dueError = null; lastSeries = 0; HG.clear(HG.$('queueCounts')); }
    current = name;
    HG.$('queueTitle').textContent = name;
    HG.$('queueTitle').title = name;
  }

  function counts(q) {
    var box = HG.$('queueCounts');
    [['delayed', 'Delayed'], ['ready', 'Ready'], ['inflight', 'Inflight'], ['dead', 'Dead']].forEach(function (k) {
      var c = box.querySelector('[data-card="' + k[0] + '"]');
      if (!c) {
        c = HG.el('a', null, 'card link');
        c.setAttribute('data-card', k[0]);
        c.href = '#/queue/' + HG.seg(current) + '/' + k[0];
        c.appendChild(HG.el('div', k[1], 'card-label'));
        c.appendChild(HG.el('div', '', 'card-value'));
        box.appendChild(c);
      }
      c.querySelector('.card-value').textContent = HG.num(q[k[0]]);
      c.classList.toggle('bad', k[0] === 'dead' && q.dead > 0);
    });
    limits(q);
    paused = q.paused === true;
    HG.$('queuePaused').classList.toggle('hidden', !paused);
    HG.$('pauseButton').textContent = paused ? 'Resume' : 'Pause';
  }

  /** The queue's flow-control limits in words, and the ready jobs they hold back now. */
  function limits(q) {
    var l = q.limits, parts = [];
    if (l && l.rate) {
      var p = l.rate.periodMs;
      parts.push('at most ' + HG.num(l.rate.max) + ' deliveries per ' + (p % 1000 === 0 ? HG.span(p) : p + ' ms'));
    }
    if (l && typeof l.concurrency === 'number') parts.push('at most ' + HG.num(l.concurrency) + ' inflight');
    HG.$('queueLimitsText').textContent = parts.length ? 'Limits: ' + parts.join(', ') + '.' : 'No flow-control limits.';
    var held = typeof q.heldBack === 'number' ? q.heldBack : 0;
    HG.$('queueHeldBack').textContent = parts.length ? 'Held back now: ' + HG.num(held) + ' ready job' + (held === 1 ? '' : 's') + '.' : '';
    HG.$('queueLimits').classList.toggle('held', held > 0);
  }

  function charts() {
    var pts = (seriesData && seriesData.points) || [];
    // The last hour, or less while the server has less: at least 5 minutes, so a young series is not a sliver.
    var now = Date.now(), first = pts.length ? pts[0].t - 10000 : now;
    var from = Math.max(now - 3600 * 1000, Math.min(now - 5 * 60 * 1000, first));
    HG.charts.line(HG.$('chartThroughput'), THROUGHPUT.map(function (k) {
      return { name: k[1], cls: 's-' + k[0], points: pts.map(function (p) { return [p.t, p[k[0]]]; }) };
    }), from, now, 'Throughput per second, up to the last hour', 'Collecting: one point every 10 s');
    HG.charts.line(HG.$('chartLateness'), [
      { name: 'p50', cls: 's-p50', points: pts.map(function (p) { return [p.t, p.latenessP50Ms]; }) },
      { name: 'p99', cls: 's-p99', points: pts.map(function (p) { return [p.t, p.latenessP99Ms]; }) }
    ], from, now, 'Delivery lateness p50 and p99 over the last hour', 'No deliveries by this server yet');
    var dueBox = HG.$('chartDue');
    if (dueError) {
      HG.clear(dueBox);
      dueBox.appendChild(HG.el('p', 'Not available: ' + dueError, 'empty'));
    } else if (dueData) {
      HG.charts.bars(dueBox, [
        { label: '< 1 min', value: dueData.minute || 0, cls: 'b-minute' },
        { label: '< 1 hour', value: dueData.hour || 0, cls: 'b-hour' },
        { label: '< 1 day', value: dueData.day || 0, cls: 'b-day' },
        { label: 'later', value: dueData.later || 0, cls: 'b-later' }
      ], 'Delayed jobs by when they fall due');
    }
  }

  function refresh() {
    if (!current) return Promise.resolve();
    var name = current;
    var work = [HG.api('GET', path()).then(function (q) { if (name === current) counts(q); })];
    if (Date.now() - lastSeries > 5000) {
      lastSeries = Date.now();
      work.push(HG.api('GET', path('/series?minutes=60')).then(function (s) { if (name === current) seriesData = s; }));
      work.push(HG.api('GET', path('/due')).then(function (d) { if (name === current) { dueData = d; dueError = null; } },
        function (e) { if (name === current) dueError = HG.explain(e); }));
    }
    return Promise.all(work).then(function () { if (name === current) charts(); });
  }

  function act(opts, method, suffix, done) {
    return HG.confirmAction(opts).then(function (ok) {
      if (!ok) return;
      return HG.api(method, path(suffix)).then(function (r) {
        HG.toast(done(r), 'info');
        refresh();
        HG.jobs.reload();
      }, function (e) { HG.toast(HG.explain(e), 'error'); });
    });
  }

  function count(r) { return r && typeof r.count === 'number' ? r.count.toLocaleString('en-US') : '?'; }

  function init() {
    HG.$('pauseButton').addEventListener('click', function () {
      var verb = paused ? 'resume' : 'pause';
      act({ title: (paused ? 'Resume' : 'Pause') + ' queue ' + current + '?',
        text: paused ? 'Consumers and push delivery get its jobs again.'
          : 'Enqueues still work and jobs keep their times, but claims return nothing and push delivery stops until it is resumed.',
        ok: paused ? 'Resume' : 'Pause' }, 'POST', '/' + verb,
      function () { return 'Queue ' + current + (verb === 'pause' ? ' paused.' : ' resumed.'); });
    });
    HG.$('requeueAllButton').addEventListener('click', function () {
      act({ title: 'Requeue every dead job of ' + current + '?', text: 'They become ready now, with their attempts reset.', ok: 'Requeue all' },
        'POST', '/dead/requeue', function (r) { return 'Requeued ' + count(r) + ' job(s).'; });
    });
    HG.$('purgeButton').addEventListener('click', function () {
      act({ title: 'Purge the dead jobs of ' + current + '?', text: 'Every dead job is deleted for good.', ok: 'Purge', danger: true },
        'DELETE', '/dead', function (r) { return 'Purged ' + count(r) + ' job(s).'; });
    });
    HG.$('deleteQueueButton').addEventListener('click', deleteQueue);
  }

  function deleteQueue() {
    var name = current;
    HG.confirmAction({ title: 'Delete queue ' + name + '?', text: 'The queue and its settings are removed. A queue with live jobs is not deleted unless you confirm again.', ok: 'Delete', danger: true })
      .then(function (ok) {
        if (!ok) return;
        return HG.api('DELETE', '/v1/queues/' + HG.seg(name)).then(gone, function (e) {
          if (e.code !== 'queue_not_empty') { HG.toast(HG.explain(e), 'error'); return; }
          return HG.confirmAction({ title: 'Queue ' + name + ' still has jobs', text: 'Delete it with all its jobs (delayed, ready, inflight and dead)? This cannot be undone.', ok: 'Delete with all jobs', danger: true })
            .then(function (ok2) {
              if (ok2) return HG.api('DELETE', '/v1/queues/' + HG.seg(name) + '?force=true').then(gone, function (e2) { HG.toast(HG.explain(e2), 'error'); });
            });
        });
      });
    function gone() { HG.toast('Queue ' + name + ' deleted.', 'info'); location.hash = '#/'; }
  }

  return { show: show, refresh: refresh, init: init, redraw: charts, name: function () { return current; } };
})();
