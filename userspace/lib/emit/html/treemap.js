/*
 * The HTML report's script, part 3 of 6: the call sites. A squarified
 * treemap of subsystem -> file or module -> call site, sized by a
 * metric of choice and coloured by frag % (a diff: by growth or
 * shrinkage); a click zooms one level in. The call-site table, sortable
 * by any column, with a filter (a diff: the changes coloured). A
 * /proc/allocinfo snapshot, or a diff of two, has live bytes and
 * allocations per site only: the treemap and the table show those.
 */

/* ---- the leaves: one per call-site row ---- */

const METRICS = isDiff && isAllocinfo ? [
	['live_bytes', 'live bytes', 'd_live_bytes'],
	['live', 'live allocations', 'd_live'],
] : isAllocinfo ? [
	['live_bytes', 'live bytes'],
	['live', 'live allocations'],
] : isDiff ? [
	['bytes_alloc', 'total bytes', 'd_bytes'],
	['slack', 'slack', 'd_slack'],
	['live_bytes', 'live bytes', 'd_live_bytes'],
	['allocs', 'allocation count', 'd_allocs'],
] : [
	['bytes_alloc', 'total bytes'],
	['slack', 'slack'],
	['live_bytes', 'live bytes'],
	['allocs', 'allocation count'],
];

function dirOf(file, depth) {
	const parts = file.split('/');

	parts.pop();
	if (!parts.length)
		return '(top)';
	return (depth > 0 ? parts.slice(0, depth) : parts).join('/');
}

function reportLeaves() {
	const cs = S.callsite;
	const depth = S.subsys ? S.subsys.depth : 0;

	if (!cs)
		return [];
	return cs.rows.map((r, i) => {
		let l1, l2;

		if (r.file) {
			l1 = dirOf(r.file, depth);
			l2 = r.file;
		} else if (r.module) {
			l1 = '[' + r.module + ']';
			l2 = r.function || r.site;
		} else if (r.function) {
			l1 = 'vmlinux';
			l2 = r.function;
		} else {
			l1 = r.kind === 'cache' ? 'caches' : 'unresolved';
			l2 = r.site;
		}
		return { i, row: r, name: r.site, kind: r.kind,
			 path: [l1, l2], value: (m) => r[m] || 0 };
	});
}

function diffLeaves() {
	return (M.rows || []).map((r, i) => {
		const mod = /\[([^\]]+)\]\s*$/.exec(r.site);
		const func = r.site.split('+')[0].trim();
		/* allocinfo: "func file:line [module]" */
		const at = isAllocinfo ? /^\S+ (\S+):\d+/.exec(r.site) : null;

		return { i, row: r, name: r.site, kind: r.kind,
			 path: at ? [mod ? '[' + mod[1] + ']' : dirOf(at[1], 0),
				     at[1]] :
				[mod ? '[' + mod[1] + ']' : 'vmlinux', func],
			 value: (m) => Math.max(Math.abs(r.a[m] || 0),
						Math.abs(r.b[m] || 0)) };
	});
}

const leaves = isDiff ? diffLeaves() : reportLeaves();

/* the tree: root -> level 1 -> level 2 -> leaves */
function buildTree() {
	const root = { name: 'all', children: [], parent: null, by: {} };

	for (const lf of leaves) {
		let n = root;

		for (const p of lf.path) {
			let c = n.by[p];

			if (!c) {
				c = { name: p, children: [], parent: n, by: {} };
				n.by[p] = c;
				n.children.push(c);
			}
			n = c;
		}
		const leaf = { name: lf.name, leaf: lf, parent: n,
			       children: [] };

		lf.node = leaf;
		n.children.push(leaf);
	}
	return root;
}

const root = buildTree();
let zoom = root;
let metric = METRICS[0][0];
let selected = null;
/*
 * Tile areas: linear (a tile's share is the site's share) or log
 * (log2(1 + value): every site stays visible when one dominates).
 * The log scale is chosen by itself when one site holds more than
 * half of the metric's total, and the note beside the control says so.
 */
let scale = 'linear';

function tileSize(v) {
	return scale === 'log' ? Math.log2(1 + Math.max(0, v)) : v;
}

/* the site holding the largest share of the metric: [leaf, share] */
function dominant() {
	let total = 0, top = null;

	for (const lf of leaves) {
		const v = Math.max(0, lf.value(metric));

		total += v;
		if (!top || v > top.value(metric))
			top = lf;
	}
	return top && total ? [top, top.value(metric) / total] : [null, 0];
}

function chooseScale(auto) {
	const [top, share] = dominant();
	const note = $('tm-scale-note');

	if (auto)
		scale = share > 0.5 ? 'log' : 'linear';
	$('tm-scale').value = scale;
	/* one decimal, more where it would read 100% of a part */
	let pct = (100 * share).toFixed(1);

	for (let d = 2; share < 1 && pct === '100.0' && d < 6; d++)
		pct = (100 * share).toFixed(d).replace(/0+$/, '');
	note.textContent = share > 0.5 ? top.name + ' holds ' +
		pct + '% of the ' +
		METRICS.find((m) => m[0] === metric)[1] + (scale === 'log' ?
		': tiles sized by log2(1 + value), so the others show' :
		': tiles sized by value') : '';
}

function nodeValue(n) {
	if (n.leaf)
		return tileSize(n.leaf.value(metric));
	let s = 0;

	for (const c of n.children)
		s += nodeValue(c);
	return s;
}

/* ---- colours ---- */

function fragColour(pct) {
	const t = Math.max(0, Math.min(1, (pct || 0) / 50));
	const hue = 120 * (1 - t);

	return 'hsl(' + hue.toFixed(0) + ', 62%, 72%)';
}

function diffColour(r) {
	const m = METRICS.find((x) => x[0] === metric);

	return growthColour(r[m[2]] || 0, Math.max(Math.abs(r.a[metric] || 0),
						   Math.abs(r.b[metric] || 0)));
}

function colour(lf) {
	if (isAllocinfo && !isDiff)
		return lf.row.accurate ? 'hsl(210, 45%, 78%)' : 'hsl(30, 70%, 70%)';
	return isDiff ? diffColour(lf.row) : fragColour(lf.row.frag_pct);
}

function tmLegend() {
	const l = $('tm-legend');

	l.textContent = '';
	if (isDiff) {
		l.append('colour: ',
			 el('span', { class: 'sw', style: 'background:' +
				      'hsl(130,80%,52%)' }), ' shrank ',
			 el('span', { class: 'sw', style: 'background:' +
				      'hsl(220,8%,82%)' }), ' same ',
			 el('span', { class: 'sw', style: 'background:' +
				      'hsl(0,80%,52%)' }), ' grew');
		return;
	}
	if (isAllocinfo) {
		l.append('colour: ',
			 el('span', { class: 'sw', style: 'background:' +
				      'hsl(210, 45%, 78%)' }), ' counted ',
			 el('span', { class: 'sw', style: 'background:' +
				      'hsl(30, 70%, 70%)' }),
			 ' marked inaccurate (no slack in allocinfo)');
		return;
	}
	l.append('colour: frag % ',
		 el('span', { class: 'sw', style: 'background:' +
			      fragColour(0) }), ' 0 ',
		 el('span', { class: 'sw', style: 'background:' +
			      fragColour(25) }), ' 25 ',
		 el('span', { class: 'sw', style: 'background:' +
			      fragColour(50) }), ' \u226550');
}

/* ---- squarified layout (Bruls, Huizing, van Wijk) ---- */

function worst(row, side) {
	let s = 0, mx = 0, mn = Infinity;

	for (const a of row) {
		s += a;
		mx = Math.max(mx, a);
		mn = Math.min(mn, a);
	}
	if (!s || !side)
		return Infinity;
	return Math.max(side * side * mx / (s * s),
			s * s / (side * side * mn));
}

/* values sorted descending, all > 0; returns [x, y, w, h] each */
function squarify(values, x, y, w, h) {
	const total = values.reduce((a, b) => a + b, 0);
	const out = [];
	let row = [];
	let i = 0;

	if (!total)
		return values.map(() => [x, y, 0, 0]);
	const areas = values.map((v) => v * w * h / total);

	/* lay the row along the shorter side: a column or a row */
	const place = () => {
		const s = row.reduce((a, b) => a + b, 0);
		const col = w >= h;
		const side = col ? h : w;
		const thick = side ? s / side : 0;
		let pos = col ? y : x;

		for (const a of row) {
			const len = thick ? a / thick : 0;

			out.push(col ? [x, pos, thick, len] : [pos, y, len, thick]);
			pos += len;
		}
		if (col) {
			x += thick;
			w -= thick;
		} else {
			y += thick;
			h -= thick;
		}
		row = [];
	};
	while (i < areas.length) {
		const side = Math.min(w, h);

		if (!row.length ||
		    worst(row.concat(areas[i]), side) <= worst(row, side)) {
			row.push(areas[i]);
			i++;
		} else {
			place();
		}
	}
	if (row.length)
		place();
	return out;
}

/* ---- the treemap ---- */

const tm = $('treemap');
const tip = $('tip');

function tipText(lf) {
	const r = lf.row;

	if (isDiff && isAllocinfo)
		return r.site + ' (' + r.status + ')\nlive bytes ' +
			exact(r.a.live_bytes) + ' -> ' + exact(r.b.live_bytes) +
			' (' + signed(r.d_live_bytes) + ')\nlive allocations ' +
			exact(r.a.live) + ' -> ' + exact(r.b.live) + ' (' +
			signed(r.d_live) + ')';
	if (isAllocinfo)
		return r.site + '\n' + lf.path.join(' / ') + ':' + r.line +
			'\nlive bytes ' + exact(r.live_bytes) +
			', live allocations ' + exact(r.live) +
			(r.accurate ? '' : '\naccurate: no');
	if (isDiff)
		return r.site + ' (' + r.kind + ', ' + r.status + ')\n' +
			'bytes ' + exact(r.a.bytes_alloc) + ' -> ' +
			exact(r.b.bytes_alloc) + ' (' + signed(r.d_bytes) +
			')\nslack ' + signed(r.d_slack) + ', allocs ' +
			signed(r.d_allocs) + ', live bytes ' +
			signed(r.d_live_bytes);
	return r.site + ' (' + r.kind + ')\n' + lf.path.join(' / ') +
		'\nbytes ' + exact(r.bytes_alloc) + ', slack ' +
		exact(r.slack) + ', frag ' + r.frag_pct + '%\nallocs ' +
		exact(r.allocs) + ', frees ' + exact(r.frees) +
		', live bytes ' + exact(r.live_bytes);
}

function layout(node, x, y, w, h, depth) {
	if (node.leaf) {
		const lf = node.leaf;
		const t = el('div', { class: 'tile' + (node.parent === zoom ?
						     ' leafzoom' : '') +
				      (selected === lf ? ' sel' : '') });

		t.style.left = x + 'px';
		t.style.top = y + 'px';
		t.style.width = w + 'px';
		t.style.height = h + 'px';
		t.style.background = colour(lf);
		t.dataset.site = lf.name;
		t.dataset.index = lf.i;
		if (w > 36 && h > 13)
			t.textContent = lf.name + ' ' +
				human(lf.value(metric));
		t.addEventListener('click', () => tileClick(node));
		t.addEventListener('mousemove', (ev) => {
			tip.hidden = false;
			tip.textContent = tipText(lf);
			tip.style.left = Math.min(ev.clientX + 12,
				window.innerWidth - 300) + 'px';
			tip.style.top = (ev.clientY + 14) + 'px';
		});
		t.addEventListener('mouseleave', () => {
			tip.hidden = true;
		});
		tm.append(t);
		return;
	}
	if (node !== zoom) {
		const g = el('div', { class: 'group' },
			     el('span', { text: node.name }));

		g.style.left = x + 'px';
		g.style.top = y + 'px';
		g.style.width = w + 'px';
		g.style.height = h + 'px';
		tm.append(g);
		const head = h > 34 && w > 40 ? 14 : 0;

		x += 1;
		y += 1 + head;
		w = Math.max(0, w - 2);
		h = Math.max(0, h - 2 - head);
	}
	const kids = node.children.map((c) => [c, nodeValue(c)])
		.filter((c) => c[1] > 0)
		.sort((a, b) => b[1] - a[1]);
	const rects = squarify(kids.map((c) => c[1]), x, y, w, h);

	kids.forEach((c, i) => layout(c[0], ...rects[i], depth + 1));
}

function crumbs() {
	const c = $('tm-crumbs');
	const path = [];

	for (let n = zoom; n; n = n.parent)
		path.unshift(n);
	c.textContent = '';
	path.forEach((n, i) => {
		if (i)
			c.append(' / ');
		if (n === zoom) {
			c.append(el('b', { text: n.name }));
		} else {
			const a = el('a', { text: n.name });

			a.addEventListener('click', () => zoomTo(n));
			c.append(a);
		}
	});
	document.body.dataset.zoom = path.slice(1).map((n) => n.name)
		.join(' / ');
}

function draw() {
	tm.textContent = '';
	if (!leaves.length) {
		tm.append(el('p', { class: 'absent',
				    text: 'no call sites in this trace' }));
		return;
	}
	layout(zoom, 0, 0, tm.clientWidth, tm.clientHeight, 0);
	if (!tm.querySelector('.tile'))
		tm.append(el('p', { class: 'absent', text: 'every call ' +
				    'site here has 0 ' + metric }));
	crumbs();
}

/* a group with one group in it says nothing: show the inner one */
function zoomTo(n) {
	while (n.children.length === 1 && !n.children[0].leaf)
		n = n.children[0];
	zoom = n;
	draw();
}

function tileClick(leafNode) {
	let n = leafNode;

	while (n.parent && n.parent !== zoom)
		n = n.parent;
	if (n === leafNode)
		select(leafNode.leaf, true);
	else
		zoomTo(n);
}

function select(lf, scroll) {
	selected = lf;
	for (const t of tm.querySelectorAll('.tile.sel'))
		t.classList.remove('sel');
	const t = tm.querySelector('.tile[data-index="' + lf.i + '"]');

	if (t)
		t.classList.add('sel');
	$('tm-info').textContent = tipText(lf).replace(/\n/g, '; ');
	for (const tr of document.querySelectorAll('#sites tr.sel'))
		tr.classList.remove('sel');
	const tr = document.querySelector('#sites tr[data-index="' +
					   lf.i + '"]');

	if (tr) {
		tr.classList.add('sel');
		if (scroll)
			tr.scrollIntoView({ block: 'nearest' });
	}
}

function treemap() {
	const sel = $('tm-metric');

	for (const [k, label] of METRICS)
		sel.append(el('option', { value: k, text: label }));
	sel.addEventListener('change', () => {
		metric = sel.value;
		chooseScale(true);
		draw();
	});
	$('tm-scale').addEventListener('change', () => {
		scale = $('tm-scale').value;
		chooseScale(false);
		draw();
	});
	chooseScale(true);
	tmLegend();
	zoomTo(root);
	window.addEventListener('resize', draw);
}

/* ---- the call-site table ---- */

const get = (path) => (r) => path.reduce((o, k) => (o ? o[k] : undefined), r);
const COLS = isDiff && isAllocinfo ? [
	['site', 'site', 1], ['status', 'status', 1],
	['d_live_bytes', '\u0394 live bytes'],
	['d_live', '\u0394 live allocations'],
	['a.live_bytes', 'A live bytes'], ['b.live_bytes', 'B live bytes'],
	['a.live', 'A live allocations'], ['b.live', 'B live allocations'],
] : isAllocinfo ? [
	['site', 'site', 1], ['group', 'group', 1], ['file', 'file', 1],
	['line', 'line'], ['live_bytes', 'live bytes'],
	['live', 'live allocations'], ['accurate', 'accurate', 1],
] : isDiff ? [
	['site', 'site', 1], ['kind', 'kind', 1],
	['status', 'status', 1], ['d_bytes', '\u0394 bytes'],
	['d_slack', '\u0394 slack'], ['d_allocs', '\u0394 allocs'],
	['d_live_bytes', '\u0394 live bytes'],
	['a.bytes_alloc', 'A bytes'], ['b.bytes_alloc', 'B bytes'],
	['a.slack', 'A slack'], ['b.slack', 'B slack'],
	['a.allocs', 'A allocs'], ['b.allocs', 'B allocs'],
	['a.live_bytes', 'A live bytes'],
	['b.live_bytes', 'B live bytes'],
] : [
	['site', 'site', 1], ['kind', 'kind', 1], ['group', 'group', 1],
	['bytes_alloc', 'alloc'], ['bytes_req', 'req'],
	['slack', 'slack'], ['frag_pct', 'frag %'],
	['allocs', 'allocs'], ['frees', 'frees'], ['live', 'live'],
	['live_bytes', 'live bytes'], ['live_waste', 'live waste'],
	['pingpong', 'ping-pong'],
	['freed_untraced', 'freed untraced'],
	/* charged to a memory cgroup: blank where the trace does not say */
	['accounted_bytes', 'memcg bytes'], ['gfp', 'gfp', 1],
];

function siteTable() {
	const t = $('sites');
	const rows = leaves.slice();
	let sortCol = -1, desc = true;
	const value = COLS.map(([k]) => k === 'group' ?
		(lf) => lf.path[0] : ((g) => (lf) => g(lf.row))(get(k.split('.'))));
	const head = el('tr');
	const body = el('tbody');

	if (!S.callsite && !isDiff) {
		t.replaceWith(el('p', { class: 'absent',
					text: 'not in this trace' }));
		return;
	}
	COLS.forEach(([k, label, txt], c) => {
		const th = el('th', { class: txt ? 'txt' : '',
				      'data-key': k, text: label });

		th.addEventListener('click', () => {
			desc = sortCol === c ? !desc : !txt;
			sortCol = c;
			rows.sort((a, b) => {
				const x = value[c](a), y = value[c](b);
				let d;

				if (typeof x === 'number' && typeof y === 'number')
					d = x - y;
				else
					d = String(x ?? '').localeCompare(String(y ?? ''));
				return desc ? -d : d;
			});
			for (const h of head.children)
				h.classList.remove('sorted-asc', 'sorted-desc');
			th.classList.add(desc ? 'sorted-desc' : 'sorted-asc');
			fill();
		});
		head.append(th);
	});
	const trs = leaves.map((lf) => {
		const tr = el('tr', { 'data-index': lf.i });

		COLS.forEach(([k, , txt], c) => {
			const v = value[c](lf);
			/* a diff: growth red, shrinkage green; new and gone */
			const cls = k.startsWith('d_') ? growthClass(v) :
				k === 'status' ? 'st-' + v : '';

			tr.append(el('td', { class: ((txt ? 'txt ' : '') + cls).trim() ||
					     null, text: k.startsWith('d_') ?
					     signed(v) : exact(v) }));
		});
		tr.addEventListener('click', () => select(lf, false));
		return tr;
	});
	const filter = $('tbl-filter');

	function fill() {
		const q = filter.value.toLowerCase();
		let n = 0;

		body.textContent = '';
		for (const lf of rows) {
			const hay = (lf.name + ' ' + lf.path.join(' ')).toLowerCase();

			if (q && !hay.includes(q))
				continue;
			body.append(trs[lf.i]);
			n++;
		}
		$('tbl-count').textContent = n + ' of ' + rows.length +
			' rows' + (M.rows_hidden || (S.callsite &&
			S.callsite.rows_hidden) ? ' (' +
			(M.rows_hidden || S.callsite.rows_hidden) +
			' more left out of the report)' : '');
	}
	filter.addEventListener('input', fill);
	t.append(el('thead', null, head), body);
	fill();
}
