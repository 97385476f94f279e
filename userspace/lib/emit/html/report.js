/*
 * The slabacct HTML report's script (embedded into the page; no
 * libraries, no network). It reads the report's JSON model, the same
 * object `slabacct report --json` prints (or `slabacct diff --json`),
 * from the sa-model element and draws:
 *   - the origin and lost events of the trace, at the top;
 *   - a squarified treemap of subsystem -> file or module -> call site,
 *     sized by a metric of choice and coloured by frag % (a diff: by
 *     growth or shrinkage); a click zooms one level in;
 *   - the call-site table, sortable by any column;
 *   - the timeline of allocated - freed bytes, as inline SVG;
 *   - the page and reclaim sections and any other, or "not in this trace".
 * It computes no figure of its own: every number shown is in the model.
 */
'use strict';

(function () {
	const M = JSON.parse(document.getElementById('sa-model').textContent);
	const isDiff = M.tool === 'slabacct diff';
	const S = M.sections || {};
	const $ = (id) => document.getElementById(id);
	const SVGNS = 'http://www.w3.org/2000/svg';

	function el(tag, attrs, ...kids) {
		const e = document.createElement(tag);
		for (const [k, v] of Object.entries(attrs || {})) {
			if (k === 'class')
				e.className = v;
			else if (k === 'text')
				e.textContent = v;
			else
				e.setAttribute(k, v);
		}
		for (const k of kids)
			if (k !== null && k !== undefined)
				e.append(k);
		return e;
	}

	function svg(tag, attrs) {
		const e = document.createElementNS(SVGNS, tag);
		for (const [k, v] of Object.entries(attrs || {}))
			e.setAttribute(k, v);
		return e;
	}

	/* Exact numbers in tables; short ones on tiles. */
	function exact(v) {
		if (typeof v === 'number')
			return v.toLocaleString('en-US');
		if (v === null || v === undefined)
			return '';
		return String(v);
	}

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

	/* ---- the header: origin, lost events, notes ---- */

	/* what slab_account.ko could not account, from a snapshot's input */
	function notCounted(i) {
		return 'not counted: ' + exact(i.dropped) +
			' allocations (site table full), ' + exact(i.map_full) +
			' not tracked (map full)';
	}

	function header() {
		const o = $('origin');
		const line = (label, value) => {
			if (value === null || value === undefined || value === '')
				return;
			o.append(el('div', null, label + ': ',
				    el('b', { text: String(value) })));
		};

		if (isDiff) {
			$('title').textContent = 'slabacct diff';
			for (const k of ['a', 'b']) {
				const s = M[k] || {};
				line(k.toUpperCase(), s.file + ' (' + s.source +
				     (s.kernel_release ? ', ' + s.kernel_release : '') +
				     ')');
			}
			const c = M.change || {};
			line('change', 'bytes ' + signed(c.bytes_alloc) +
			     ', slack ' + signed(c.slack) + ', allocs ' +
			     signed(c.allocs) + ', live bytes ' +
			     signed(c.live_bytes) + '; sites new ' + c.sites_new +
			     ', gone ' + c.sites_gone + ', changed ' +
			     c.sites_changed + ', unchanged ' + c.sites_unchanged);
			const lost = $('lost');
			for (const k of ['a', 'b']) {
				const s = M[k] || {};
				let msg, cls = 'ok';

				if (s.input) {
					msg = k.toUpperCase() + ': ' + notCounted(s.input);
					if (s.input.dropped + s.input.map_full > 0)
						cls = 'bad';
				} else if (!s.lost_known) {
					msg = k.toUpperCase() + ': lost events unknown';
					cls = 'bad';
				} else if (s.lost_events > 0) {
					msg = k.toUpperCase() + ': ' + exact(s.lost_events) +
						' events lost: its figures are incomplete';
					cls = 'bad';
				} else {
					msg = k.toUpperCase() + ': no events lost';
				}
				lost.append(el('span', { class: cls, id: 'lost-' + k,
							 text: msg }), ' ');
			}
			return;
		}
		$('title').textContent = 'slabacct report: ' + (M.file || '');
		if (M.input) {
			/* a /proc/slab_account snapshot: no trace origin */
			const i = M.input;

			line('input', 'a /proc/slab_account snapshot, format ' +
			     i.format_version);
			line('tables', exact(i.sites) + ' call-site slots, ' +
			     exact(i.objects) + ' live-object slots');
			line('frees of untracked objects',
			     exact(i.untracked_frees) + ', lost frees ' +
			     exact(i.lost_frees));
			$('lost').append(el('span', {
				class: i.dropped + i.map_full > 0 ? 'bad' : 'ok',
				id: 'lost-msg', text: notCounted(i) }));
			for (const n of M.notes || [])
				$('notes').append(el('li', { text: n }));
			return;
		}
		const g = M.origin || {};
		line('kernel', g.kernel_release);
		line('uname', g.uname);
		line('cmdline', g.cmdline);
		line('recorded by', g.recorder);
		line('command', g.command);
		line('left out', g.left_out);
		line('filter', g.filter);
		line('cpus', g.nr_cpus);
		line('clock', g.clock);
		if (g.duration_ns !== undefined)
			line('duration', (g.duration_ns / 1e9).toFixed(6) + ' s');
		const r = M.records || {};
		line('records', exact(r.total) + ' (' + exact(r.used) + ' used)');
		if (r.kmalloc_repeats !== undefined)
			line('large kmalloc traced twice', exact(r.kmalloc_repeats) +
			     ' (counted once, at its caller)');

		const L = M.lost || {};
		const lost = $('lost');
		const missed = (L.missed_in_buffer || 0) +
			(L.missed_pages_unknown || 0);
		let msg, cls = 'bad';

		if (L.known && L.events > 0)
			msg = 'lost events: ' + exact(L.events) +
				' (ring-buffer overruns: the figures are incomplete)';
		else if (!L.known)
			msg = 'lost events: unknown (the trace has no per-CPU ' +
				'statistics)';
		else if (missed > 0)
			msg = 'lost events: the buffer flags ' + exact(missed) +
				' gaps (the figures are incomplete)';
		else {
			msg = 'lost events: none';
			cls = 'ok';
		}
		if (L.known && L.events > 0 && (L.per_cpu || []).length)
			msg += '; per CPU: ' + L.per_cpu.map(exact).join(', ');
		lost.append(el('span', { class: cls, id: 'lost-msg', text: msg }));
		for (const n of M.notes || [])
			$('notes').append(el('li', { text: n }));
	}

	/* ---- the leaves: one per call-site row ---- */

	const METRICS = isDiff ? [
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

			return { i, row: r, name: r.site, kind: r.kind,
				 path: [mod ? '[' + mod[1] + ']' : 'vmlinux', func],
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

	function nodeValue(n) {
		if (n.leaf)
			return n.leaf.value(metric);
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
		const d = r[m[2]] || 0;
		const base = Math.max(Math.abs(r.a[metric] || 0),
				      Math.abs(r.b[metric] || 0));
		const t = base ? Math.min(1, Math.abs(d) / base) : 0;

		if (!d)
			return 'hsl(220, 8%, 82%)';
		/* grew: red; shrank: green */
		return 'hsl(' + (d > 0 ? 0 : 130) + ', ' +
			(35 + 45 * t).toFixed(0) + '%, ' +
			(82 - 30 * t).toFixed(0) + '%)';
	}

	function colour(lf) {
		return isDiff ? diffColour(lf.row) : fragColour(lf.row.frag_pct);
	}

	function legend() {
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
			draw();
		});
		legend();
		zoomTo(root);
		window.addEventListener('resize', draw);
	}

	/* ---- the call-site table ---- */

	const get = (path) => (r) => path.reduce((o, k) => (o ? o[k] : undefined), r);
	const COLS = isDiff ? [
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
		['freed_untraced', 'freed untraced'], ['gfp', 'gfp', 1],
	];

	function table() {
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

				tr.append(el('td', { class: txt ? 'txt' : '',
						     text: k.startsWith('d_') ?
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

	/* ---- the timeline ---- */

	function timeline() {
		const box = $('timeline');
		const tl = S.timeline;

		if (isDiff) {
			box.append(el('p', { class: 'absent', text: 'not in a ' +
					     'diff (open each recording\'s report)' }));
			return;
		}
		if (!tl || !tl.bins || !tl.bins.length) {
			box.append(el('p', { class: 'absent', text: 'not in this ' +
					     'trace' }));
			return;
		}
		const W = 900, H = 240, L = 70, R = 10, T = 10, B = 30;
		const bins = tl.bins;
		const t1 = (bins[bins.length - 1].start_ns + tl.interval_ns) / 1e9;
		let lo = 0, hi = 0;

		for (const b of bins) {
			lo = Math.min(lo, b.outstanding, b.net);
			hi = Math.max(hi, b.outstanding, b.net);
		}
		if (hi === lo)
			hi = lo + 1;
		const X = (t) => L + (W - L - R) * t / (t1 || 1);
		const Y = (v) => T + (H - T - B) * (hi - v) / (hi - lo);
		const s = svg('svg', { viewBox: '0 0 ' + W + ' ' + H,
				       width: '100%', id: 'timeline-svg',
				       style: 'max-width:' + W + 'px' });
		const bw = Math.max(1, X(tl.interval_ns / 1e9) - X(0) - 1);
		let d = 'M' + X(0) + ',' + Y(0);

		s.append(svg('line', { x1: L, x2: W - R, y1: Y(0), y2: Y(0),
				       stroke: '#aaa' }));
		for (const b of bins) {
			const t = b.start_ns / 1e9;
			const bar = svg('rect', {
				x: X(t), width: bw,
				y: Math.min(Y(0), Y(b.net)),
				height: Math.abs(Y(0) - Y(b.net)),
				fill: b.net >= 0 ? '#e3a0a0' : '#9fd3a8',
			});
			const title = svg('title');

			title.textContent = 't ' + t.toFixed(6) + ' s: allocated ' +
				exact(b.alloc_bytes) + ', freed ' +
				exact(b.freed_bytes) + ', net ' + signed(b.net) +
				', outstanding ' + exact(b.outstanding);
			bar.append(title);
			s.append(bar);
			d += ' L' + X(t) + ',' + Y(b.outstanding) + ' L' +
				X(t + tl.interval_ns / 1e9) + ',' + Y(b.outstanding);
		}
		s.append(svg('path', { d, fill: 'none', stroke: '#2b5fb4',
				       'stroke-width': 2 }));
		for (let i = 0; i <= 4; i++) {
			const v = lo + (hi - lo) * i / 4;
			const tx = svg('text', { x: L - 6, y: Y(v) + 4,
						 'text-anchor': 'end' });

			tx.textContent = human(Math.round(v));
			s.append(tx);
			const t = t1 * i / 4;
			const xt = svg('text', { x: X(t), y: H - 10,
						 'text-anchor': 'middle' });

			xt.textContent = t.toFixed(t1 < 0.1 ? 4 : 2) + ' s';
			s.append(xt);
		}
		box.append(s, el('p', { class: 'legend', text: 'line: ' +
				   'outstanding bytes (running sum); bars: net ' +
				   'bytes per ' + (tl.interval_ns / 1e6) + ' ms bin ' +
				   '(red: allocated more than freed)' }));
	}

	/* ---- any section: tables, histograms, key/value lists ---- */

	const isScalar = (v) => v === null || typeof v !== 'object';
	/* objects of numbers drawn as bars: distributions, not totals */
	const HIST = /age|hist|latenc|bucket|order|dist|lat_|_us$|_ns$/i;

	function histogram(obj) {
		const h = el('div', { class: 'hist' });
		const vals = Object.values(obj);
		const mx = Math.max(1, ...vals);

		for (const [k, v] of Object.entries(obj)) {
			const bar = el('div', { class: 'bar' });

			bar.style.width = (100 * v / mx) + '%';
			h.append(el('span', { text: k }), el('div', null, bar),
				 el('span', { text: exact(v) }));
		}
		return h;
	}

	function objTable(arr) {
		const cols = [];

		for (const r of arr)
			for (const k of Object.keys(r))
				if (!cols.includes(k))
					cols.push(k);
		const t = el('table', { class: 'data' });
		const hr = el('tr');

		for (const k of cols)
			hr.append(el('th', { text: k }));
		t.append(el('thead', null, hr));
		const body = el('tbody');

		for (const r of arr) {
			const tr = el('tr');

			for (const k of cols) {
				const v = r[k];

				tr.append(el('td', { class: typeof v === 'number' ?
						     '' : 'txt', text: isScalar(v) ?
						     exact(v) : JSON.stringify(v) }));
			}
			body.append(tr);
		}
		t.append(body);
		return el('div', { class: 'scroll' }, t);
	}

	/* rows of {order, migratetype, blocks, pages}: an order x type grid */
	function pivot(arr) {
		const types = [...new Set(arr.map((r) => r.migratetype))];
		const orders = [...new Set(arr.map((r) => r.order))]
			.sort((a, b) => Number(a) - Number(b));
		const t = el('table', { class: 'data pivot' });
		const hr = el('tr', null, el('th', { class: 'txt',
						     text: 'order \\ type' }));

		for (const ty of types)
			hr.append(el('th', { text: ty }));
		t.append(el('thead', null, hr));
		const body = el('tbody');

		for (const o of orders) {
			const tr = el('tr', null, el('td', { class: 'txt', text: o }));

			for (const ty of types) {
				const r = arr.find((x) => x.order === o &&
						   x.migratetype === ty);
				const td = el('td', { text: r ? exact(r.pages) : '' });

				if (r)
					td.title = exact(r.blocks) + ' blocks, ' +
						exact(r.pages) + ' pages';
				tr.append(td);
			}
			body.append(tr);
		}
		t.append(body);
		return el('div', null, t, el('p', { class: 'legend',
			text: 'pages (hover: blocks)' }));
	}

	function renderAny(obj, box) {
		const kv = el('table', { class: 'kv' });

		for (const [k, v] of Object.entries(obj)) {
			if (isScalar(v)) {
				kv.append(el('tr', null, el('td', { text: k }),
					     el('td', { text: exact(v) })));
			}
		}
		if (kv.children.length)
			box.append(kv);
		for (const [k, v] of Object.entries(obj)) {
			if (isScalar(v))
				continue;
			if (Array.isArray(v)) {
				box.append(el('h3', { text: k }));
				if (!v.length)
					box.append(el('p', { class: 'absent',
							     text: 'none' }));
				else if (v.every((x) => !isScalar(x) && !Array.isArray(x) &&
						 'order' in x && 'migratetype' in x))
					box.append(pivot(v));
				else if (v.every((x) => !isScalar(x) && !Array.isArray(x)))
					box.append(objTable(v));
				else
					box.append(el('p', { text: v.map((x) => isScalar(x) ?
						exact(x) : JSON.stringify(x)).join(', ') }));
				continue;
			}
			const vals = Object.values(v);

			box.append(el('h3', { text: k }));
			if (HIST.test(k) && vals.length > 1 &&
			    vals.every((x) => typeof x === 'number'))
				box.append(histogram(v));
			else
				renderAny(v, box);
		}
	}

	/* the events behind sections, by name in the model's records */
	const EVENTS = {
		pages: /^mm_page_/,
		reclaim: /^mm_(vmscan|shrink)_/,
		compaction: /^mm_compaction_/,
		oom: /^(mark_victim|wake_reaper|.*_task_reaping|reclaim_retry_zone|compact_retry)$/,
	};

	/* A section whose events the trace lacks: say so, keep the rest. */
	function absent(name) {
		const re = EVENTS[name];
		const rec = Object.entries(M.records || {})
			.filter(([k]) => re && re.test(k));

		if (!rec.length || rec.some(([, v]) => v > 0))
			return null;
		const note = (M.notes || []).find((n) => n.startsWith(name + ':'));

		return 'not in this trace' + (note ? ': ' +
			note.slice(name.length + 1).trim() : '');
	}

	function renderSection(name, box) {
		const why = absent(name);

		if (!why) {
			renderAny(S[name], box);
			return;
		}
		const d = el('details', null, el('summary', {
			text: 'what the report holds without them' }));

		box.append(el('p', { class: 'absent', text: why }), d);
		renderAny(S[name], d);
	}

	function section(name, boxId, hint) {
		const box = $(boxId);

		if (isDiff) {
			box.append(el('p', { class: 'absent', text: 'not in a diff' }));
			return;
		}
		if (!S[name]) {
			box.append(el('p', { class: 'absent', text: 'not in this ' +
					     'trace' + (hint ? ' (' + hint + ')' : '') }));
			return;
		}
		renderSection(name, box);
	}

	function others() {
		const box = $('other');
		const known = ['callsite', 'timeline', 'pages', 'reclaim'];
		const names = Object.keys(S).filter((k) => !known.includes(k));

		if (!names.length) {
			$('sec-other').hidden = true;
			return;
		}
		for (const k of names) {
			const d = el('details', { open: '' },
				     el('summary', { text: k }));

			renderSection(k, d);
			box.append(d);
		}
	}

	function toc() {
		const t = $('toc');

		for (const s of document.querySelectorAll('main > section')) {
			if (s.hidden)
				continue;
			t.append(el('a', { href: '#' + s.id,
					   text: s.querySelector('h2').textContent }));
		}
	}

	header();
	treemap();
	table();
	timeline();
	section('pages', 'pages', 'record with -e page');
	section('reclaim', 'reclaim', 'record with -e vmscan');
	others();
	toc();
	document.body.dataset.ready = '1';
	document.body.dataset.leaves = String(leaves.length);
}());
