/* The overview: every queue with its counts and live rates, and totals. */
'use strict';
HG.overview = (function () {
  var COUNTS = ['delayed', 'ready', 'inflight', 'dead'];
  var RATES = ['enqueued', 'delivered', 'acked', 'retried', 'dead'];
  var LABELS = { delayed: 'Delayed', ready: 'Ready', inflight: 'Inflight', dead: 'Dead',
    enqueued: 'Enq/s', delivered: 'Deliv/s', acked: 'Ack/s', retried: 'Retry/s' };
  var rows = {};

  function card(parent, key, label, value, cls) {
    var c = parent.querySelector('[data-card="' + key + '"]');
    if (!c) {
      c = HG.el('div', null, 'card ' + (cls || ''));
      c.setAttribute('data-card', key);
      c.appendChild(HG.el('div', label, 'card-label'));
      c.appendChild(HG.el('div', '', 'card-value'));
      parent.appendChild(c);
    }
    c.querySelector('.card-value').textContent = value;
  }

  function newRow(name) {
    var tr = HG.el('tr');
    tr.setAttribute('data-queue', name);
    var th = HG.el('th');
    th.setAttribute('scope', 'row');
    var a = HG.ellipsis('a', name);
    a.href = '#/queue/' + HG.seg(name);
    a.className = 'qlink ellipsis';
    th.appendChild(a);
    th.appendChild(HG.el('span', 'paused', 'badge warn small hidden'));
    tr.appendChild(th);
    COUNTS.forEach(function (k) { tr.appendChild(cell(k, LABELS[k], k)); });
    RATES.forEach(function (k) { tr.appendChild(cell('rate-' + k, k === 'dead' ? 'Dead/s' : LABELS[k], 'rate')); });
    return tr;
  }
  function cell(col, label, cls) {
    var td = HG.el('td', '', 'num ' + cls);
    td.setAttribute('data-col', col);
    td.setAttribute('data-label', label);
    return td;
  }

  function render(queues, rates) {
    var body = HG.$('queuesBody');
    var filter = HG.$('queueFilter').value.trim().toLowerCase();
    var byName = {};
    rates.forEach(function (r) { byName[r.name] = r; });
    queues.sort(function (a, b) { return a.name < b.name ? -1 : a.name > b.name ? 1 : 0; });
    var seen = {};
    var totals = { delayed: 0, ready: 0, inflight: 0, dead: 0, enqueued: 0, delivered: 0 };
    queues.forEach(function (q) {
      var r = byName[q.name] || {};
      COUNTS.forEach(function (k) { totals[k] += q[k] || 0; });
      totals.enqueued += r.enqueued || 0;
      totals.delivered += r.delivered || 0;
      if (filter && q.name.toLowerCase().indexOf(filter) < 0) return;
      seen[q.name] = true;
      var tr = rows[q.name] || (rows[q.name] = newRow(q.name));
      body.appendChild(tr); // keeps the sorted order; moving a row keeps focus inside it
      COUNTS.forEach(function (k) { tr.querySelector('[data-col="' + k + '"]').textContent = HG.num(q[k]); });
      RATES.forEach(function (k) { tr.querySelector('[data-col="rate-' + k + '"]').textContent = HG.rate(r[k]); });
      tr.querySelector('.badge').classList.toggle('hidden', q.paused !== true);
      tr.classList.toggle('has-dead', q.dead > 0);
    });
    Object.keys(rows).forEach(function (n) {
      if (!seen[n]) { if (rows[n].parentNode) rows[n].parentNode.removeChild(rows[n]); delete rows[n]; }
    });
    HG.$('queuesEmpty').classList.toggle('hidden', queues.length > 0);
    var cards = HG.$('totals');
    card(cards, 'queues', 'Queues', HG.num(queues.length));
    card(cards, 'delayed', 'Delayed', HG.num(totals.delayed));
    card(cards, 'ready', 'Ready', HG.num(totals.ready));
    card(cards, 'inflight', 'Inflight', HG.num(totals.inflight));
    card(cards, 'dead', 'Dead', HG.num(totals.dead), totals.dead > 0 ? 'bad' : '');
    card(cards, 'enqueued', 'Enqueued/s', HG.rate(totals.enqueued));
    card(cards, 'delivered', 'Delivered/s', HG.rate(totals.delivered));
  }

  function refresh() {
    return Promise.all([HG.api('GET', '/v1/queues'), HG.api('GET', '/v1/rates')]).then(function (r) {
      render((r[0] && r[0].queues) || [], (r[1] && r[1].queues) || []);
    });
  }

  function init() { HG.$('queueFilter').addEventListener('input', function () { refresh().catch(function () {}); }); }

  return { refresh: refresh, init: init };
})();
