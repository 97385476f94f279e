/*
 * The HTML report's script, part 5 of 6: a merge of many runs, the model
 * of `slabacct merge --json` (tool "slabacct merge"): the runs with their
 * lost events and their sum, the spread of the runs' totals, the call
 * sites with the sum and spread of a measure of choice and in how many
 * runs each appears, and the spread of the top sites as min-median-max
 * bars. It computes no figure: each is the model's, in human units with
 * the exact number on hover. The page's treemap and call-site table are
 * a report's and a diff's; a merge hides them.
 */

const isMerge = M.tool === 'slabacct merge';

/* A merge's measures, as the model names them: key, label, format */
const MERGE_MEASURES = [
	['bytes_alloc', 'bytes allocated', bytes],
	['bytes_req', 'bytes requested', bytes],
	['slack', 'slack', bytes],
	['allocs', 'allocations', exact],
	['frees', 'frees', exact],
	['live', 'live objects', exact],
	['live_bytes', 'live bytes', bytes],
];

const mergeMeasure = (k) => MERGE_MEASURES.find((x) => x[0] === k) ||
	MERGE_MEASURES[0];

/* a run's lost events: a number, or why there is none */
function runLost(r) {
	if (r.source === 'account')
		return 'none: a snapshot';
	const lost = r.lost_known ? r.lost_events : 'unknown';
	/* a run that stopped early: its figures are incomplete too */
	return r.truncated ? exact(lost) + '; ' + truncatedMsg(r.truncated) :
		lost;
}

function mergeHeader() {
	const runs = M.runs || [];
	const o = $('origin');
	const line = (label, value) => o.append(el('div', null, label + ': ',
						   el('b', { text: String(value) })));
	const L = M.lost || {};
	const kernels = [...new Set(runs.map((r) => r.kernel_release)
				    .filter(Boolean))];
	let msg, cls = 'bad';

	$('title').textContent = 'slabacct merge: ' + runs.length +
		(runs.length === 1 ? ' run' : ' runs');
	line('runs', exact(runs.length) + ', call sites matched by ' + M.by);
	line('kernel', M.kernel_release || (kernels.length ? kernels.join(', ') +
	     (kernels.length > 1 ? ' (not the same in every run)' :
	      ' (some runs do not say)') : 'not known'));
	line('call sites', exact((M.rows || []).length) + (M.rows_hidden ?
	     ', and ' + exact(M.rows_hidden) + ' more left out (--top)' : ''));
	if (!L.known)
		msg = 'lost events: not known for every run (a trace without ' +
			'per-CPU statistics); ' + exact(L.events) + ' counted';
	else if (L.events > 0)
		msg = 'lost events: ' + exact(L.events) + ' over the runs ' +
			'(ring-buffer overruns: some runs are incomplete)';
	else {
		msg = 'lost events: none in any run';
		cls = 'ok';
	}
	$('lost').append(el('span', { class: cls, id: 'lost-msg', text: msg }));
	if (L.truncated_runs)
		$('lost').append(' ', el('span', { class: 'bad',
			id: 'truncated-msg', text: 'TRUNCATED: ' +
			exact(L.truncated_runs) + ' of ' + exact(runs.length) +
			' runs stopped early: their figures are incomplete' }));
	$('notes').append(el('li', { text: 'a run without a site counts 0 ' +
		'for it: its min is 0 unless it is in every run; the median ' +
		'of an even number of runs is the mean of the two middle ' +
		'values, rounded down' }));
}

/*
 * A spread {sum, min, median, max} drawn relative to its own median, so
 * that the run-to-run noise of a small site shows as well as a large
 * one's: the tick is the median, in the middle; the bar spans
 * (min - median) / median to (max - median) / median on an axis of -R
 * to +R (R a fraction: 0.1 is 10%). A median of 0 (the site is in
 * fewer than half the runs) has no relative spread: said in text.
 */
function relSpread(s) {
	return s && s.median > 0 ? [(s.min - s.median) / s.median,
				    (s.max - s.median) / s.median] : null;
}

/*
 * The axis for spreads, [L, R]: -L to +R, the largest deviations below
 * and above a median (below is at most 100%), each at least 1%.
 */
function relRange(spreads) {
	let l = 0.01, r = 0.01;

	for (const s of spreads) {
		const d = relSpread(s);

		if (d) {
			l = Math.max(l, -d[0]);
			r = Math.max(r, d[1]);
		}
	}
	return [l, r];
}

const relPct = (x) => (x > 0 ? '+' : x < 0 ? '\u2212' : '') +
	(100 * Math.abs(x)).toFixed(Math.abs(x) < 0.1 ? 1 : 0) + '%';

function spreadBar(s, [L, R], fmt) {
	const d = relSpread(s);
	const at = (x) => (100 * (x + L) / (L + R)) + '%';
	const title = 'min ' + fmt(s.min) + ', median ' + fmt(s.median) +
		', max ' + fmt(s.max);

	if (!d)
		return el('div', { class: 'track spread nomed', title,
				   text: 'median 0: in fewer than half the runs' });
	const range = el('div', { class: 'range', 'data-v': s.max,
				  'data-lo': d[0], 'data-hi': d[1] });
	const med = el('div', { class: 'med', 'data-v': s.median });

	range.style.left = at(d[0]);
	range.style.width = (100 * (d[1] - d[0]) / (L + R)) + '%';
	med.style.left = at(0);
	return el('div', { class: 'track spread', title: title + ' (' +
			   relPct(d[0]) + ' to ' + relPct(d[1]) + ' of the median)' },
		  range, med);
}

/* the axis above spreads: -L, the median (where it falls), +R */
function spreadAxis([L, R]) {
	const med = el('span', { class: 'at-med', text: 'median' });

	med.style.left = (100 * L / (L + R)) + '%';
	return el('div', { class: 'spread-axis' },
		  el('span', { text: relPct(-L) }), med,
		  el('span', { text: relPct(R) }));
}

/* a table column's title: the axis of its spreads */
const axisText = ([L, R]) => relPct(-L) + ' to ' + relPct(R) + ' of the median';

/*
 * The spreads of items [{label, s, title}] as rows of min-median-max
 * bars, each relative to its median on one axis, in the layout of the
 * ranking bars (charts.js).
 */
function spreadBars(items, fmt) {
	const box = el('div', { class: 'bars spreads' });
	const R = relRange(items.map((i) => i.s));

	box.append(el('span', { class: 'lbl' }), spreadAxis(R),
		   el('span', { class: 'num' }));
	for (const it of items)
		box.append(el('span', { class: 'lbl', text: it.label,
					title: it.title || it.label }),
			   spreadBar(it.s, R, fmt),
			   el('span', { class: 'num', text: fmt(it.s.min) + ' \u2013 ' +
					fmt(it.s.median) + ' \u2013 ' + fmt(it.s.max),
					title: 'min, median, max over the runs' }));
	return box;
}

/* A measure selector: onChange(key) now and at each change */
function measureSelect(id, onChange) {
	const sel = el('select', { id });

	for (const [k, label] of MERGE_MEASURES)
		sel.append(el('option', { value: k, text: label }));
	sel.addEventListener('change', () => onChange(sel.value));
	return sel;
}

/* ---- the runs ---- */

function viewMergeRuns(box) {
	const runs = (M.runs || []).map((r, i) => Object.assign({ n: i + 1 }, r));
	const L = M.lost || {};
	const tot = (k) => (r) => (r.totals || {})[k];

	box.append(table([
		{ key: 'n', label: 'run' },
		{ key: 'file', label: 'file', txt: 1 },
		{ key: 'source', label: 'source', txt: 1 },
		{ key: 'kernel_release', label: 'kernel', txt: 1 },
		{ key: 'lost', label: 'lost events', get: runLost,
		  cls: (v) => (v === 'unknown' || v > 0 ||
				String(v).includes('TRUNCATED') ? 'lost' : '') },
		{ key: 'sites', label: 'call sites' },
		{ key: 'bytes_alloc', label: 'allocated', get: tot('bytes_alloc'),
		  fmt: bytes },
		{ key: 'slack', label: 'slack', get: tot('slack'), fmt: bytes },
		{ key: 'allocs', label: 'allocs', get: tot('allocs') },
		{ key: 'frees', label: 'frees', get: tot('frees') },
		{ key: 'live_bytes', label: 'live bytes', get: tot('live_bytes'),
		  fmt: bytes },
	], runs, { id: 'merge-runs', empty: 'no run' }));
	box.append(facts([
		['lost events, all runs', exact(L.events) + (L.known ?
		 ' (the sum over the runs)' : ' (the sum of those known; ' +
		 'not known for every run)'), exact(L.events)],
	], 'merge-lost'));
	box.append(h3('Bytes allocated per run'));
	box.append(barList(runs.map((r) => ({
		label: r.n + ': ' + r.file, value: tot('bytes_alloc')(r),
		text: bytes(tot('bytes_alloc')(r)),
		title: r.file + ' (' + r.source + ')' }))));
}

/* ---- the totals: their spread over the runs ---- */

function viewMergeTotals(box) {
	const t = M.totals || {};
	const rows = MERGE_MEASURES.filter(([k]) => t[k]);
	const v = (what) => (r) => t[r[0]][what];
	const f = (x, r) => r[2](x);

	box.append(table([
		{ key: 'what', label: '', txt: 1, get: (r) => r[1] },
		{ key: 'sum', label: 'sum', get: v('sum'), fmt: f },
		{ key: 'min', label: 'min', get: v('min'), fmt: f },
		{ key: 'median', label: 'median', get: v('median'), fmt: f },
		{ key: 'max', label: 'max', get: v('max'), fmt: f },
		{ key: 'spread', label: 'spread (' +
		  axisText(relRange(rows.map((r) => t[r[0]]))) + ')', txt: 1,
		  get: v('max'), fmt: () => '', cls: () => 'spread-cell',
		  node: (x, r) => spreadBar(t[r[0]], relRange(rows.map((q) =>
			t[q[0]])), r[2]) },
	], rows, { id: 'merge-totals' }));
	const n = (M.runs || []).length;

	box.append(legend('per run: a run\'s total is the sum over its call ' +
			  'sites; min, median and max over the ' + exact(n) +
			  (n === 1 ? ' run' : ' runs') + '; sum over all'));
}

/* ---- the call sites ---- */

function viewMergeSites(box) {
	const rows = M.rows || [];
	const n = (M.runs || []).length;
	const out = el('div');
	const filter = el('input', { id: 'merge-filter', type: 'search',
				     placeholder: 'site, kind' });
	const count = el('span', { id: 'merge-count' });
	let key = MERGE_MEASURES[0][0];

	function fill() {
		const [, label, fmt] = mergeMeasure(key);
		const q = filter.value.toLowerCase();
		const shown = rows.filter((r) => !q ||
			(r.site + ' ' + r.kind).toLowerCase().includes(q));
		const R = relRange(rows.map((r) => r[key] || {}));
		const sv = (what) => (r) => (r[key] || {})[what];

		out.textContent = '';
		out.append(table([
			{ key: 'site', label: 'site', txt: 1 },
			{ key: 'kind', label: 'kind', txt: 1 },
			{ key: 'runs', label: 'in runs', fmt: (v) => exact(v) + ' of ' +
			  exact(n) },
			{ key: 'sum', label: label + ': sum', get: sv('sum'), fmt },
			{ key: 'min', label: 'min', get: sv('min'), fmt },
			{ key: 'median', label: 'median', get: sv('median'), fmt },
			{ key: 'max', label: 'max', get: sv('max'), fmt },
			{ key: 'spread', label: 'spread (' + axisText(R) + ')',
			  txt: 1, get: sv('max'),
			  fmt: () => '', cls: () => 'spread-cell',
			  node: (v, r) => spreadBar(r[key] || {}, R, fmt) },
		], shown, { id: 'merge-sites', empty: q ? 'no site matches' :
			    'no call site' }));
		count.textContent = shown.length + ' of ' + rows.length + ' sites' +
			(M.rows_hidden ? ' (' + exact(M.rows_hidden) +
			 ' more left out of the merge by --top)' : '');
	}
	box.append(el('div', { class: 'controls' },
		      el('label', null, 'measure ', measureSelect('merge-measure',
			 (k) => { key = k; fill(); })),
		      el('label', null, 'filter ', filter), count));
	filter.addEventListener('input', fill);
	box.append(out);
	fill();
	box.append(legend('the sum over the runs and the spread over every run ' +
			  '(0 where a run lacks the site); the bar spans min to ' +
			  'max relative to the site\'s own median (the tick), on ' +
			  'one axis for the table'));
}

/* ---- the spread of the top sites ---- */

const MERGE_TOP = 20;

function viewMergeSpread(box) {
	const rows = M.rows || [];
	const out = el('div');

	function draw(key) {
		const [, label, fmt] = mergeMeasure(key);
		const top = rows.filter((r) => r[key] && r[key].max > 0)
			.sort((a, b) => b[key].sum - a[key].sum)
			.slice(0, MERGE_TOP);

		out.textContent = '';
		out.append(h3('The ' + (top.length < MERGE_TOP ? top.length : 'top ' +
			   MERGE_TOP) + ' sites by the sum of ' + label));
		out.append(top.length ? spreadBars(top.map((r) => ({
			label: r.site, s: r[key],
			title: r.site + ' (' + r.kind + '), in ' + r.runs + ' of ' +
				(M.runs || []).length + ' runs; sum ' + fmt(r[key].sum) })),
			fmt) : absentNote('no site has any ' + label));
	}
	box.append(el('div', { class: 'controls' },
		      el('label', null, 'measure ',
			 measureSelect('merge-spread-measure', draw))));
	box.append(out);
	draw(MERGE_MEASURES[0][0]);
	box.append(legend('each bar spans the site\'s min to max over the runs ' +
			  '(0 for a run without it) as a share of its own ' +
			  'median, the tick: the run-to-run noise of every ' +
			  'site on one axis; text: min \u2013 median \u2013 max'));
}

/* The whole page of a merge, in place of the treemap and the table */
function mergePage() {
	mergeHeader();
	$('sec-treemap').hidden = true;
	$('sec-table').hidden = true;
	render('runs', newSection('runs', 'Runs and their lost events'), M,
	       viewMergeRuns);
	render('totals', newSection('totals', 'Totals: their spread over the ' +
				    'runs'), M, viewMergeTotals);
	render('spread', newSection('spread', 'Spread of the top call sites'),
	       M, viewMergeSpread);
	render('sites', newSection('sites', 'Call sites: sum and spread over ' +
				   'the runs'), M, viewMergeSites);
}
