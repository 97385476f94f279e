/*
 * The HTML report's script, part 4 of 6: a view of each section of the
 * model below the call sites (timeline, live, subsys, pages, reclaim,
 * compaction, oom, vmalloc, percpu, coverage, budget: the RAM by owner
 * as a treemap), of the trace's system snapshots, and of any other
 * section (generic: labelled tables, histograms as charts).
 */

/* the events behind sections, by name in the model's records */
const EVENTS = {
	pages: /^mm_page_/,
	reclaim: /^mm_(vmscan|shrink)_/,
	compaction: /^mm_compaction_/,
	oom: /^(mark_victim|wake_reaper|.*_task_reaping|reclaim_retry_zone|compact_retry)$/,
};

/* A section whose events the trace lacks: why, from the notes; or null */
function missingEvents(name) {
	const re = EVENTS[name];
	const rec = Object.entries(M.records || {})
		.filter(([k]) => re && re.test(k));

	if (!rec.length || rec.some(([, v]) => v > 0))
		return null;
	const note = (M.notes || []).find((n) => n.startsWith(name + ':'));

	return 'not in this trace' + (note ? ': ' +
		note.slice(name.length + 1).trim() : '');
}

/* the model's order labels ("0", "1", ...) in numeric order */
const byOrder = (a, b) => Number(a) - Number(b);
const MIGRATETYPES = ['Unmovable', 'Movable', 'Reclaimable', 'HighAtomic',
		      'CMA', 'Isolate'];

/* the migratetypes of rows, the kernel's order first */
function migratetypes(rows, key) {
	const seen = [...new Set(rows.map((r) => r[key || 'migratetype']))];

	return MIGRATETYPES.filter((m) => seen.includes(m))
		.concat(seen.filter((m) => !MIGRATETYPES.includes(m)));
}

/* ---- timeline ---- */

/* clocks that count from boot: the trace's time is time since boot */
const BOOT_CLOCKS = ['local', 'global', 'boot', 'mono', 'mono_raw', 'perf',
		     'uptime'];

/*
 * Activity runs, for a trace without boot phases: runs of bins with
 * events, apart where a bin has none. Not the boot's phases (those come
 * from initcall:initcall_level, in the model): each with its sums over
 * its bins.
 */
function activityRuns(tl) {
	const out = [];
	let p = null;

	for (const b of tl.bins) {
		if (!(b.allocs || b.frees || b.untraced_frees)) {
			p = null;
			continue;
		}
		if (!p) {
			p = { label: String(out.length + 1), from_ns: b.start_ns,
			      allocs: 0, frees: 0, alloc_bytes: 0,
			      freed_bytes: 0, untraced_bytes: 0, net: 0 };
			out.push(p);
		}
		p.to_ns = b.start_ns + tl.interval_ns;
		p.allocs += b.allocs;
		p.frees += b.frees;
		p.alloc_bytes += b.alloc_bytes;
		p.freed_bytes += b.freed_bytes;
		p.untraced_bytes += b.untraced_bytes;
		p.net += b.net;
		p.outstanding = b.outstanding;
	}
	return out;
}

/*
 * The boot phases of the model (report/agg/phases.h), placed on the
 * timeline: from each one's start (ns from the first event) to the
 * next one's, the last to the end of the last bin.
 */
function bootPhases(tl) {
	const bp = tl.boot_phases || {};
	const ps = bp.phases || [];
	const last = tl.bins[tl.bins.length - 1];
	const end = last.start_ns + tl.interval_ns;

	return ps.map((p, i) => ({
		label: p.name, name: p.name, start_ns: p.start_ns,
		from_ns: Math.max(0, p.start_ns - tl.t0_ns),
		to_ns: Math.max(0, i + 1 < ps.length ?
			ps[i + 1].start_ns - tl.t0_ns : end),
		allocs: p.allocs, alloc_bytes: p.alloc_bytes,
		frees: p.frees, freed_bytes: p.freed_bytes,
	}));
}

function viewTimeline(box, tl) {
	if (!tl.bins || !tl.bins.length) {
		box.append(absentNote('no allocation or free in this trace'));
		return;
	}
	const g = M.origin || {};
	const fromBoot = BOOT_CLOCKS.includes(g.clock);
	const bp = tl.boot_phases || {};
	const boot = (bp.phases || []).length > 0;
	const phases = boot ? bootPhases(tl) : activityRuns(tl);
	const marks = ((S.oom || {}).kills || []).map((k, i) => ({
		t: k.ts_ns, label: 'OOM kill ' + (i + 1) + ': ' + k.victim_comm }));
	const base = fromBoot ? tl.t0_ns : 0;
	const last = tl.bins[tl.bins.length - 1];
	const at = (ns) => secs((base + ns) / 1e9,
				(last.start_ns + tl.interval_ns) / 1e9);
	const INIT_FROM = {
		initcall_finish: 'from the end of the last initcall of the ' +
			'thread that ran the levels',
		sched_process_exec: 'from the exec of the thread that ran the levels',
	};

	box.append(facts([
		['bins', exact(tl.bins.length) + ' of ' + dur(tl.interval_ns)],
		['first event', fromBoot ? secs(tl.t0_ns / 1e9, 1) +
		 ' since boot (' + g.clock + ' clock)' : 'time 0'],
		['outstanding at the end', bytes(last.outstanding),
		 exact(last.outstanding)],
		boot ? ['boot phases (initcall levels)', phases.length +
			' from initcall:initcall_level, the first traced "' +
			bp.first_level + '"' + (bp.init_from ? '; init ' +
			(INIT_FROM[bp.init_from] || bp.init_from) : '')] :
		['activity runs, not boot phases', phases.length +
		 ' (runs of bins with events, apart where a bin has none; the ' +
		 'trace has no initcall:initcall_level events: record with ' +
		 '-e boot, or boot with the parameters of slabacct boot cmdline)'],
		boot && (bp.repeated || bp.out_of_order || bp.dropped) ?
		['levels out of the way', exact(bp.repeated) + ' repeated, ' +
		 exact(bp.out_of_order) + ' out of the kernel\'s order, ' +
		 exact(bp.dropped) + ' not kept'] : ['', undefined],
	]));
	box.append(timelineChart(tl, phases, marks, fromBoot, boot));
	box.append(legend('bars: bytes allocated (up, red) and freed (down, ' +
			  'green) per bin; line: outstanding bytes (the running ' +
			  'sum of allocated - freed); shaded: ' + (boot ?
			  'the boot phases, named by their initcall level' :
			  'activity runs, not boot phases, numbered') +
			  (marks.length ? '; lines: OOM kills' : '')));
	if (boot) {
		const rows = [Object.assign({ label: '(before)', start_ns: null },
					    bp.before || {})].concat(phases);

		box.append(h3('Boot phases'));
		box.append(table([
			{ key: 'label', label: 'phase', txt: true,
			  get: (p) => p.label, fmt: (v) => v },
			{ key: 'start_ns', label: fromBoot ? 'from (since boot)' :
			  'from', fmt: (v) => (v === null ? '' :
				at(v - tl.t0_ns)) },
			{ key: 'allocs', label: 'allocs' },
			{ key: 'alloc_bytes', label: 'allocated', fmt: bytes },
			{ key: 'frees', label: 'frees' },
			{ key: 'freed_bytes', label: 'freed', fmt: bytes },
		], rows, { id: 'boot-phases' }));
		box.append(legend('a phase lasts from its level\'s start to the ' +
				  'next one\'s; (before): the events before ' +
				  'the first level traced'));
		return;
	}
	if (phases.length < 2)
		return;
	box.append(h3('Activity runs, not boot phases'));
	box.append(table([
		{ key: 'n', label: 'run', get: (p) => phases.indexOf(p) + 1 },
		{ key: 'from_ns', label: fromBoot ? 'from (since boot)' : 'from',
		  fmt: at },
		{ key: 'to_ns', label: 'to', fmt: at },
		{ key: 'allocs', label: 'allocs' },
		{ key: 'alloc_bytes', label: 'allocated', fmt: bytes },
		{ key: 'frees', label: 'frees' },
		{ key: 'freed_bytes', label: 'freed', fmt: bytes },
		{ key: 'net', label: 'net', fmt: signedBytes, cls: growthClass },
		{ key: 'outstanding', label: 'outstanding at its end', fmt: bytes },
	], phases, { id: 'activity-runs' }));
}

/* ---- live ---- */

function viewLive(box, lv) {
	const t = lv.totals || {};

	box.append(facts([
		['live objects', exact(t.live) + ' at ' + exact(t.sites) +
		 ' call sites'],
		['live bytes', bytes(t.live_bytes) + ' allocated, ' +
		 bytes(t.live_req) + ' requested', exact(t.live_bytes)],
		['live waste', bytes(t.live_waste) + ' (' + pct(t.live_frag_pct) +
		 ' of the live bytes)', exact(t.live_waste)],
		['freed without a trace event', t.freed_untraced === undefined ?
		 undefined : exact(t.freed_untraced) + ' objects'],
	]));
	if (lv.age) {
		box.append(h3('Ages of the live objects'));
		box.append(histChart(lv.age, 'objects'));
	}
	box.append(h3('Call sites with live objects'));
	box.append(table([
		{ key: 'site', label: 'site', txt: 1 },
		{ key: 'kind', label: 'kind', txt: 1 },
		{ key: 'live', label: 'live' },
		{ key: 'live_bytes', label: 'live bytes', fmt: bytes },
		{ key: 'live_waste', label: 'live waste', fmt: bytes },
		{ key: 'live_frag_pct', label: 'live frag', fmt: pct },
		{ key: 'live_age', label: 'ages', txt: 1, fmt: () => '',
		  get: (r) => Object.values(r.live_age || {}).join(' '),
		  node: (v, r) => sparkHist(r.live_age) },
	], lv.rows || [], { limit: 100, empty: 'no live objects' }));
	if (lv.rows_hidden)
		box.append(legend(exact(lv.rows_hidden) + ' more call sites ' +
				  'left out of the report (--top)'));
	if (lv.objects) {
		box.append(h3('Live objects, oldest first'));
		box.append(table([
			{ key: 'ptr', label: 'pointer', txt: 1 },
			{ key: 'site', label: 'site', txt: 1 },
			{ key: 'bytes_alloc', label: 'bytes', fmt: bytes },
			{ key: 'bytes_req', label: 'requested', fmt: bytes },
			{ key: 'age_ns', label: 'age', fmt: dur },
			{ key: 'pid', label: 'pid' },
			{ key: 'comm', label: 'comm', txt: 1 },
		], lv.objects, { limit: 200 }));
	}
}

/* ---- subsys ---- */

function viewSubsys(box, ss) {
	box.append(facts([['grouped by', ss.source === 'kallsyms' ?
		'module and symbol (kallsyms)' : ss.source],
		['depth', ss.depth ? String(ss.depth) : 'all levels']]));
	const rows = ss.rows || [];

	box.append(h3('Bytes allocated'));
	box.append(barList(rows.slice(0, 20).map((r) => ({
		label: r.subsystem, value: r.bytes_alloc,
		text: bytes(r.bytes_alloc) }))));
	box.append(table([
		{ key: 'subsystem', label: 'subsystem', txt: 1 },
		{ key: 'sites', label: 'sites' },
		{ key: 'allocs', label: 'allocs' },
		{ key: 'bytes_alloc', label: 'allocated', fmt: bytes },
		{ key: 'bytes_req', label: 'requested', fmt: bytes },
		{ key: 'slack', label: 'slack', fmt: bytes },
		{ key: 'live_bytes', label: 'live', fmt: bytes },
	], rows, { limit: 200 }));
	if ((ss.wrappers || []).length) {
		box.append(h3('Allocation wrappers: they hide their callers'));
		box.append(table([
			{ key: 'function', label: 'wrapper', txt: 1 },
			{ key: 'sites', label: 'sites' },
			{ key: 'allocs', label: 'allocs' },
			{ key: 'bytes_alloc', label: 'allocated', fmt: bytes },
			{ key: 'hint', label: 'to see through it', txt: 1,
			  cls: () => 'wrap' },
		], ss.wrappers));
	}
}

/* ---- pages ---- */

/* order x migratetype rows of {order, migratetype, blocks, pages} */
function orderByType(rows) {
	const orders = [...new Set(rows.map((r) => r.order))].sort(byOrder);

	return heatmap(orders, migratetypes(rows), (o, t) => {
		const r = rows.find((x) => x.order === o && x.migratetype === t);

		return r ? { v: r.pages, text: exact(r.pages), title: 'order ' + o +
			     ', ' + t + ': ' + exact(r.blocks) + ' blocks, ' +
			     pages(r.pages) } : null;
	}, { corner: 'order \\ type', unit: 'pages' });
}

/* the unusable free space index per zone and order, 0 to 1 */
function unusable(zones) {
	const n = Math.max(...zones.map((z) => z.unusable.length));
	const orders = [...Array(n).keys()];

	return heatmap(zones.map((z) => z.zone + ' (node ' + z.node + ', ' +
				 exact(z.free_pages) + ' free pages)'), orders,
		       (label, o) => {
			       const z = zones.find((x) => label.startsWith(x.zone +
								   ' (node ' + x.node + ','));
			       const v = z.unusable[o];

			       return v === undefined ? null : { v, text: v.toFixed(3),
				       title: z.zone + ', order ' + o + ': ' + v };
		       }, { corner: 'zone \\ order', linear: 1, max: 1, hue: 0,
			    fmtMax: () => '1 (no free block of that order)' });
}

function viewPages(box, p) {
	box.append(facts([
		['allocated', exact(p.allocs) + ' blocks, ' + npages(p.pages_alloc) +
		 (p.failed ? '; ' + exact(p.failed) + ' failed' : '')],
		['freed', exact(p.frees) + ' blocks, ' + npages(p.pages_freed)],
		['frees of pages from before the trace', exact(p.frees_unmatched)],
		['frees also reported in a batch', exact(p.frees_batched) +
		 ' (mm_page_free_batched: counted once)'],
		['live at the end', exact(p.live_blocks) + ' blocks, ' +
		 npages(p.live_pages)],
	]));
	box.append(h3('Allocated: order \u00d7 migratetype'));
	box.append((p.alloc || []).length ? orderByType(p.alloc) :
		   absentNote('no page allocation'));
	box.append(h3('Live at the end: order \u00d7 migratetype'));
	box.append((p.live || []).length ? orderByType(p.live) :
		   absentNote('no live pages'));
	if ((p.freed || []).length) {
		box.append(h3('Freed, by order'));
		box.append(barList(p.freed.slice().sort((a, b) =>
			byOrder(a.order, b.order)).map((r) => ({
			label: 'order ' + r.order, value: r.pages,
			text: exact(r.blocks) + ' blocks, ' + npages(r.pages) }))));
	}
	if ((p.gfp || []).length) {
		const mx = Math.max(1, ...p.gfp.map((g) => g.pages));

		box.append(h3('By GFP flags'));
		box.append(table([
			{ key: 'gfp_flags', label: 'GFP flags', txt: 1, cls: () => 'gfp' },
			{ key: 'blocks', label: 'blocks' },
			{ key: 'pages', label: 'pages', fmt: pages },
			{ key: 'bar', label: '', txt: 1, get: (g) => g.pages,
			  fmt: () => '', cls: () => 'inbar',
			  node: (v) => el('div', { class: 'bar', style: 'width:' +
						   (100 * v / mx) + '%' }) },
		], p.gfp));
	}
	if ((p.tasks || []).length) {
		box.append(h3('By task'));
		box.append(table([
			{ key: 'pid', label: 'pid' },
			{ key: 'comm', label: 'comm', txt: 1 },
			{ key: 'blocks', label: 'blocks allocated' },
			{ key: 'pages', label: 'pages allocated', fmt: pages },
			{ key: 'pages_freed', label: 'pages freed', fmt: pages },
		], p.tasks));
	}
	if (typeof p.by_callsite === 'string')
		box.append(legend('by call site: ' + p.by_callsite));
	else if ((p.by_callsite || []).length) {
		box.append(h3('By call site (kernel stacks)'));
		box.append(table([
			{ key: 'site', label: 'call site', txt: 1 },
			{ key: 'blocks', label: 'blocks allocated' },
			{ key: 'pages', label: 'pages allocated', fmt: pages },
			{ key: 'live_pages', label: 'pages live at the end', fmt: pages },
		], p.by_callsite));
	}
	const x = p.extfrag;

	if (x) {
		box.append(h3('External fragmentation: fallbacks to another ' +
			      'migratetype'));
		box.append(facts([['fallbacks', exact(x.fallbacks)],
				  ['steals (a whole pageblock changed type)',
				   exact(x.steals)]]));
		const rows = x.by_migratetype || [];

		if (rows.length)
			box.append(heatmap(migratetypes(rows, 'alloc_migratetype'),
				migratetypes(rows, 'fallback_migratetype'), (a, f) => {
					const r = rows.find((y) => y.alloc_migratetype === a &&
							    y.fallback_migratetype === f);

					return r ? { v: r.fallbacks, text: exact(r.fallbacks) +
						     (r.steals ? ' (' + exact(r.steals) +
						      (r.steals > 1 ? ' steals)' : ' steal)') : ''),
						     title: a + ' took ' + f +
						     ' blocks: ' + exact(r.fallbacks) +
						     ' fallbacks, ' + exact(r.steals) + ' steals' } :
						null;
				}, { corner: 'wanted \\ took', hue: 30, unit: 'fallbacks' }));
	}
	const u = p.unusable_index;

	if (u) {
		box.append(h3('Unusable free space index, by order'));
		if (u.not_available)
			box.append(absentNote(u.not_available));
		for (const k of ['start', 'end'])
			if (u[k]) {
				box.append(el('h4', { text: 'at the ' + k + ' of the trace' }));
				box.append(unusable(u[k]));
			}
		box.append(legend('the share of free memory in blocks too small ' +
				  'for an allocation of that order: 0 all usable, 1 none'));
	}
}

/* ---- reclaim ---- */

/* a histogram as a small inline chart, for a table cell */
function sparkHist(obj) {
	const vals = Object.values(obj || {});
	const mx = Math.max(1, ...vals);
	const s = svg('svg', { width: vals.length * 7, height: 16, class: 'spark' });

	vals.forEach((v, i) => {
		const h = v ? Math.max(1, 14 * v / mx) : 0;

		s.append(svg('rect', { x: i * 7, y: 16 - h, width: 5, height: h }));
	});
	s.append(svg('title', null, Object.entries(obj || {})
		.map(([k, v]) => k + ' ' + v).join(', ')));
	return s;
}

function latency(box, name, l) {
	box.append(h3(name));
	if (!l || l.in_trace === false) {
		box.append(absentNote('not in this trace (its events were not ' +
				      'recorded)'));
		return;
	}
	box.append(facts([
		['reclaims', exact(l.count)],
		['total time', dur(l.sum_ns), exact(l.sum_ns) + ' ns'],
		['longest', dur(l.max_ns), exact(l.max_ns) + ' ns'],
		['pages reclaimed', exact(l.reclaimed_pages)],
		['unfinished at the end', exact(l.unfinished)],
	]));
	if (!l.count)
		return;
	box.append(histChart(l.histogram, 'reclaims'));
	box.append(table([
		{ key: 'pid', label: 'pid' },
		{ key: 'comm', label: 'comm', txt: 1 },
		{ key: 'count', label: 'reclaims' },
		{ key: 'sum_ns', label: 'total time', fmt: dur },
		{ key: 'max_ns', label: 'longest', fmt: dur },
		{ key: 'reclaimed_pages', label: 'pages reclaimed' },
		{ key: 'histogram', label: 'latencies', txt: 1, fmt: () => '',
		  get: (r) => Object.values(r.histogram || {}).join(' '),
		  node: (v, r) => sparkHist(r.histogram) },
	], l.tasks || []));
}

function viewReclaim(box, r) {
	latency(box, 'Direct reclaim', r.direct);
	latency(box, 'Memory cgroup reclaim', r.memcg);
	box.append(legend('latency = end - begin of each reclaim, paired by ' +
			  'pid; histogram buckets <10us ... >=1s'));
	box.append(h3('kswapd'));
	box.append(table([
		{ key: 'node', label: 'node' },
		{ key: 'wakes', label: 'wakes' },
		{ key: 'sleeps', label: 'sleeps' },
		{ key: 'requests', label: 'wake requests' },
		{ key: 'busy_ns', label: 'busy', fmt: dur },
		{ key: 'max_order', label: 'highest order' },
		{ key: 'awake_at_end', label: 'awake at the end', txt: 1,
		  fmt: (v) => (v ? 'yes' : 'no') },
	], r.kswapd || [], { empty: 'no kswapd activity' }));
	box.append(h3('Shrinkers'));
	box.append(table([
		{ key: 'shrinker', label: 'shrinker', txt: 1 },
		{ key: 'calls', label: 'calls' },
		{ key: 'sum_ns', label: 'total time', fmt: dur },
		{ key: 'max_ns', label: 'longest', fmt: dur },
		{ key: 'to_scan', label: 'objects to scan' },
		{ key: 'freed', label: 'freed' },
	], r.shrinkers || [], { empty: 'no shrinker ran' }));
	box.append(h3('LRU efficiency'));
	box.append((r.lru || []).length ? table([
		{ key: 'what', label: 'list', txt: 1 },
		{ key: 'calls', label: 'calls' },
		{ key: 'scanned', label: 'pages scanned' },
		{ key: 'reclaimed', label: 'pages reclaimed' },
		{ key: 'efficiency_pct', label: 'efficiency', fmt: pct },
	], r.lru.concat(r.lru_total ? [r.lru_total] : [])) :
		absentNote('no mm_vmscan_lru_shrink_inactive event'));
	box.append(facts([['pages written by reclaim',
			   exact(r.pages_written)]]));
}

/* ---- compaction ---- */

function viewCompaction(box, c) {
	box.append(facts([
		['runs', exact(c.runs) + (c.unfinished ? ', ' +
		 exact(c.unfinished) + ' unfinished at the end' : '')],
		['total time', dur(c.sum_ns), exact(c.sum_ns) + ' ns'],
		['longest', dur(c.max_ns), exact(c.max_ns) + ' ns'],
		['pages migrated', exact(c.migrated) + ' in ' +
		 exact(c.migrate_batches) + ' batches'],
		['pages that failed to migrate', exact(c.failed)],
		['success', pct(c.success_pct)],
		['deferrals', exact(c.defer_compaction) + ' deferred, ' +
		 exact(c.deferred) + ' skipped as deferred, ' +
		 exact(c.defer_reset) + ' resets'],
	]));
	box.append(h3('By mode'));
	box.append(table([
		{ key: 'mode', label: 'mode', txt: 1 },
		{ key: 'runs', label: 'runs' },
		{ key: 'sum_ns', label: 'total time', fmt: dur },
		{ key: 'max_ns', label: 'longest', fmt: dur },
	], ['async', 'sync'].filter((m) => c[m])
		.map((m) => Object.assign({ mode: m }, c[m]))));
	box.append(h3('Outcomes'));
	box.append((c.outcomes || []).length ? barList(c.outcomes.map((o) => ({
		label: o.status, value: o.runs, text: exact(o.runs) + ' runs' }))) :
		absentNote('no run ended in the trace'));
	if ((c.deferrals_by_order || []).length) {
		box.append(h3('Deferrals by order'));
		box.append(table([
			{ key: 'order', label: 'order', txt: 1 },
			{ key: 'defer_compaction', label: 'deferred' },
			{ key: 'deferred', label: 'skipped as deferred' },
			{ key: 'defer_reset', label: 'resets' },
		], c.deferrals_by_order));
	}
	box.append(legend('success = migrated / (migrated + failed); time = ' +
			  'mm_compaction_end - _begin, paired by pid'));
}

/* ---- oom ---- */

function viewOom(box, o) {
	box.append(facts([
		['OOM kills', exact(o.nr_kills)],
		['reclaim retries before them', exact(o.reclaim_retries)],
		['compaction retries', exact(o.compact_retries)],
	]));
	(o.kills || []).forEach((k, i) => {
		const card = el('div', { class: 'card oom-kill' });
		const rs = k.reaping_ns || {};

		card.append(el('h3', { text: 'Kill ' + (i + 1) + ': ' +
				       k.victim_comm + ' (pid ' + k.victim_pid + ')' }));
		card.append(facts([
			['when', dur(k.rel_ns) + ' into the trace (' +
			 secs(k.ts_ns / 1e9, 10) + ' on its clock)'],
			['victim', k.victim_comm + ', pid ' + k.victim_pid +
			 (k.oom_score_adj !== undefined ? ', oom_score_adj ' +
			  k.oom_score_adj : '')],
			['its memory', k.anon_rss_kb === undefined ? undefined :
			 'anon ' + kib(k.anon_rss_kb) + ', file ' +
			 kib(k.file_rss_kb) + ', shmem ' + kib(k.shmem_rss_kb)],
			['triggered by', k.trigger_comm + ', pid ' + k.trigger_pid +
			 ', an order ' + exact(k.trigger_order) + ' allocation' +
			 (k.trigger_gfp ? ' (' + k.trigger_gfp + ')' : '')],
			['retries', exact(k.reclaim_retries) + ' of reclaim, ' +
			 exact(k.compact_retries) + ' of compaction'],
			['reaping', Object.entries(rs).map(([s, v]) => s.replace(/_/g, ' ') +
			 ' ' + (v === null ? 'not traced' : '+' + dur(v))).join('; ')],
		]));
		const top = k.top_live_callsites || [];

		if (top.length) {
			card.append(el('h4', { text: 'Live call sites at the kill' }));
			card.append(barList(top.map((h) => ({
				label: h.site + ' (' + h.kind + ')', value: h.live_bytes,
				text: bytes(h.live_bytes) + ', ' + exact(h.live) +
				' objects' }))));
		}
		box.append(card);
	});
	if (!(o.kills || []).length)
		box.append(absentNote('no OOM kill in this trace'));
}

/* ---- the system snapshots at the start and end of the recording ---- */

const MEMORY = [
	['total_kb', 'total'], ['used_kb', 'used'], ['free_kb', 'free'],
	['available_kb', 'available'], ['buff_cache_kb', 'buffers and cache'],
	['shared_kb', 'shared'], ['anon_kb', 'anonymous'],
	['slab_kb', 'slab'], ['sreclaimable_kb', 'slab, reclaimable'],
	['sunreclaim_kb', 'slab, unreclaimable'],
	['kernel_stack_kb', 'kernel stacks'], ['page_tables_kb', 'page tables'],
	['vmalloc_used_kb', 'vmalloc'], ['percpu_kb', 'per-CPU'],
	['swap_total_kb', 'swap total'], ['swap_used_kb', 'swap used'],
	['committed_as_kb', 'committed'], ['commit_limit_kb', 'commit limit'],
];

/* a change up or down: marked, not judged (more free memory is no loss) */
const updown = (v) => (v > 0 ? 'up' : v < 0 ? 'down' : '');

/* rows [label, start, end, fmt, fmt of the change] with the change */
function startEnd(rows, fmt, fmtd) {
	const f = (r) => r[3] || fmt, fd = (r) => r[4] || fmtd;

	return table([
		{ key: 'l', label: '', txt: 1, get: (r) => r[0] },
		{ key: 's', label: 'start', get: (r) => r[1], fmt: (v, r) => f(r)(v) },
		{ key: 'e', label: 'end', get: (r) => r[2], fmt: (v, r) => f(r)(v) },
		{ key: 'd', label: 'change', get: (r) => (typeof r[1] === 'number' &&
			typeof r[2] === 'number' ? r[2] - r[1] : null),
		  fmt: (v, r) => (v === null ? '' : fd(r)(v)),
		  cls: (v) => (v === null ? '' : updown(v)) },
	], rows);
}

function viewSystem(box, sys) {
	const a = sys.start || {}, b = sys.end || {};
	const get = (o, p) => p.reduce((x, k) => (x ? x[k] : undefined), o);
	const both = (p) => [get(a, p), get(b, p)];

	box.append(facts([
		['kernel', a.release || b.release],
		['uptime', both(['uptime']).map((u) => (u === undefined ? '?' :
			u + ' s')).join(' at the start, ') + ' at the end'],
		['page size', a.page_size ? bytes(a.page_size) : undefined],
	]));
	if (a.memory || b.memory) {
		box.append(h3('Memory (/proc/meminfo)'));
		box.append(startEnd(MEMORY.filter(([k]) => get(a, ['memory', k]) !==
						   undefined || get(b, ['memory', k]) !== undefined)
			.map(([k, l]) => [l, get(a, ['memory', k]), get(b, ['memory', k])]),
			kib, (v) => signedBytes(v * 1024)));
	}
	if (a.slab || b.slab) {
		box.append(h3('Slab caches (/proc/slabinfo)'));
		box.append(startEnd([
			['objects in use', ...both(['slab', 'active_objs'])],
			['objects', ...both(['slab', 'num_objs'])],
			['slabs', ...both(['slab', 'num_slabs'])],
			['caches in use', ...both(['slab', 'active_caches'])],
			['space', ...both(['slab', 'space']), bytes, signedBytes],
			['used', ...both(['slab', 'used']), bytes, signedBytes],
			['loss', ...both(['slab', 'loss']), bytes, signedBytes],
		], exact, signed));
	}
	const zones = b.zones || a.zones || [];

	if (zones.length) {
		box.append(h3('Free blocks by order, at the end (/proc/buddyinfo)'));
		box.append(heatmap(zones.map((z) => z.zone + ' (node ' + z.node + ')'),
			[...Array(Math.max(...zones.map((z) => (z.nr_free || []).length)))
				.keys()], (label, o) => {
				const z = zones.find((x) => label === x.zone + ' (node ' +
						     x.node + ')');
				const v = (z.nr_free || [])[o];

				return v === undefined ? null : { v, title: z.zone + ', order ' +
					o + ': ' + exact(v) + ' free blocks' };
			}, { corner: 'zone \\ order', unit: 'free blocks' }));
		box.append(table([
			{ key: 'zone', label: 'zone', txt: 1 },
			{ key: 'node', label: 'node' },
			{ key: 'free', label: 'free', get: (z) => (z.watermarks || {}).free,
			  fmt: pages },
			{ key: 'min', label: 'min', get: (z) => (z.watermarks || {}).min },
			{ key: 'low', label: 'low', get: (z) => (z.watermarks || {}).low },
			{ key: 'high', label: 'high', get: (z) => (z.watermarks || {}).high },
			{ key: 'managed', label: 'managed',
			  get: (z) => (z.watermarks || {}).managed, fmt: pages },
		], zones, { caption: 'watermarks, in pages, at the end' }));
	}
	if (a.vm_counters || b.vm_counters) {
		const keys = Object.keys(b.vm_counters || a.vm_counters);

		box.append(h3('Counters (/proc/vmstat)'));
		box.append(startEnd(keys.map((k) => [k, get(a, ['vm_counters', k]),
						     get(b, ['vm_counters', k])]),
				    exact, signed));
	}
	if (a.psi || b.psi) {
		box.append(h3('Memory pressure (PSI)'));
		box.append(startEnd(['some', 'full'].flatMap((k) => [
			[k + ', avg10 %', get(a, ['psi', k, 'avg10']),
			 get(b, ['psi', k, 'avg10'])],
			[k + ', total', get(a, ['psi', k, 'total_us']),
			 get(b, ['psi', k, 'total_us']), (v) => dur(v * 1000),
			 (v) => '+' + dur(v * 1000)]]), exact, signed));
	}
	const kills = (b.oom_kills || []);

	if (kills.length) {
		box.append(h3('OOM kills in the kernel log, at the end'));
		box.append(table([
			{ key: 'time', label: 'time (s)' },
			{ key: 'pid', label: 'pid' },
			{ key: 'comm', label: 'comm', txt: 1 },
			{ key: 'anon_rss_kb', label: 'anon', fmt: kib },
			{ key: 'file_rss_kb', label: 'file', fmt: kib },
			{ key: 'shmem_rss_kb', label: 'shmem', fmt: kib },
			{ key: 'constraint', label: 'constraint', txt: 1 },
			{ key: 'gfp_mask', label: 'GFP', txt: 1 },
		], kills));
	}
}

/* ---- vmalloc and percpu ---- */

function viewAreas(box, a) {
	const t = a.totals || {};

	if (!a.present) {
		box.append(absentNote('not in this trace: record with -e ' +
			(a.bytes_are ? 'percpu' : 'vmalloc')));
		return;
	}
	box.append(facts([
		['allocations', exact(t.allocs) + ', ' + bytes(t.bytes),
		 exact(t.bytes) + ' bytes'],
		['frees', exact(t.frees) + ', ' + bytes(t.freed_bytes),
		 exact(t.freed_bytes) + ' bytes'],
		['live at the end', exact(t.live) + ', ' + bytes(t.live_bytes),
		 exact(t.live_bytes) + ' bytes'],
		['failed', exact(t.failed)],
		['frees of older memory', exact(t.unmatched_frees)],
		['attributed through stacks', exact(t.attributed)],
	]));
	box.append(table([
		{ key: 'site', label: 'site', txt: 1 },
		{ key: 'allocs', label: 'allocs' },
		{ key: 'bytes', label: 'bytes', fmt: bytes },
		{ key: 'frees', label: 'frees' },
		{ key: 'live', label: 'live' },
		{ key: 'live_bytes', label: 'live bytes', fmt: bytes },
		{ key: 'failed', label: 'failed' },
	], a.rows || [], { limit: 200 }));
	box.append(legend(a.bytes_are ?
		'by call site (through its stack when it is in the percpu ' +
		'machinery); bytes on all CPUs unless the events lack ' +
		'bytes_alloc' :
		'by the first caller outside vmalloc\'s machinery, through ' +
		'the kernel stack (entry point <- caller); sizes include the ' +
		'guard page'));
}

/* ---- coverage: the trace's live slab against /proc/slabinfo ---- */

function viewCoverage(box, c) {
	const t = c.totals || {};
	/* rest is below 0 where frees went untraced */
	const sbytes = (v) => (v < 0 ? '-' + bytes(-v) : bytes(v));

	if (!c.slabinfo) {
		box.append(absentNote('not available: ' + (c.why || '')));
		return;
	}
	box.append(facts([
		['traced (live at the end)', bytes(t.traced_bytes) + ', ' +
		 exact(t.traced_objs) + ' objects', exact(t.traced_bytes) +
		 ' bytes'],
		['in /proc/slabinfo', bytes(t.slab_bytes) + ', ' +
		 exact(t.slab_objs) + ' objects', exact(t.slab_bytes) + ' bytes'],
		['rest: before tracing, or untraced', sbytes(t.rest_bytes) +
		 ', ' + exact(t.rest_objs) + ' objects', exact(t.rest_bytes) +
		 ' bytes'],
		['kmallocs from pages (not slab)', exact(c.large_kmalloc_objs) +
		 ', ' + bytes(c.large_kmalloc_bytes)],
		['cache allocations without a name', exact(c.unnamed_objs) +
		 ', ' + bytes(c.unnamed_bytes)],
	]));
	if (c.per_cache)
		box.append(table([
			{ key: 'cache', label: 'cache', txt: 1 },
			{ key: 'traced_bytes', label: 'traced', fmt: bytes },
			{ key: 'slab_bytes', label: 'slabinfo', fmt: bytes },
			{ key: 'rest_bytes', label: 'rest', fmt: sbytes },
			{ key: 'traced_objs', label: 'traced objs' },
			{ key: 'slab_objs', label: 'slabinfo objs' },
			{ key: 'rest_objs', label: 'rest objs' },
		], c.rows || [], { limit: 200 }));
	else
		box.append(absentNote('by cache: the events do not name ' +
			'their caches on this kernel'));
	box.append(legend('in slot sizes: traced = live objects x ' +
		'bytes_alloc; slabinfo = active_objs x objsize; rest = ' +
		'slabinfo - traced: allocated before tracing, untraced (bulk ' +
		'allocation), or free slots of per-CPU slabs that SLUB counts ' +
		'active. kmalloc caches: one row per slot, kmalloc-*-N'));
}

/* ---- budget: the whole RAM by owner, one treemap ---- */

/* the owners' tree from the pre-order rows, each with its depth */
function budgetTree(owners) {
	const root = { row: null, kids: [] };
	const stack = [root];

	for (const r of owners) {
		const n = { row: r, kids: [] };

		if (r.depth === 0) {
			root.row = r;
			stack.length = 1;
			continue;
		}
		/* stack[d] is the last node of depth d: the parent is d - 1 */
		while (stack.length > r.depth)
			stack.pop();
		stack[stack.length - 1].kids.push(n);
		stack.push(n);
	}
	return root;
}

/* owner colours: reserved at boot warm, the page allocator cool,
 * free pale, unexplained red: it is shown, never spread */
function budgetColour(r) {
	if (r.unexplained)
		return '#e06666';
	if (/^free/.test(r.key))
		return '#d9ead3';
	if (/^reserved/.test(r.key))
		return '#f6b26b';
	if (/^slab/.test(r.key))
		return '#6fa8dc';
	return '#9fc5e8';
}

function budgetLayout(box, node, x, y, w, h, tip) {
	const r = node.row;

	if (!node.kids.length || node.kids.every((k) => k.row.kb <= 0)) {
		const slab = /^slab/.test(r.key) && S.callsite;
		const t = el('div', { class: 'tile' + (slab ? ' link' : '') });

		t.style.left = x + 'px';
		t.style.top = y + 'px';
		t.style.width = w + 'px';
		t.style.height = h + 'px';
		t.style.background = budgetColour(r);
		t.dataset.key = r.key;
		if (w > 36 && h > 13)
			t.textContent = r.label + ' ' + kib(r.kb);
		/* the slab: its call sites are the treemap above */
		if (slab)
			t.addEventListener('click', () =>
				$('sec-treemap').scrollIntoView());
		t.addEventListener('mousemove', (ev) => {
			tip.hidden = false;
			tip.textContent = r.key + '\n' + exact(r.kb) + ' kB, ' +
				pct(r.pct) + ' of RAM\n' + r.source +
				(slab ? '\nclick: the call sites' : '');
			tip.style.left = Math.min(ev.clientX + 12,
				window.innerWidth - 300) + 'px';
			tip.style.top = (ev.clientY + 14) + 'px';
		});
		t.addEventListener('mouseleave', () => {
			tip.hidden = true;
		});
		box.append(t);
		return;
	}
	if (r.depth > 0) {
		const g = el('div', { class: 'group' },
			     el('span', { text: r.label + ' ' + kib(r.kb) }));

		g.style.left = x + 'px';
		g.style.top = y + 'px';
		g.style.width = w + 'px';
		g.style.height = h + 'px';
		box.append(g);
		const head = h > 34 && w > 40 ? 14 : 0;

		x += 1;
		y += 1 + head;
		w = Math.max(0, w - 2);
		h = Math.max(0, h - 2 - head);
	}
	const kids = node.kids.filter((k) => k.row.kb > 0)
		.sort((a, b) => b.row.kb - a.row.kb);
	const rects = squarify(kids.map((k) => k.row.kb), x, y, w, h);

	kids.forEach((k, i) => budgetLayout(box, k, ...rects[i], tip));
}

function viewBudget(box, b) {
	if (b.available === false || !b.owners) {
		box.append(absentNote('not available: ' + (b.why || '')));
		return;
	}
	box.append(facts([
		['RAM', kib(b.ram_kb) + ' (' + b.ram_source + ')',
		 exact(b.ram_kb) + ' kB'],
		['unexplained', kib(b.unexplained_kb) + ', ' +
		 pct(b.unexplained_pct) + ' of RAM', exact(b.unexplained_kb) +
		 ' kB'],
	]));
	const tm = el('div', { class: 'budget-tm', role: 'img',
			       'aria-label': 'treemap of the RAM by owner' });

	box.append(tm);
	const tree = budgetTree(b.owners);
	const draw = () => {
		tm.textContent = '';
		budgetLayout(tm, tree, 0, 0, tm.clientWidth, tm.clientHeight,
			     $('tip'));
	};

	requestAnimationFrame(draw);
	window.addEventListener('resize', draw);
	box.append(legend('every page of RAM by owner, sized by kB; ' +
		'orange: reserved at boot, blue: the page allocator (dark: ' +
		'slab; a click opens its call sites), green: free, red: ' +
		'unexplained (no source names it)'));
	box.append(table([
		{ key: 'label', label: 'owner', txt: 1,
		  fmt: (v, r) => '\u00a0'.repeat(2 * r.depth) + v },
		{ key: 'kb', label: 'kB', fmt: exact },
		{ key: 'pct', label: '% of RAM', fmt: pct },
		{ key: 'source', label: 'source', txt: 1 },
	], b.owners, { limit: 200 }));
	if (b.notes && b.notes.length)
		box.append(el('ul', {}, ...b.notes.map((n) =>
			el('li', { text: n }))));
}

/* ---- any other section: tables, histograms, key/value lists ---- */

const isScalar = (v) => v === null || typeof v !== 'object';
/* objects of numbers drawn as bars: distributions, not totals */
const HIST = /age|hist|latenc|bucket|dist|lat_|_us$/i;

/* a value by its key's name: _ns durations, _kb and bytes sizes */
function byName(k, v) {
	if (typeof v !== 'number')
		return isScalar(v) ? exact(v) : JSON.stringify(v);
	if (/_ns$/.test(k))
		return dur(v);
	if (/_kb$/.test(k))
		return kib(v);
	if (/bytes|^size$|_size$/.test(k))
		return bytes(v);
	if (/_pct$/.test(k))
		return pct(v);
	return exact(v);
}

const label = (k) => k.replace(/_(ns|kb|pct)$/, '').replace(/_/g, ' ');

function viewGeneric(box, obj) {
	const kv = Object.entries(obj).filter(([, v]) => isScalar(v));

	if (kv.length)
		box.append(facts(kv.map(([k, v]) => [label(k), byName(k, v),
					 typeof v === 'number' ? exact(v) : null])));
	for (const [k, v] of Object.entries(obj)) {
		if (isScalar(v))
			continue;
		box.append(h3(label(k)));
		if (Array.isArray(v)) {
			if (!v.length) {
				box.append(absentNote('none'));
			} else if (v.every((x) => !isScalar(x) && !Array.isArray(x))) {
				const cols = [...new Set(v.flatMap(Object.keys))];

				box.append(table(cols.map((c) => ({
					key: c, label: label(c),
					txt: v.every((x) => typeof x[c] !== 'number'),
					fmt: (x) => byName(c, x) })), v, { limit: 200 }));
			} else {
				box.append(el('p', { text: v.map((x) => byName(k, x))
					.join(', ') }));
			}
			continue;
		}
		const vals = Object.values(v);

		if (HIST.test(k) && vals.length > 1 &&
		    vals.every((x) => typeof x === 'number'))
			box.append(histChart(v));
		else
			viewGeneric(box, v);
	}
}

/* The views, by section name; others get the generic one. */
const VIEWS = {
	timeline: viewTimeline, live: viewLive, subsys: viewSubsys,
	pages: viewPages, reclaim: viewReclaim, compaction: viewCompaction,
	oom: viewOom, vmalloc: viewAreas, percpu: viewAreas,
	coverage: viewCoverage, budget: viewBudget,
};
