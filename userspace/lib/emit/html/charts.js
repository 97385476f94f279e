/*
 * The HTML report's script, part 2 of 6: charts, as inline SVG and
 * coloured tables: a histogram's columns, bars of a ranking, a heat map,
 * the timeline and its phases, the diverging bars of a diff.
 */

/*
 * A histogram: obj is {bucket: count} in the model's order ("<10us",
 * "<100us", ...). Columns with their count above and bucket below.
 */
function histChart(obj, what) {
	const keys = Object.keys(obj);
	const W = Math.max(320, 70 * keys.length), H = 150;
	const T = 18, B = 22, bw = W / keys.length;
	const mx = Math.max(1, ...Object.values(obj));
	const s = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, class: 'hist-chart',
			       width: W, height: H, role: 'img',
			       'aria-label': what || 'histogram' });

	keys.forEach((k, i) => {
		const v = obj[k];
		const h = (H - T - B) * v / mx;
		const x = i * bw + bw * 0.15;
		const r = svg('rect', { x, width: bw * 0.7, y: H - B - h,
					height: Math.max(h, v ? 1 : 0), class: 'bar',
					'data-v': v });

		r.append(svg('title', null, k + ': ' + exact(v) +
			     (what ? ' ' + what : '')));
		s.append(r);
		s.append(svg('text', { x: x + bw * 0.35, y: H - B - h - 4,
				       'text-anchor': 'middle', class: 'val' },
			     exact(v)));
		s.append(svg('text', { x: x + bw * 0.35, y: H - 6,
				       'text-anchor': 'middle' }, k));
	});
	s.append(svg('line', { x1: 0, x2: W, y1: H - B, y2: H - B,
			       stroke: '#aaa' }));
	return el('div', { class: 'chart' }, s);
}

/*
 * Horizontal bars of a ranking: items [{label, value, text, title}],
 * the bar proportional to value (its absolute value).
 */
function barList(items, opts) {
	const o = opts || {};
	const box = el('div', { class: 'bars' + (o.cls ? ' ' + o.cls : '') });
	const mx = Math.max(1, ...items.map((i) => Math.abs(i.value)));

	for (const it of items) {
		const bar = el('div', { class: 'bar' + (it.cls ? ' ' + it.cls : ''),
					'data-v': it.value });

		bar.style.width = (100 * Math.abs(it.value) / mx) + '%';
		box.append(el('span', { class: 'lbl', text: it.label,
					title: it.label }),
			   el('div', { class: 'track', title: it.title || null }, bar),
			   el('span', { class: 'num', text: it.text ?? exact(it.value),
					title: exact(it.value) }));
	}
	return box;
}

/* A colour for t in [0, 1]: white to the hue's full colour */
function heat(t, hue) {
	if (!(t > 0))
		return '';
	const l = 96 - 52 * Math.min(1, t);

	return 'hsl(' + (hue ?? 215) + ', ' + (45 + 35 * t).toFixed(0) + '%, ' +
		l.toFixed(0) + '%)';
}

/*
 * A heat map: rows x cols, cell(r, c) -> {v, text, title} or null. The
 * colour grows with v (on a log scale unless opts.linear, up to opts.max
 * or the largest v). opts: {corner, hue, linear, max, unit}.
 */
function heatmap(rows, cols, cell, opts) {
	const o = opts || {};
	const cells = rows.map((r) => cols.map((c) => cell(r, c)));
	let mx = o.max || 0;

	if (!mx)
		for (const row of cells)
			for (const x of row)
				if (x && x.v > mx)
					mx = x.v;
	const scale = (v) => (o.linear ? v / (mx || 1) :
			      Math.log1p(v) / Math.log1p(mx || 1));
	const t = el('table', { class: 'data heat' });
	const hr = el('tr', null, el('th', { class: 'txt corner',
					     text: o.corner || '' }));

	for (const c of cols)
		hr.append(el('th', { text: String(c) }));
	t.append(el('thead', null, hr));
	const body = el('tbody');

	rows.forEach((r, i) => {
		const tr = el('tr', null, el('th', { class: 'txt', text: String(r) }));

		cols.forEach((c, j) => {
			const x = cells[i][j];
			const td = el('td', { text: x ? (x.text ?? exact(x.v)) : '' });

			if (x) {
				td.dataset.v = x.v;
				td.title = x.title || exact(x.v);
				td.style.background = heat(scale(x.v), o.hue);
				if (scale(x.v) > 0.7)
					td.classList.add('dark');
			}
			tr.append(td);
		});
		body.append(tr);
	});
	t.append(body);
	const lg = el('span', { class: 'ramp' });

	for (let k = 0; k <= 4; k++)
		lg.append(el('span', { class: 'sw', style: 'background:' +
				      (heat(k / 4, o.hue) || '#fff') }));
	return el('div', { class: 'heatbox' }, el('div', { class: 'scroll' }, t),
		  el('p', { class: 'legend' }, lg, ' ' + (o.linear ? '' :
		     'log scale, ') + 'from 0 to ' + (o.fmtMax ? o.fmtMax(mx) :
		     exact(mx)) + (o.unit ? ' ' + o.unit : '')));
}

/*
 * The timeline: per bin, bytes allocated (up) and freed (down), the
 * outstanding total as a line; phases [{label, from_ns, to_ns}] shaded
 * and labelled: the boot phases (boot: class "boot", named by their
 * level) or activity runs (class "activity", numbered); marks [{t,
 * label}] at times of the trace (ns, the trace's clock). The x axis is
 * the trace's clock in seconds when it counts from boot (a boot trace:
 * seconds since boot), else seconds from the first event.
 */
function timelineChart(tl, phases, marks, fromBoot, boot) {
	const W = 960, H = 300, L = 70, R = 28, T = 26, B = 34;
	const bins = tl.bins;
	const iv = tl.interval_ns / 1e9;
	const t0 = fromBoot ? tl.t0_ns / 1e9 : 0;
	const t1 = t0 + bins[bins.length - 1].start_ns / 1e9 + iv;
	let lo = 0, hi = 0;

	for (const b of bins) {
		lo = Math.min(lo, -b.freed_bytes - b.untraced_bytes, b.outstanding);
		hi = Math.max(hi, b.alloc_bytes, b.outstanding);
	}
	if (hi === lo)
		hi = lo + 1;
	const X = (t) => L + (W - L - R) * (t - t0) / ((t1 - t0) || 1);
	const Y = (v) => T + (H - T - B) * (hi - v) / (hi - lo);
	const s = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, width: '100%',
			       id: 'timeline-svg', role: 'img',
			       'aria-label': 'allocated and freed bytes over time',
			       style: 'max-width:' + W + 'px' });
	const bw = Math.max(1, X(t0 + iv) - X(t0) - 1);
	const ends = Array(6).fill(-Infinity);
	const lbls = [];	/* drawn last: over the shades and the bars */

	phases.forEach((p, i) => {
		const x = Math.min(X(t0 + p.from_ns / 1e9), W - R);
		const w = Math.max(0, Math.min(X(t0 + p.to_ns / 1e9), W - R) - x);
		const g = svg('rect', { x, y: T - 14, width: w, height: H - T - B + 14,
					class: 'phase ' + (boot ? 'boot' : 'activity') +
					       (i % 2 ? ' odd' : '') });
		const lbl = String(p.label);

		/* a label goes to the first row where it overlaps none */
		let row = ends.findIndex((e) => x >= e);

		if (row < 0)
			row = ends.indexOf(Math.min(...ends));
		ends[row] = x + 3 + 7 * lbl.length;
		g.append(svg('title', null, (boot ? 'boot phase ' : 'activity run ') +
			     lbl));
		s.append(g);
		lbls.push(svg('text', { x: x + 3, y: T - 4 + 11 * row,
					class: 'phase-lbl' }, lbl));
	});
	s.append(svg('line', { x1: L, x2: W - R, y1: Y(0), y2: Y(0),
			       stroke: '#999' }));
	let d = '';

	for (const b of bins) {
		const t = t0 + b.start_ns / 1e9;
		const tip = secs(t, t1 - t0) + ': allocated ' + bytes(b.alloc_bytes) +
			' (' + exact(b.allocs) + '), freed ' + bytes(b.freed_bytes) +
			' (' + exact(b.frees) + ')' + (b.untraced_bytes ? ', freed ' +
			'untraced ' + bytes(b.untraced_bytes) : '') + ', net ' +
			signedBytes(b.net) + ', outstanding ' + bytes(b.outstanding);
		const up = svg('rect', { x: X(t), width: bw, y: Y(b.alloc_bytes),
					 height: Y(0) - Y(b.alloc_bytes),
					 class: 'alloc' });
		const down = svg('rect', { x: X(t), width: bw, y: Y(0),
			height: Y(-b.freed_bytes - b.untraced_bytes) - Y(0),
			class: 'freed' });

		up.append(svg('title', null, tip));
		down.append(svg('title', null, tip));
		s.append(up, down);
		d += (d ? ' L' : 'M') + X(t) + ',' + Y(b.outstanding) + ' L' +
			X(t + iv) + ',' + Y(b.outstanding);
	}
	s.append(svg('path', { d, class: 'outstanding' }), ...lbls);
	/* bytes at round steps (a power of two) from 0, up and down */
	const step = 2 ** Math.ceil(Math.log2((hi - lo) / 5 || 1));

	for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) {
		s.append(svg('text', { x: L - 6, y: Y(v) + 4, 'text-anchor': 'end' },
			     human(v)));
		s.append(svg('line', { x1: L - 3, x2: L, y1: Y(v), y2: Y(v),
				       stroke: '#999' }));
	}
	for (let i = 0; i <= 4; i++) {
		const t = t0 + (t1 - t0) * i / 4;

		s.append(svg('text', { x: X(t), y: H - 14, 'text-anchor': 'middle' },
			     secs(t, t1 - t0)));
	}
	s.append(svg('text', { x: (L + W - R) / 2, y: H - 1,
			       'text-anchor': 'middle', class: 'axis' },
		     fromBoot ? 'seconds since boot (the trace clock)' :
		     'seconds from the first event'));
	for (const m of marks) {
		const x = X(fromBoot ? m.t / 1e9 : (m.t - tl.t0_ns) / 1e9);

		if (x < L || x > W - R)
			continue;
		const line = svg('line', { x1: x, x2: x, y1: T - 14, y2: H - B,
					   class: 'mark' });

		line.append(svg('title', null, m.label));
		s.append(line, svg('text', { x: x - 3, y: T + 8, class: 'mark-lbl',
					     'text-anchor': 'end' }, m.label));
	}
	return el('div', { class: 'chart' }, s);
}

/* A diff's growth and shrinkage: red for growth, green for shrinkage */
function growthClass(d) {
	return d > 0 ? 'grow' : d < 0 ? 'shrink' : 'same';
}

/* The colour of a change d against a base (its size): red grew, green shrank */
function growthColour(d, base) {
	const t = base ? Math.min(1, Math.abs(d) / base) : 0;

	if (!d)
		return 'hsl(220, 8%, 82%)';
	return 'hsl(' + (d > 0 ? 0 : 130) + ', ' + (35 + 45 * t).toFixed(0) +
		'%, ' + (82 - 30 * t).toFixed(0) + '%)';
}

/*
 * Diverging bars: items [{label, value, text, title}], growth to the
 * right in red, shrinkage to the left in green.
 */
function divergingBars(items) {
	const box = el('div', { class: 'dbars' });
	const mx = Math.max(1, ...items.map((i) => Math.abs(i.value)));

	for (const it of items) {
		const w = (50 * Math.abs(it.value) / mx) + '%';
		const bar = el('div', { class: 'bar ' + growthClass(it.value),
					'data-v': it.value });

		bar.style.width = w;
		if (it.value < 0)
			bar.style.right = '50%';
		else
			bar.style.left = '50%';
		box.append(el('span', { class: 'lbl', text: it.label,
					title: it.label }),
			   el('div', { class: 'track', title: it.title || null },
			      el('div', { class: 'axis' }), bar),
			   el('span', { class: 'num ' + growthClass(it.value),
					text: it.text, title: exact(it.value) }));
	}
	return box;
}
