/*
 * The HTML report's script, part 6 of 6: the header (the trace's origin
 * and lost events, or a diff's two sides), then every section in order
 * (a merge's: merge.js), a table of contents, and the marks the browser
 * test waits for.
 */

/* ---- the header: origin, lost events, notes ---- */


/* what /proc/allocinfo says it missed */
function allocinfoLoss(i) {
	return i.inaccurate > 0 ? exact(i.inaccurate) + ' sites marked ' +
		'inaccurate by the kernel (allocations missed)' :
		'no site marked inaccurate';
}

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
		const sites = '; sites new ' + c.sites_new + ', gone ' +
			c.sites_gone + ', changed ' + c.sites_changed +
			', unchanged ' + c.sites_unchanged;
		if (isAllocinfo)
			line('change', 'live bytes ' + signed(c.live_bytes) +
			     ', live allocations ' + signed(c.live) + sites);
		else
			line('change', 'bytes ' + signed(c.bytes_alloc) +
			     ', slack ' + signed(c.slack) + ', allocs ' +
			     signed(c.allocs) + ', live bytes ' +
			     signed(c.live_bytes) + sites);
		const lost = $('lost');
		for (const k of ['a', 'b']) {
			const s = M[k] || {};
			let msg, cls = 'ok';

			if (s.input && s.input.kind === '/proc/allocinfo') {
				msg = k.toUpperCase() + ': ' + allocinfoLoss(s.input);
				if (s.input.inaccurate > 0)
					cls = 'bad';
			} else if (s.input) {
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
			if (s.truncated)
				lost.append(el('span', { class: 'bad',
					id: 'truncated-' + k, text: k.toUpperCase() +
					': ' + truncatedMsg(s.truncated) }), ' ');
		}
		return;
	}
	$('title').textContent = 'slabacct report: ' + (M.file || '');
	if (M.input && M.input.kind === '/proc/allocinfo') {
		/* the kernel's allocation profiling: live counts only */
		const i = M.input;

		line('input', 'a /proc/allocinfo snapshot, format ' +
		     i.format_version);
		line('sites', exact(i.tags) + ' allocation sites, ' +
		     exact(i.live_tags) + ' with live allocations');
		$('lost').append(el('span', {
			class: i.inaccurate > 0 ? 'bad' : 'ok',
			id: 'lost-msg', text: allocinfoLoss(i) }));
		for (const n of M.notes || [])
			$('notes').append(el('li', { text: n }));
		return;
	}
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
		if (i.slow_sites !== undefined)
			line('slower path', exact(i.slow_sites) +
			     ' allocations, ' + exact(i.slow_objects) +
			     ' objects, ' + exact(i.slow_frees) + ' frees');
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
	line('scope', g.scope);
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
	if (r.stacks !== undefined)
		line('kernel stacks', exact(r.stacks) + ' with their events, ' +
		     exact(r.stacks_lost) + ' with no event (given to none)');

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
	if (L.truncated)
		lost.append(' ', el('span', { class: 'bad', id: 'truncated-msg',
			text: truncatedMsg(L.truncated) }));
	for (const n of M.notes || [])
		$('notes').append(el('li', { text: n }));
	/* the records of each event, folded */
	const ev = Object.entries(r).filter(([k, v]) => typeof v === 'number' &&
		!['total', 'used', 'kmalloc_repeats'].includes(k));

	if (ev.length)
		$('top').append(el('details', { id: 'records' },
			el('summary', { text: 'records by event' }),
			table([{ key: 'e', label: 'event', txt: 1, get: (x) => x[0] },
			       { key: 'n', label: 'records', get: (x) => x[1] }], ev)));
}

/* ---- sections ---- */

const TITLES = {
	timeline: 'Timeline: allocated and freed bytes, boot phases or ' +
		'activity runs',
	live: 'Live objects',
	subsys: 'Subsystems',
	pages: 'Pages: order \u00d7 migratetype, GFP flags, tasks',
	reclaim: 'Reclaim: latency, kswapd, shrinkers',
	compaction: 'Compaction',
	oom: 'OOM kills',
	budget: 'Budget: where every page of RAM went',
	system: 'System at the start and end of the recording',
};

/* A section of the page: <section id=sec-NAME data-section=NAME> */
function newSection(name, title, before) {
	const box = el('div', { class: 'view' });
	const s = el('section', { id: 'sec-' + name, 'data-section': name },
		     el('h2', { text: title }), box);

	if (before)
		before.before(s);
	else
		document.querySelector('main').append(s);
	return box;
}

/* draw one, or say why it cannot */
function render(name, box, obj, view) {
	try {
		const why = missingEvents(name);

		if (why) {
			/* what the report holds without them, folded */
			const d = el('details', null, el('summary', {
				text: 'what the report holds without them' }));

			box.append(el('p', { class: 'absent whole', text: why }), d);
			view(d, obj);
		} else {
			view(box, obj);
		}
		box.parentElement.dataset.rendered = '1';
	} catch (e) {
		console.error('section ' + name + ': ' + e.stack);
		box.append(absentNote('could not be drawn: ' + e.message));
	}
}

/*
 * Why a section has nothing to show, or null: its events are not in the
 * trace; vmalloc and percpu were not recorded; Subsystems grouped by
 * symbol only, one call site a group (it would repeat the call-site
 * table).
 */
function emptyWhy(k, obj) {
	const why = missingEvents(k);

	if (why)
		return why;
	if (k === 'budget' && obj && obj.available === false)
		return 'not available: ' + obj.why;
	if ((k === 'vmalloc' || k === 'percpu') && obj && !obj.present)
		return 'not in this trace: record with -e ' + k;
	if (k === 'subsys' && obj && obj.source === 'kallsyms' &&
	    !(obj.rows || []).some((r) => r.sites > 1))
		return 'each group is one call site (grouped by symbol): ' +
			'--vmlinux or --build-tree groups them by source ' +
			'directory';
	return null;
}

function reportSections() {
	const order = Object.keys(TITLES).filter((k) => S[k]);
	const others = Object.keys(S).filter((k) => k !== 'callsite' &&
					      !TITLES[k]);
	const empty = [];

	for (const k of order.concat(others)) {
		if (k === 'system')
			continue;
		const why = emptyWhy(k, S[k]);

		if (why)
			empty.push([k, why]);
		else
			render(k, newSection(k, TITLES[k] || k), S[k],
			       VIEWS[k] || viewGeneric);
	}
	if (M.system && (M.system.start || M.system.end))
		render('system', newSection('system', TITLES.system), M.system,
		       viewSystem);
	if (empty.length)
		emptySections(empty);
}

/*
 * The sections with nothing to show: one line that names them, each
 * with its reason and, folded, what the report holds without it.
 */
function emptySections(empty) {
	const name = (k) => (TITLES[k] || k).split(':')[0];
	const box = newSection('empty', 'Not shown');
	const list = el('ul', { class: 'empty-sections' });
	const all = el('details', { id: 'empty-sections' }, el('summary', {
		text: empty.map(([k]) => name(k)).join(', ') +
			': nothing to show (open for why)' }), list);

	for (const [k, why] of empty) {
		const d = el('details', null, el('summary', {
			text: name(k) + ': ' + why }));
		const li = el('li', { 'data-section': k }, d);

		list.append(li);
		try {
			(VIEWS[k] || viewGeneric)(d, S[k]);
		} catch (e) {
			console.error('section ' + k + ': ' + e.stack);
			d.append(absentNote('could not be drawn: ' + e.message));
		}
	}
	box.append(all);
	box.parentElement.dataset.rendered = '1';
}

/* A diff: the totals of A and B and their change, the largest changes */
function diffSections() {
	const first = $('sec-treemap');
	const box = newSection('change', 'Change from A to B', first);
	const a = (M.a || {}).totals || {}, b = (M.b || {}).totals || {};
	const c = M.change || {};
	/* the change: the model's, where it has one */
	const rows = isAllocinfo ? [
		['live allocations', 'live', exact, signed, 'live'],
		['live bytes', 'live_bytes', bytes, signedBytes, 'live_bytes'],
	] : [
		['bytes allocated', 'bytes_alloc', bytes, signedBytes, 'bytes_alloc'],
		['bytes requested', 'bytes_req', bytes, signedBytes],
		['slack', 'slack', bytes, signedBytes, 'slack'],
		['allocations', 'allocs', exact, signed, 'allocs'],
		['frees', 'frees', exact, signed],
		['live objects', 'live', exact, signed],
		['live bytes', 'live_bytes', bytes, signedBytes, 'live_bytes'],
	];

	const areas = ['vmalloc', 'percpu'].filter((k) => (M.a || {})[k] ||
						       (M.b || {})[k]);

	/* the slab's totals, named so beside vmalloc's and percpu's */
	if (areas.length && !isAllocinfo)
		box.append(h3('slab'));
	box.append(table([
		{ key: 'what', label: '', txt: 1, get: (r) => r[0] },
		{ key: 'a', label: 'A', get: (r) => a[r[1]], fmt: (v, r) => r[2](v) },
		{ key: 'b', label: 'B', get: (r) => b[r[1]], fmt: (v, r) => r[2](v) },
		{ key: 'd', label: 'change (B \u2212 A)',
		  get: (r) => (r[4] && typeof c[r[4]] === 'number' ? c[r[4]] :
			       typeof a[r[1]] === 'number' &&
			       typeof b[r[1]] === 'number' ? b[r[1]] - a[r[1]] : null),
		  fmt: (v, r) => (v === null ? '' : r[3](v)),
		  cls: (v) => growthClass(v) },
	], rows, { id: 'diff-totals' }));
	/* vmalloc and percpu: totals of their own, never added to the slab's */
	for (const k of areas) {
		const ta = (M.a || {})[k], tb = (M.b || {})[k];
		const av = (ta || {}).totals || {}, bv = (tb || {}).totals || {};
		const ck = c[k] || {};
		const traced = (t, v, f) => (t && t.traced ? f(v) : 'not traced');

		box.append(h3(k));
		box.append(table([
			{ key: 'what', label: '', txt: 1, get: (r) => r[0] },
			{ key: 'a', label: 'A', get: (r) => av[r[1]],
			  fmt: (v, r) => traced(ta, v, r[2]) },
			{ key: 'b', label: 'B', get: (r) => bv[r[1]],
			  fmt: (v, r) => traced(tb, v, r[2]) },
			{ key: 'd', label: 'change (B \u2212 A)',
			  get: (r) => (typeof ck[r[1]] === 'number' ? ck[r[1]] : null),
			  fmt: (v, r) => (v === null ? '' : r[3](v)),
			  cls: (v) => growthClass(v) },
		], [
			['bytes allocated', 'bytes_alloc', bytes, signedBytes],
			['allocations', 'allocs', exact, signed],
			['frees', 'frees', exact, signed],
			['live', 'live', exact, signed],
			['live bytes', 'live_bytes', bytes, signedBytes],
		], { id: 'diff-totals-' + k }));
	}
	box.append(facts([
		['call sites', exact(c.sites_new) + ' new, ' + exact(c.sites_gone) +
		 ' gone, ' + exact(c.sites_changed) + ' changed, ' +
		 exact(c.sites_unchanged) + ' unchanged'],
	]));
	/* allocinfo has live bytes, not bytes allocated */
	const dk = isAllocinfo ? 'd_live_bytes' : 'd_bytes';
	const vk = isAllocinfo ? 'live_bytes' : 'bytes_alloc';
	const top = (M.rows || []).filter((r) => r[dk])
		.sort((x, y) => Math.abs(y[dk]) - Math.abs(x[dk]))
		.slice(0, 20);

	box.append(h3(isAllocinfo ? 'The largest changes in live bytes' :
		      'The largest changes in bytes allocated'));
	box.append(top.length ? divergingBars(top.map((r) => ({
		label: r.site + (r.status === 'new' || r.status === 'gone' ?
				 ' (' + r.status + ')' : ''),
		value: r[dk], text: signedBytes(r[dk]),
		title: bytes(r.a[vk]) + ' \u2192 ' + bytes(r.b[vk]) }))) :
		absentNote('no call site changed'));
	box.append(legend('red: grew from A to B; green: shrank'));
	box.parentElement.dataset.rendered = '1';
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

if (isMerge) {
	mergePage();
} else {
	header();
	if (isDiff)
		diffSections();
	treemap();
	siteTable();
	if (!isDiff)
		reportSections();
}
toc();
document.body.dataset.ready = '1';
document.body.dataset.leaves = String(leaves.length);
