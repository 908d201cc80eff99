/// The script of every page (`PageDocument`): it reads the page's data and draws it — the waterfall
/// (rows drawn as they scroll into view past 2,000), milestones, the critical path, the tile grids,
/// a suite, golden and new traces side by side, `mapsim serve`'s live requests and map preview.
/// Plain JavaScript that every current browser runs, with nothing fetched.
enum PageScript {
    static let source = #"""
(() => {
'use strict';

// The page's data, written by mapsim: see PageDocument.swift for its shape.
const data = JSON.parse(document.getElementById('mapsim-data').textContent);
const ROW_HEIGHT = 22;
const ALL_ROWS_LIMIT = 2000;
const OUTCOMES = ['ok', 'not-modified', 'no-content', 'error', 'cancelled'];
const OUTCOME_NAMES = {'ok': 'OK', 'not-modified': 'not modified', 'no-content': 'no content', 'error': 'error', 'cancelled': 'cancelled'};
// The fields of a request row.
const BEGIN = 0, END = 1, KIND = 2, PATH = 3, OUTCOME = 4, STATUS = 5, ANSWERED = 6, SIZE = 7, CRITICAL = 8, EVENT = 9;

function h(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'style') Object.assign(node.style, value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function formatTime(us) {
  if (us === null || us === undefined) return '—';
  if (Math.abs(us) < 1000000) return (us / 1000).toFixed(1) + ' ms';
  return (us / 1000000).toFixed(us < 10000000 ? 2 : 1) + ' s';
}

function formatBytes(bytes) {
  if (bytes < 1000) return bytes + ' B';
  if (bytes < 1000000) return (bytes / 1000).toFixed(1) + ' KB';
  return (bytes / 1000000).toFixed(1) + ' MB';
}

function plural(count, noun) {
  return count.toLocaleString('en') + ' ' + noun + (count === 1 ? '' : 's');
}

// The filters in the address (#kind=tile,glyphs&outcome=error&q=text&open=3), so that a filtered
// view is a link; shared by every waterfall on the page.
const Address = {
  read() {
    const state = {kinds: null, outcomes: null, query: '', open: null};
    for (const part of location.hash.replace(/^#/, '').split('&')) {
      const equals = part.indexOf('=');
      if (equals < 0) continue;
      const key = part.slice(0, equals);
      const value = Address.decode(part.slice(equals + 1));
      if (key === 'kind') state.kinds = new Set(value.split(',').filter(Boolean));
      else if (key === 'outcome') state.outcomes = new Set(value.split(',').filter(Boolean));
      else if (key === 'q') state.query = value;
      else if (key === 'open') state.open = value;
    }
    return state;
  },
  // A part of an address as it was written: escapes decoded, and a % that starts none (#q=50%,
  // typed by hand) standing for itself rather than failing the page.
  decode(text) {
    try {
      return decodeURIComponent(text);
    } catch (error) {
      return text.replace(/(%[0-9A-Fa-f]{2})+/g, (run) => {
        try { return decodeURIComponent(run); } catch (inner) { return run; }
      });
    }
  },
  write(waterfall) {
    const parts = [];
    const shownKinds = waterfall.kinds.filter((kind) => !waterfall.hiddenKinds.has(kind));
    if (waterfall.hiddenKinds.size) parts.push('kind=' + encodeURIComponent(shownKinds.join(',')));
    const shownOutcomes = OUTCOMES.filter((outcome) => !waterfall.hiddenOutcomes.has(outcome));
    if (waterfall.hiddenOutcomes.size) parts.push('outcome=' + encodeURIComponent(shownOutcomes.join(',')));
    if (waterfall.query) parts.push('q=' + encodeURIComponent(waterfall.query));
    if (Details.current) parts.push('open=' + encodeURIComponent(Details.current));
    history.replaceState(null, '', parts.length ? '#' + parts.join('&') : location.pathname + location.search);
  },
};

// The panel that shows one request's whole event.
const Details = {
  panel: null,
  current: null,
  open(waterfall, index) {
    const row = waterfall.rows[index];
    if (!row) return;
    this.close(false);
    this.current = waterfall.id + ':' + (index + 1);
    let event = row[EVENT];
    let url = row[PATH];
    try {
      const parsed = JSON.parse(row[EVENT]);
      event = JSON.stringify(parsed, null, 2);
      url = parsed.data.request.url;
    } catch (error) {
      // Shown as written.
    }
    const facts = [
      ['kind', row[KIND]], ['path', row[PATH]], ['URL', url], ['outcome', OUTCOME_NAMES[row[OUTCOME]] || row[OUTCOME]],
      ['status', row[STATUS]], ['answered by', row[ANSWERED]], ['size', formatBytes(row[SIZE])],
      ['start', formatTime(row[BEGIN])], ['end', formatTime(row[END])], ['took', formatTime(row[END] - row[BEGIN])],
    ];
    if (row[CRITICAL]) facts.push(['critical path', 'yes: the milestone waited for it']);
    this.panel = h('aside', {class: 'details', role: 'dialog', 'aria-label': 'request ' + (index + 1)},
      h('header', null, h('strong', null, 'Request ' + (index + 1) + ' of ' + waterfall.name),
        h('button', {type: 'button', class: 'close', 'aria-label': 'close', onclick: () => this.close(true, waterfall)}, '×')),
      h('dl', null, facts.map(([term, value]) => [h('dt', null, term), h('dd', null, value)])),
      h('h4', null, 'The event'),
      h('pre', {class: 'event'}, event));
    document.body.append(this.panel);
    waterfall.select(index);
    Address.write(waterfall);
  },
  close(updateAddress, waterfall) {
    if (this.panel) this.panel.remove();
    this.panel = null;
    this.current = null;
    if (waterfall) waterfall.select(null);
    if (updateAddress && waterfall) Address.write(waterfall);
  },
};

document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && Details.panel) Details.close(true, Waterfall.all.find((w) => w.selected !== null));
});

// DevTools' network waterfall: a row per request, a bar per request on the load's timeline, the
// milestones as lines across it, filters by kind and outcome, a search box. Up to ALL_ROWS_LIMIT
// rows are all in the page; more are drawn as they scroll into view.
class Waterfall {
  constructor({id, name, rows, duration, milestones, live}) {
    this.id = id;
    this.name = name;
    this.rows = rows;
    this.duration = Math.max(duration || 0, 1);
    this.fitRequests = false;
    // Times are drawn from here: 0 for a load, the first request for a live server.
    this.origin = 0;
    this.milestones = milestones || [];
    this.live = !!live;
    const address = Address.read();
    this.kinds = [];
    this.hiddenKinds = new Set();
    this.hiddenOutcomes = new Set(address.outcomes ? OUTCOMES.filter((outcome) => !address.outcomes.has(outcome)) : []);
    this.wantedKinds = address.kinds;
    this.query = address.query;
    this.selected = null;
    this.visible = [];
    this.drawn = [-1, -1];
    this.element = this.build();
    this.learnKinds();
    this.refilter();
    Waterfall.all.push(this);
    if (address.open && address.open.startsWith(id + ':')) {
      const index = Number(address.open.slice(id.length + 1)) - 1;
      if (index >= 0 && index < rows.length) setTimeout(() => Details.open(this, index), 0);
    }
  }

  build() {
    this.kindFilters = h('span', {class: 'filters kinds', role: 'group', 'aria-label': 'kinds'});
    this.outcomeFilters = h('span', {class: 'filters outcomes', role: 'group', 'aria-label': 'outcomes'},
      OUTCOMES.map((outcome) => this.checkbox(OUTCOME_NAMES[outcome], 'outcome', outcome, !this.hiddenOutcomes.has(outcome), (on) => {
        if (on) this.hiddenOutcomes.delete(outcome); else this.hiddenOutcomes.add(outcome);
        this.refilter();
        Address.write(this);
      })));
    this.search = h('input', {type: 'search', placeholder: 'Search paths, statuses', value: this.query, 'aria-label': 'search',
      oninput: () => { this.query = this.search.value.trim(); this.refilter(); Address.write(this); }});
    this.counter = h('span', {class: 'counter', role: 'status'});
    this.timeline = h('select', {'aria-label': 'timeline', onchange: () => { this.fitRequests = this.timeline.value === 'requests'; this.redraw(); }},
      h('option', {value: 'trace'}, 'timeline: the whole trace'), h('option', {value: 'requests'}, 'timeline: to the last request'));
    this.scale = h('div', {class: 'c-bar scale'});
    const header = h('div', {class: 'row head', role: 'row'},
      h('span', {class: 'c-index'}, '#'), h('span', {class: 'c-kind'}, 'kind'), h('span', {class: 'c-path'}, 'path'),
      h('span', {class: 'c-status'}, 'status'), h('span', {class: 'c-answered'}, 'answered by'), h('span', {class: 'c-size'}, 'size'),
      this.scale);
    this.lines = h('div', {class: 'milestone-lines'});
    this.rowsLayer = h('div', {class: 'rows-layer'});
    this.content = h('div', {class: 'content'}, this.rowsLayer, this.lines);
    this.scroller = h('div', {class: 'scroller', role: 'table', 'aria-label': 'requests of ' + this.name, onscroll: () => this.scheduleDraw()}, header, this.content);
    this.content.addEventListener('click', (event) => {
      const row = event.target.closest('.row[data-index]');
      if (row) Details.open(this, Number(row.dataset.index));
    });
    this.content.addEventListener('keydown', (event) => {
      const row = event.target.closest('.row[data-index]');
      if (row && event.key === 'Enter') Details.open(this, Number(row.dataset.index));
    });
    this.drawMilestones();
    return h('div', {class: 'waterfall'},
      h('div', {class: 'toolbar'}, this.kindFilters, this.outcomeFilters, this.search, this.timeline, this.counter), this.scroller);
  }

  checkbox(label, group, value, checked, onchange) {
    const input = h('input', {type: 'checkbox', name: group, value, checked});
    input.addEventListener('change', () => onchange(input.checked));
    return h('label', {class: 'filter filter-' + value}, input, ' ' + label);
  }

  // New kinds get a checkbox (a live waterfall meets kinds as requests come).
  learnKinds() {
    const counts = new Map();
    for (const row of this.rows) counts.set(row[KIND], (counts.get(row[KIND]) || 0) + 1);
    let changed = false;
    for (const kind of counts.keys()) {
      if (!this.kinds.includes(kind)) {
        this.kinds.push(kind);
        if (this.wantedKinds && !this.wantedKinds.has(kind)) this.hiddenKinds.add(kind);
        changed = true;
      }
    }
    if (changed || this.live) {
      this.kindFilters.replaceChildren(...this.kinds.map((kind) => this.checkbox(kind + ' (' + (counts.get(kind) || 0) + ')', 'kind', kind,
        !this.hiddenKinds.has(kind), (on) => {
          if (on) this.hiddenKinds.delete(kind); else this.hiddenKinds.add(kind);
          this.refilter();
          Address.write(this);
        })));
    }
  }

  matches(row) {
    if (this.hiddenKinds.has(row[KIND]) || this.hiddenOutcomes.has(row[OUTCOME])) return false;
    if (!this.query) return true;
    const query = this.query.toLowerCase();
    return row[PATH].toLowerCase().includes(query) || String(row[STATUS]).toLowerCase().includes(query) || row[KIND].includes(query);
  }

  refilter() {
    const visible = [];
    for (let index = 0; index < this.rows.length; index++) if (this.matches(this.rows[index])) visible.push(index);
    this.visible = visible;
    this.content.style.height = Math.max(visible.length * ROW_HEIGHT, ROW_HEIGHT) + 'px';
    this.counter.textContent = visible.length === this.rows.length ? plural(this.rows.length, 'request')
      : visible.length.toLocaleString('en') + ' of ' + plural(this.rows.length, 'request');
    this.drawn = [-1, -1];
    this.draw();
  }

  // Rows are added (a live waterfall): the timeline grows to hold them.
  append(rows, duration) {
    if (!this.rows.length && rows.length) this.origin = rows.reduce((least, row) => Math.min(least, row[BEGIN]), Infinity);
    for (const row of rows) this.rows.push(row);
    const longest = rows.reduce((most, row) => Math.max(most, row[END]), 0);
    this.duration = Math.max(this.duration, duration || 0, longest, 1);
    this.learnKinds();
    this.drawMilestones();
    this.refilter();
  }


  // The time the timeline's right edge stands for: a little past the end, so that the last
  // milestone's line shows.
  get span() {
    const end = this.fitRequests ? this.rows.reduce((most, row) => Math.max(most, row[END]), 1) : this.duration;
    return Math.max(end - this.origin, 1) * 1.03;
  }

  redraw() {
    this.drawMilestones();
    this.drawn = [-1, -1];
    this.draw();
  }

  scheduleDraw() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => { this.pending = false; this.draw(); });
  }

  draw() {
    let first = 0;
    let last = this.visible.length;
    if (this.visible.length > ALL_ROWS_LIMIT) {
      const top = this.scroller.scrollTop;
      const height = this.scroller.clientHeight || 600;
      first = Math.max(0, Math.floor(top / ROW_HEIGHT) - 30);
      last = Math.min(this.visible.length, Math.ceil((top + height) / ROW_HEIGHT) + 30);
    }
    if (first === this.drawn[0] && last === this.drawn[1]) return;
    this.drawn = [first, last];
    this.currentSpan = this.span;
    const fragment = document.createDocumentFragment();
    for (let position = first; position < last; position++) fragment.append(this.rowElement(this.visible[position], position));
    this.rowsLayer.replaceChildren(fragment);
    this.scale.replaceChildren(h('span', {class: 'tick start'}, '0'), h('span', {class: 'tick end'}, formatTime(this.currentSpan)));
  }

  rowElement(index, position) {
    const row = this.rows[index];
    let classes = 'row outcome-' + row[OUTCOME];
    if (row[CRITICAL]) classes += ' critical';
    if (index === this.selected) classes += ' selected';
    const left = (row[BEGIN] - this.origin) / this.currentSpan * 100;
    const width = Math.max(0, (row[END] - row[BEGIN]) / this.currentSpan * 100);
    const took = formatTime(row[END] - row[BEGIN]);
    return h('div', {class: classes, 'data-kind': row[KIND], 'data-index': index, role: 'row', tabindex: 0, style: {top: position * ROW_HEIGHT + 'px'}},
      h('span', {class: 'c-index'}, index + 1),
      h('span', {class: 'c-kind'}, row[KIND]),
      h('span', {class: 'c-path', title: row[PATH]}, row[PATH]),
      h('span', {class: 'c-status'}, row[STATUS]),
      h('span', {class: 'c-answered'}, row[ANSWERED]),
      h('span', {class: 'c-size'}, row[SIZE] || row[OUTCOME] === 'ok' ? formatBytes(row[SIZE]) : ''),
      h('span', {class: 'c-bar'}, h('span', {class: 'bar', style: {left: left + '%', width: width + '%'},
        title: formatTime(row[BEGIN] - this.origin) + ' → ' + formatTime(row[END] - this.origin) + ' (' + took + ')'})));
  }

  drawMilestones() {
    const span = this.span;
    this.lines.replaceChildren(...this.milestones.map(([type, time], index) =>
      h('div', {class: 'milestone milestone-' + type, 'data-milestone': type, style: {left: (time / span * 100) + '%', display: time > span ? 'none' : null},
        title: type + ' at ' + formatTime(time)}, h('span', {class: 'label', style: {marginTop: (index % 3) * 15 + 'px'}}, type + ' ' + formatTime(time)))));
  }

  select(index) {
    this.selected = index;
    for (const row of this.rowsLayer.querySelectorAll('.row.selected')) row.classList.remove('selected');
    if (index === null) return;
    const position = this.visible.indexOf(index);
    if (position < 0) return;
    const top = position * ROW_HEIGHT;
    if (top < this.scroller.scrollTop || top > this.scroller.scrollTop + this.scroller.clientHeight - ROW_HEIGHT) {
      this.scroller.scrollTop = Math.max(0, top - this.scroller.clientHeight / 2);
      this.draw();
    }
    const element = this.rowsLayer.querySelector('.row[data-index="' + index + '"]');
    if (element) element.classList.add('selected');
  }
}
Waterfall.all = [];

// The tiles of one source, a grid per zoom: each tile coloured by how it was answered, darker the
// later it arrived; parents (the lower zooms a map shows while the view's tiles load) and world
// copies marked.
const TILE_STATES = {
  loaded: {name: 'loaded', hue: 145, saturation: 55},
  cache: {name: 'from the cache', hue: 210, saturation: 65},
  empty: {name: 'no content', hue: 40, saturation: 10},
  failed: {name: 'failed', hue: 0, saturation: 75},
  cancelled: {name: 'cancelled', hue: 270, saturation: 10},
};

function tileColour(state, time, duration) {
  const style = TILE_STATES[state] || TILE_STATES.loaded;
  if (state === 'failed') return 'hsl(0, 75%, 50%)';
  const share = Math.min(1, Math.max(0, time / Math.max(duration, 1)));
  return 'hsl(' + style.hue + ', ' + style.saturation + '%, ' + Math.round(78 - share * 48) + '%)';
}

function tileSection(source, duration) {
  const byZoom = new Map();
  for (const tile of source.tiles) {
    if (!byZoom.has(tile[0])) byZoom.set(tile[0], []);
    byZoom.get(tile[0]).push(tile);
  }
  const zooms = [...byZoom.keys()].sort((a, b) => b - a);
  const counts = {};
  for (const tile of source.tiles) counts[tile[3]] = (counts[tile[3]] || 0) + 1;
  const summary = Object.entries(counts).map(([state, count]) => count + ' ' + (TILE_STATES[state] || {name: state}).name).join(', ');
  return h('div', {class: 'tile-source'},
    h('h3', null, 'Source ', h('code', null, source.source), ' — ', plural(source.tiles.length, 'tile'), summary ? ' (' + summary + ')' : ''),
    h('div', {class: 'tile-zooms'}, zooms.map((zoom) => tileGrid(zoom, byZoom.get(zoom), duration))));
}

function tileGrid(zoom, tiles, duration) {
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  for (const [, x, y] of tiles) {
    minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
  }
  const columns = maxX - minX + 1;
  const rows = maxY - minY + 1;
  const cell = Math.max(1, Math.min(36, Math.floor(360 / Math.max(columns, rows))));
  const canvas = h('canvas', {width: columns * cell, height: rows * cell, class: 'tile-grid', role: 'img',
    'aria-label': 'zoom ' + zoom + ': ' + plural(tiles.length, 'tile') + ', x ' + minX + '–' + maxX + ', y ' + minY + '–' + maxY});
  const context = canvas.getContext('2d');
  if (context) {
    if (cell >= 6) {
      context.strokeStyle = 'rgba(128, 128, 128, 0.25)';
      for (let column = 0; column <= columns; column++) { context.beginPath(); context.moveTo(column * cell + 0.5, 0); context.lineTo(column * cell + 0.5, rows * cell); context.stroke(); }
      for (let row = 0; row <= rows; row++) { context.beginPath(); context.moveTo(0, row * cell + 0.5); context.lineTo(columns * cell, row * cell + 0.5); context.stroke(); }
    }
    for (const [, x, y, state, time, copies, parent] of tiles) {
      const left = (x - minX) * cell;
      const top = (y - minY) * cell;
      context.fillStyle = tileColour(state, time, duration);
      context.fillRect(left + (cell >= 6 ? 1 : 0), top + (cell >= 6 ? 1 : 0), Math.max(1, cell - (cell >= 6 ? 1 : 0)), Math.max(1, cell - (cell >= 6 ? 1 : 0)));
      if (parent && cell >= 6) {
        context.strokeStyle = 'rgba(0, 0, 0, 0.6)';
        context.setLineDash([2, 2]);
        context.strokeRect(left + 2.5, top + 2.5, cell - 4, cell - 4);
        context.setLineDash([]);
      }
      if (copies > 1 && cell >= 16) {
        context.fillStyle = '#000';
        context.font = Math.min(12, cell / 2) + 'px sans-serif';
        context.fillText('×' + copies, left + 3, top + cell - 4);
      }
    }
  }
  const tip = h('div', {class: 'tile-tip', role: 'status'}, 'Point at a tile.');
  canvas.addEventListener('mousemove', (event) => {
    const box = canvas.getBoundingClientRect();
    const x = minX + Math.floor((event.clientX - box.left) / box.width * columns);
    const y = minY + Math.floor((event.clientY - box.top) / box.height * rows);
    const tile = tiles.find((candidate) => candidate[1] === x && candidate[2] === y);
    tip.textContent = tile ? zoom + '/' + x + '/' + y + ': ' + (TILE_STATES[tile[3]] || {name: tile[3]}).name + ' at ' + formatTime(tile[4])
      + (tile[5] > 1 ? ', ' + tile[5] + ' world copies' : '') + (tile[6] ? ', a parent of tiles shown' : '') : zoom + '/' + x + '/' + y + ': not needed';
  });
  const copies = tiles.filter((tile) => tile[5] > 1).length;
  const parents = tiles.filter((tile) => tile[6]).length;
  return h('figure', {class: 'tile-zoom'},
    h('figcaption', null, 'z' + zoom + ' — ' + plural(tiles.length, 'tile') + (parents ? ', ' + parents + ' parent' + (parents === 1 ? '' : 's') : '')
      + (copies ? ', ' + copies + ' shown more than once (world copies)' : '')),
    canvas, tip);
}

function tileLegend() {
  return h('p', {class: 'legend'}, Object.entries(TILE_STATES).map(([state, style]) =>
    h('span', {class: 'swatch-label'}, h('span', {class: 'swatch', style: {background: tileColour(state, 0, 1)}}), style.name)),
    h('span', {class: 'swatch-label'}, h('span', {class: 'swatch gradient'}), 'earlier → later'),
    h('span', {class: 'swatch-label'}, h('span', {class: 'swatch parent'}), 'parent'),
    h('span', {class: 'swatch-label'}, '×N world copies'));
}

function definitionList(pairs) {
  return h('dl', {class: 'facts'}, pairs.map(([term, value]) => [h('dt', null, term), h('dd', null, value)]));
}

function summarySection(trace) {
  const summary = trace.summary;
  const milestoneFacts = summary.milestones.map(([name, time]) => [name, time === null ? 'never' : formatTime(time)]);
  const table = h('table', {class: 'kinds'},
    h('thead', null, h('tr', null, h('th', null, 'kind'), h('th', null, 'requests'), h('th', null, 'bytes'), h('th', null, 'failed'), h('th', null, 'cancelled'))),
    h('tbody', null, summary.kinds.map(([kind, requests, bytes, failures, cancelled]) =>
      h('tr', {class: failures ? 'has-failures' : null}, h('td', null, kind), h('td', null, requests), h('td', null, formatBytes(bytes)), h('td', null, failures || ''), h('td', null, cancelled || '')))),
    h('tfoot', null, h('tr', null, h('th', null, 'total'), h('th', null, summary.total[0]), h('th', null, formatBytes(summary.total[1])),
      h('th', null, summary.total[2] || ''), h('th', null, summary.total[3] || ''))));
  const answered = summary.answered.map(([source, count]) => source + ' ' + count).join(', ') || 'nothing';
  const errors = summary.errors.length
    ? h('ol', {class: 'errors'}, summary.errors.map(([type, message]) => h('li', null, h('strong', null, type), ' ', message)))
    : h('p', {class: 'no-errors'}, 'No map-loading-error.');
  return h('section', {class: 'summary'},
    h('div', {class: 'summary-columns'},
      h('div', null, h('h3', null, 'Milestones'), definitionList(milestoneFacts),
        h('h3', null, 'Answered by'), h('p', null, answered + (summary.notModified ? ' (' + summary.notModified + ' not modified)' : '')),
        h('p', {class: 'muted'}, plural(summary.events, 'event') + ', ' + plural(summary.frames, 'frame'))),
      h('div', null, h('h3', null, 'Requests and bytes'), table)),
    h('h3', null, summary.errors.length ? plural(summary.errors.length, 'error') : 'Errors'), errors);
}

function criticalSection(trace, waterfall) {
  const critical = trace.critical;
  if (!critical || !critical.steps.length) return h('p', {class: 'muted'}, 'No critical path: the map never loaded.');
  return h('section', {class: 'critical-path'},
    h('h3', null, 'Critical path to ' + critical.milestone + ' at ' + formatTime(critical.time)),
    h('ol', null, critical.steps.map((index) => {
      const row = trace.rows[index];
      return h('li', null, h('a', {href: '#', onclick: (event) => { event.preventDefault(); Details.open(waterfall, index); }},
        row[KIND] + ' ' + row[PATH]), ' ' + formatTime(row[BEGIN]) + ' → ' + formatTime(row[END]) + (row[OUTCOME] === 'error' ? ' (failed)' : ''));
    }), h('li', {class: 'muted'}, 'then frames and fades: ' + formatTime(critical.time - trace.rows[critical.steps[critical.steps.length - 1]][END]) + ' to ' + critical.milestone)));
}

function traceSection(trace, index) {
  // The rows on the critical path are marked here: each was written before the path was known.
  for (const step of (trace.critical && trace.critical.steps) || []) if (trace.rows[step]) trace.rows[step][CRITICAL] = 1;
  const waterfall = new Waterfall({id: 't' + (index + 1), name: trace.name, rows: trace.rows, duration: trace.duration, milestones: trace.milestones});
  return h('section', {class: 'trace', id: 'trace-' + (index + 1)},
    h('h2', null, trace.name),
    definitionList(trace.header),
    summarySection(trace),
    h('h3', null, 'Waterfall'),
    h('p', {class: 'muted'}, 'A row per request: click one for its whole event. Lines mark the milestones; the critical path is highlighted.'),
    waterfall.element,
    criticalSection(trace, waterfall),
    trace.tiles.length ? h('section', {class: 'tiles'}, h('h3', null, 'Tiles'), tileLegend(), trace.tiles.map((source) => tileSection(source, trace.duration))) : null);
}

function pageHeader(title, subtitle) {
  document.title = title;
  return h('header', {class: 'page-header'}, h('h1', null, title), subtitle ? h('p', {class: 'muted'}, subtitle) : null);
}

// A report draws its headers and summaries at once; the rows of a trace that keeps them in an element
// of their own after the script (a large trace: element mapsim-rows-N) are read once the page is
// parsed, and its waterfall, critical path and tiles drawn then. Returns a promise of that, or null.
function reportPage(root) {
  const traces = data.traces || [];
  root.append(pageHeader(data.title, data.generator));
  if (traces.length > 1) {
    root.append(h('nav', {class: 'contents'}, h('strong', null, 'Traces: '), traces.map((trace, index) =>
      h('a', {href: '#', onclick: (event) => { event.preventDefault(); document.getElementById('trace-' + (index + 1)).scrollIntoView(); }}, trace.name))));
  }
  const waiting = [];
  traces.forEach((trace, index) => {
    if (trace.rows) {
      root.append(traceSection(trace, index));
      return;
    }
    const early = h('section', {class: 'trace', id: 'trace-' + (index + 1)}, h('h2', null, trace.name), definitionList(trace.header), summarySection(trace),
      h('p', {class: 'muted'}, 'Reading ' + plural(trace.summary.total[0], 'request') + '…'));
    root.append(early);
    waiting.push([trace, index, early]);
  });
  if (!waiting.length) return null;
  return new Promise((resolve) => {
    const draw = () => {
      for (const [trace, index, early] of waiting) {
        trace.rows = JSON.parse(document.getElementById('mapsim-rows-' + (index + 1)).textContent);
        early.replaceWith(traceSection(trace, index));
      }
      resolve();
    };
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', draw); else draw();
  });
}

// Golden and new trace side by side, the differing events marked; runs of equal events folded.
function sideBySide(diff) {
  const marks = {0: 'same', 1: 'changed', 2: 'only-golden', 3: 'only-new'};
  const table = h('div', {class: 'side-by-side', role: 'table'},
    h('div', {class: 'pair head', role: 'row'}, h('span', null, 'golden ' + diff.goldenName), h('span', null, 'new run')));
  const pairs = diff.pairs;
  let position = 0;
  while (position < pairs.length) {
    if (pairs[position][2] === 0) {
      let end = position;
      while (end < pairs.length && pairs[end][2] === 0) end++;
      const run = pairs.slice(position, end);
      const context = 2;
      if (run.length > context * 2 + 2) {
        const hidden = run.slice(position === 0 ? 0 : context, end === pairs.length ? run.length : run.length - context);
        const shownBefore = position === 0 ? [] : run.slice(0, context);
        const shownAfter = end === pairs.length ? [] : run.slice(run.length - context);
        for (const pair of shownBefore) table.append(pairRow(pair, diff, marks));
        const fold = h('div', {class: 'pair fold', role: 'row'}, h('button', {type: 'button', onclick: () => {
          fold.replaceWith(...hidden.map((pair) => pairRow(pair, diff, marks)));
        }}, '… ' + plural(hidden.length, 'equal event') + ' (show)'));
        table.append(fold);
        for (const pair of shownAfter) table.append(pairRow(pair, diff, marks));
      } else {
        for (const pair of run) table.append(pairRow(pair, diff, marks));
      }
      position = end;
    } else {
      table.append(pairRow(pairs[position], diff, marks));
      position++;
    }
  }
  return table;
}

function pairRow([a, b, mark], diff, marks) {
  return h('div', {class: 'pair ' + marks[mark], role: 'row'},
    h('span', {class: 'golden'}, a >= 0 ? (a + 1) + '  ' + diff.golden[a] : ''),
    h('span', {class: 'new'}, b >= 0 ? (b + 1) + '  ' + diff.actual[b] : ''));
}

function scenarioPage(root) {
  const scenario = data.scenario;
  root.append(pageHeader('Scenario ' + scenario.name, data.generator),
    h('p', null, h('a', {href: 'index.html'}, '← all scenarios')),
    h('p', {class: 'status status-' + scenario.status}, scenario.status === 'passed' ? 'Passed' : 'Failed', ' in ' + scenario.seconds.toFixed(2) + ' s'),
    scenario.description ? h('p', null, scenario.description) : null);
  if (scenario.problems.length) {
    root.append(h('section', {class: 'problems'}, h('h2', null, 'What failed'), h('ul', null, scenario.problems.map((problem) => h('li', null, h('pre', null, problem))))));
  }
  if (scenario.budgets.length) {
    root.append(h('section', null, h('h2', null, 'Budgets'), h('ul', {class: 'budgets'}, scenario.budgets.map(([line, met]) => h('li', {class: met ? 'met' : 'exceeded'}, line)))));
  }
  if (data.diff) {
    root.append(h('section', {class: 'diff'}, h('h2', null, 'Golden and new trace'),
      data.diff.differences.length ? h('ul', {class: 'differences'}, data.diff.differences.map((line) => h('li', null, h('code', null, line)))) : null,
      h('p', {class: 'legend'}, h('span', {class: 'swatch-label'}, h('span', {class: 'swatch changed'}), 'changed'),
        h('span', {class: 'swatch-label'}, h('span', {class: 'swatch only-golden'}), 'only in the golden trace'),
        h('span', {class: 'swatch-label'}, h('span', {class: 'swatch only-new'}), 'only in the new run')),
      sideBySide(data.diff)));
  }
  (data.traces || []).forEach((trace, index) => root.append(traceSection(trace, index)));
}

function suitePage(root) {
  const suite = data.suite;
  const failed = suite.scenarios.filter((scenario) => scenario.status !== 'passed').length;
  root.append(pageHeader(data.title, data.generator),
    h('p', {class: 'status status-' + (failed ? 'failed' : 'passed')}, (suite.scenarios.length - failed) + ' passed, ' + failed + ' failed, in ' + suite.seconds.toFixed(2) + ' s'));
  const onlyFailed = h('input', {type: 'checkbox', name: 'only-failed'});
  const body = h('tbody');
  const draw = () => {
    body.replaceChildren(...suite.scenarios.filter((scenario) => !onlyFailed.checked || scenario.status !== 'passed').map((scenario) =>
      h('tr', {class: 'status-' + scenario.status, 'data-scenario': scenario.name, 'data-status': scenario.status},
        h('td', null, scenario.status), h('td', null, h('a', {href: scenario.page}, scenario.name)),
        h('td', {class: 'number'}, scenario.seconds.toFixed(2) + ' s'), h('td', {class: 'number'}, scenario.events),
        h('td', null, scenario.budgets.length ? h('ul', {class: 'budgets'}, scenario.budgets.map(([line, met]) => h('li', {class: met ? 'met' : 'exceeded'}, line))) : '—'),
        h('td', null, scenario.problem || ''))));
  };
  onlyFailed.addEventListener('change', draw);
  draw();
  root.append(h('label', {class: 'filter'}, onlyFailed, ' only failed'),
    h('table', {class: 'suite'}, h('thead', null, h('tr', null, h('th', null, 'status'), h('th', null, 'scenario'), h('th', null, 'duration'),
      h('th', null, 'events'), h('th', null, 'budgets'), h('th', null, 'first problem'))), body));
}

// `mapsim serve`'s own page: the requests it served so far (polled), its conditions, and the style
// drawn by MapLibre GL JS from this server.
function servePage(root) {
  const serve = data.serve;
  root.append(pageHeader('mapsim serve', 'Serving ' + serve.style + ' — ' + data.generator));
  const waterfall = new Waterfall({id: 's', name: 'served requests', rows: [], duration: 1, milestones: [], live: true});
  const previewState = h('p', {class: 'muted preview-state'}, 'Loading the map…');
  const preview = h('div', {class: 'preview', id: 'preview', 'data-preview': 'loading'});
  const mapErrors = h('ul', {class: 'errors'});
  const conditions = definitionList(serve.conditions);
  const status = h('p', {class: 'muted', role: 'status'}, 'Waiting for requests…');
  root.append(h('div', {class: 'serve-columns'},
    h('section', {class: 'serve-map'}, h('h2', null, 'The map'), preview, previewState, mapErrors),
    h('section', {class: 'serve-side'}, h('h2', null, 'Conditions'), conditions,
      h('p', null, 'Style: ', h('a', {href: serve.styleURL}, serve.styleURL)))),
    h('section', {class: 'serve-requests'}, h('h2', null, 'Requests served'), status, waterfall.element));
  document.body.dataset.refreshMs = String(serve.refreshMs);

  if (window.maplibregl) {
    try {
      const map = new window.maplibregl.Map({container: preview, style: serve.styleURL, attributionControl: {compact: true}});
      map.on('load', () => { preview.dataset.preview = 'loaded'; previewState.textContent = 'Loaded (MapLibre GL JS ' + window.maplibregl.getVersion() + ').'; });
      map.on('idle', () => { if (preview.dataset.preview === 'loaded') previewState.textContent = 'Idle: everything in view is drawn.'; });
      map.on('error', (event) => {
        const message = event && event.error && event.error.message ? event.error.message : String(event && event.error);
        if (mapErrors.children.length < 50) mapErrors.append(h('li', null, message));
        // GL JS draws no frame after a tile that failed, and checks for load and idle only in a
        // frame: one the conditions' last answer failed would leave the preview loading forever.
        map.triggerRepaint();
      });
    } catch (error) {
      preview.dataset.preview = 'unavailable';
      previewState.textContent = 'No preview: ' + error.message + ' (the map needs WebGL).';
    }
  } else {
    preview.dataset.preview = 'unavailable';
    previewState.textContent = 'No preview: MapLibre GL JS did not load.';
  }

  let after = 0;
  let busy = false;
  const poll = async () => {
    if (busy) return;
    busy = true;
    try {
      const response = await fetch('requests.json?after=' + after, {cache: 'no-store'});
      if (response.ok) {
        const update = await response.json();
        if (update.rows.length) waterfall.append(update.rows, update.now);
        after = update.next;
        status.textContent = plural(update.next, 'request') + ' served' + (update.dropped ? ' (the oldest ' + update.dropped + ' no longer kept)' : '') + '.';
      }
    } catch (error) {
      status.textContent = 'The server does not answer (' + error.message + '); trying again.';
    } finally {
      busy = false;
    }
  };
  poll();
  setInterval(poll, serve.refreshMs);
}

const root = document.getElementById('app');
const pages = {report: reportPage, scenario: scenarioPage, suite: suitePage, serve: servePage};
const drawn = (pages[data.mode] || reportPage)(root);
if (drawn) drawn.then(() => { document.body.dataset.ready = 'true'; }); else document.body.dataset.ready = 'true';
})();
"""#
}
