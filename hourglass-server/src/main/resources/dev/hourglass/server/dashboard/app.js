/* The dashboard's router (#/, #/queue/NAME[/STATE|/schedules], #/queue/NAME/job/ID) and its 2 s refresh loop. */
'use strict';
(function () {
  var REFRESH_MS = 2000;
  var view = null, timer = null, busy = false, lastHealth = 0, lastError = '';
  var TABS = ['delayed', 'ready', 'inflight', 'dead', 'history', 'schedules'];

  function parse() {
    var parts = location.hash.replace(/^#\/?/, '').split('/').map(function (p) {
      try { return decodeURIComponent(p); } catch (e) { return p; }
    });
    if (parts[0] === 'queue' && parts[1]) {
      if (parts[2] === 'job' && parts[3]) return { view: 'job', queue: parts[1], id: parts[3] };
      return { view: 'queue', queue: parts[1], tab: TABS.indexOf(parts[2]) >= 0 ? parts[2] : 'delayed' };
    }
    return { view: 'overview' };
  }

  function crumbs(r) {
    var nav = HG.$('crumbs');
    HG.clear(nav);
    function add(text, href) {
      nav.appendChild(HG.el('span', '/', 'sep'));
      var a = HG.ellipsis(href ? 'a' : 'span', text);
      if (href) a.href = href; else a.setAttribute('aria-current', 'page');
      nav.appendChild(a);
    }
    if (r.view !== 'overview') add(r.queue, r.view === 'job' ? '#/queue/' + HG.seg(r.queue) : null);
    if (r.view === 'job') add(r.id, null);
  }

  function route() {
    var r = parse();
    view = r;
    ['overview', 'queue', 'job'].forEach(function (v) { HG.$(v).classList.toggle('hidden', v !== r.view); });
    crumbs(r);
    document.title = r.view === 'overview' ? 'Hourglass' : r.view === 'queue' ? r.queue + ' · Hourglass' : r.id + ' · ' + r.queue + ' · Hourglass';
    if (r.view === 'queue') { HG.queue.show(r.queue); HG.jobs.show(r.queue, r.tab); }
    if (r.view === 'job') HG.jobs.showJob(r.queue, r.id);
    tick(true);
  }

  function health() {
    var b = HG.$('health');
    return fetch('/health/ready', { cache: 'no-store' }).then(function (res) {
      b.textContent = res.ok ? 'Redis ready' : 'Redis unavailable';
      b.className = 'badge ' + (res.ok ? 'ok' : 'bad');
    }, function () { b.textContent = 'Server unreachable'; b.className = 'badge bad'; });
  }

  function tick(force) {
    if (busy && !force) return;
    busy = true;
    var work = [];
    if (Date.now() - lastHealth > 10000) { lastHealth = Date.now(); work.push(health()); }
    if (view.view === 'overview') work.push(HG.overview.refresh());
    if (view.view === 'queue') work.push(HG.queue.refresh());
    if (view.view === 'queue' && view.tab === 'schedules') work.push(HG.schedules.refresh());
    Promise.all(work).then(function () {
      HG.$('live').className = 'live';
      HG.$('live').title = 'Updated ' + new Date().toLocaleTimeString();
      lastError = '';
    }, function (e) {
      HG.$('live').className = 'live stale';
      HG.$('live').title = HG.explain(e);
      // One toast per new error, not one every 2 s.
      if (!(e instanceof HG.ApiError && e.status === 401) && HG.explain(e) !== lastError) HG.toast(HG.explain(e), 'error');
      lastError = HG.explain(e);
    }).then(function () { busy = false; });
  }

  function start() { if (!timer) timer = setInterval(tick, REFRESH_MS); }
  function stop() { if (timer) { clearInterval(timer); timer = null; } }

  HG.wireDialogs();
  HG.onToken(route);
  HG.overview.init();
  HG.queue.init();
  HG.jobs.init();
  window.addEventListener('hashchange', route);
  window.addEventListener('resize', function () { if (view && view.view === 'queue') HG.queue.redraw(); });
  document.addEventListener('visibilitychange', function () { if (document.hidden) stop(); else { tick(true); start(); } });
  route();
  start();
})();
