/*
 * The HTML report's script, part 1 of 6: the model and what every view
 * uses. The page's script is base.js, charts.js, treemap.js, sections.js,
 * merge.js and report.js one after the other (html/assets.S), inside one
 * function (report.html): no libraries, no network. It reads the report's
 * JSON model, the object `slabacct report --json` prints (or `slabacct
 * diff --json`, `slabacct merge --json`), from the sa-model element. It
 * computes no figure of its own but the sums of an activity run and the
 * change between two numbers of the model (a system snapshot's start and
 * end, a diff's totals the model gives no change of): every other number
 * shown is in the model, put in human units, with the exact number on
 * hover.
 */

const M = JSON.parse(document.getElementById('sa-model').textContent);
const isDiff = M.tool === 'slabacct diff';
const S = M.sections || {};
/* a /proc/allocinfo snapshot (callsite "by": "allocinfo"), or a diff of
 * two: live bytes and allocations per site, nothing else */
const isAllocinfo = isDiff ? !!(M.a && M.a.source === 'allocinfo') :
	!!(S.callsite && S.callsite.by === 'allocinfo');
const $ = (id) => document.getElementById(id);
const SVGNS = 'http://www.w3.org/2000/svg';

function el(tag, attrs, ...kids) {
	const e = document.createElement(tag);

	for (const [k, v] of Object.entries(attrs || {})) {
		if (v === undefined || v === null)
			continue;
		if (k === 'class')
			e.className = v;
		else if (k === 'text')
			e.textContent = v;
		else
			e.setAttribute(k, v);
	}
	for (const k of kids)
		if (k !== null && k !== undefined && k !== false)
			e.append(k);
	return e;
}

function svg(tag, attrs, text) {
	const e = document.createElementNS(SVGNS, tag);

	for (const [k, v] of Object.entries(attrs || {}))
		e.setAttribute(k, v);
	if (text !== undefined)
		e.textContent = text;
	return e;
}

/* ---- numbers in human units ---- */

/* Exact numbers in tables; short ones on tiles. */
function exact(v) {
	if (typeof v === 'number')
		return v.toLocaleString('en-US');
	if (v === null || v === undefined)
		return '';
	return String(v);
}

/* 1024-based, as the text report: 83K, 1.2M (treemap tiles, axes) */
function human(v) {
	const a = Math.abs(v);
	const units = ['', 'K', 'M', 'G', 'T'];
	let d = a, u = 0;

	while (d >= 1024 && u < units.length - 1) {
		d /= 1024;
		u++;
	}
	const s = u ? (d < 10 ? d.toFixed(1) : d.toFixed(0)) + units[u] :
		String(a);
	return (v < 0 ? '-' : '') + s;
}

function signed(v) {
	return (v > 0 ? '+' : '') + exact(v);
}

/* bytes: "512 B", "83.0 KiB", "1.25 MiB" */
function bytes(v) {
	if (typeof v !== 'number')
		return exact(v);
	const a = Math.abs(v);
	const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
	let d = a, u = 0;

	while (d >= 1024 && u < units.length - 1) {
		d /= 1024;
		u++;
	}
	const s = u ? (d < 10 ? d.toFixed(2) : d < 100 ? d.toFixed(1) :
		       d.toFixed(0)) : String(d);
	return (v < 0 ? '\u2212' : '') + s + ' ' + units[u];
}

function signedBytes(v) {
	return (v > 0 ? '+' : '') + bytes(v);
}

const kib = (v) => (typeof v === 'number' ? bytes(v * 1024) : exact(v));

/* nanoseconds: "850 ns", "312 \u00b5s", "63.7 ms", "1.77 s" */
function dur(ns) {
	if (typeof ns !== 'number')
		return ns === null || ns === undefined ? 'not traced' : exact(ns);
	const a = Math.abs(ns);
	const f = (x) => (x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) :
			  x.toFixed(0));

	if (a < 1e3)
		return ns + ' ns';
	if (a < 1e6)
		return f(ns / 1e3) + ' \u00b5s';
	if (a < 1e9)
		return f(ns / 1e6) + ' ms';
	return f(ns / 1e9) + ' s';
}

/* seconds on an axis: as many decimals as the span needs */
function secs(s, span) {
	return s.toFixed(span < 0.01 ? 4 : span < 1 ? 3 : span < 10 ? 2 : 1) +
		' s';
}

const pct = (v) => (typeof v === 'number' ? v.toFixed(v < 10 ? 2 : 1) +
		    ' %' : exact(v));

/* the page size of the traced system, from its snapshot, if any */
function pageSize() {
	const sys = M.system || {};

	for (const k of ['start', 'end'])
		if (sys[k] && sys[k].page_size)
			return sys[k].page_size;
	return 0;
}

/* pages, and their bytes when the page size is known */
function pages(v) {
	const ps = pageSize();

	if (typeof v !== 'number')
		return exact(v);
	return exact(v) + (ps ? ' (' + bytes(v * ps) + ')' : '');
}

/* "6,735 pages (26.3 MiB)" */
const npages = (v) => pages(v).replace(/^([\d,]+)/, '$1 pages');

/* ---- tables ---- */

/*
 * A sortable table. cols: [{key, label, fmt, txt, get, cls, title, node}]:
 * get(row) the raw value (default row[key]), fmt(value, row) its text
 * (default exact), txt a text column, cls(value, row) a cell class,
 * node(value, row) an element to put in the cell (a chart).
 * A click on a header sorts by that column; the raw value is the
 * cell's title. opts: {id, limit, empty, caption}.
 */
function table(cols, rows, opts) {
	const o = opts || {};
	const t = el('table', { class: 'data', id: o.id });
	const head = el('tr');
	const body = el('tbody');
	const val = (c, r) => (c.get ? c.get(r) : r[c.key]);
	let order = rows.slice();
	let sortCol = -1, desc = true;

	if (!rows.length)
		return el('p', { class: 'absent', text: o.empty || 'none' });
	function fill() {
		body.textContent = '';
		for (const r of order.slice(0, o.limit || order.length)) {
			const tr = el('tr');

			for (const c of cols) {
				const v = val(c, r);
				const cls = [c.txt ? 'txt' : '',
					     c.cls ? c.cls(v, r) : ''].join(' ').trim();
				const td = el('td', { class: cls || null,
					text: c.fmt ? c.fmt(v, r) : exact(v) });

				if (c.node)
					td.append(c.node(v, r));
				if (typeof v === 'number')
					td.title = exact(v);
				else if (c.title)
					td.title = c.title(v, r);
				tr.append(td);
			}
			body.append(tr);
		}
	}
	cols.forEach((c, i) => {
		const th = el('th', { class: c.txt ? 'txt' : null,
				      'data-key': c.key, text: c.label,
				      title: c.help || null });

		th.addEventListener('click', () => {
			desc = sortCol === i ? !desc : !c.txt;
			sortCol = i;
			order.sort((a, b) => {
				const x = val(c, a), y = val(c, b);
				const d = typeof x === 'number' && typeof y === 'number' ?
					x - y : String(x ?? '').localeCompare(String(y ?? ''));

				return desc ? -d : d;
			});
			for (const h of head.children)
				h.classList.remove('sorted-asc', 'sorted-desc');
			th.classList.add(desc ? 'sorted-desc' : 'sorted-asc');
			fill();
		});
		head.append(th);
	});
	t.append(el('thead', null, head), body);
	if (o.caption)
		t.prepend(el('caption', { text: o.caption }));
	fill();
	const box = el('div', { class: 'scroll' }, t);

	if (o.limit && rows.length > o.limit)
		return el('div', null, box, el('p', { class: 'legend', text:
			'the first ' + o.limit + ' of ' + rows.length + ' rows' }));
	return box;
}

/* A two-column table of labelled figures: [[label, text, title], ...] */
function facts(list, cls) {
	const t = el('table', { class: 'kv ' + (cls || '') });

	for (const [label, text, title] of list) {
		if (text === undefined)
			continue;
		t.append(el('tr', null, el('th', { text: label }),
			    el('td', { text: text, title: title || null })));
	}
	return t;
}

/* A heading inside a section */
const h3 = (text) => el('h3', { text });

/* an explanation under a view */
const legend = (text) => el('p', { class: 'legend', text });

/* "not in this trace", with the reason when the model gives one */
const absentNote = (text) => el('p', { class: 'absent', text });

/* "TRUNCATED at 2.5 s (why): ...": a recording that stopped early */
function truncatedMsg(t) {
	return 'TRUNCATED' + (t.at_ns === null || t.at_ns === undefined ? '' :
		' at ' + (t.at_ns / 1e9).toFixed(6) + ' s') + ' (' + t.why +
		'): the recording stopped early, the figures are incomplete';
}
