/*
 * The HTML report's script, its last part (after the six base.js names,
 * html/assets.S): the flame graph of the call sites' stacks (the
 * callsite section's "stacks", written by report
 * --by stack), drawn as an icicle: the outermost frames on top, each
 * frame as wide as the weight of the stacks through it, the call sites'
 * rows at the bottom. The weight is chosen above it (bytes allocated,
 * allocations, live bytes, slack); a click on a frame zooms into it, the
 * path above zooms out. Frames narrower than a pixel are left out, their
 * weight still in their callers'. For a test, #flame carries the
 * weight's total (data-total), the frames drawn (data-frames) and the
 * zoomed path (data-zoom).
 *
 * A diff's page (the model's top-level "stacks", each with its weights
 * in A and in B) draws the differential flame graph: a frame is as wide
 * as the larger of A and B summed over its stacks, and coloured by its
 * change from A to B: red grew, blue shrank, the deeper the more (the
 * change over that width); grey unchanged. #flame and each frame carry
 * the change too (data-delta).
 */

const FLAME_WEIGHTS = [
	['bytes_alloc', 'bytes allocated', bytes],
	['allocs', 'allocations', exact],
	['live_bytes', 'live bytes', bytes],
	['slack', 'slack', bytes],
];

/* the tree of stacks under a weight: { name, value, kids: Map } */
function flameTree(stacks, key, diff) {
	const root = { name: 'all', value: 0, delta: 0, kids: new Map(),
		       parent: null };

	for (const s of stacks) {
		const a = diff ? s.a[key] || 0 : 0;
		const b = diff ? s.b[key] || 0 : 0;
		const w = diff ? Math.max(a, b) : s[key] || 0;

		if (!w)
			continue;
		let n = root;

		n.value += w;
		n.delta += b - a;
		for (const f of s.frames) {
			let k = n.kids.get(f);

			if (!k) {
				k = { name: f, value: 0, delta: 0, kids: new Map(),
				      parent: n };
				n.kids.set(f, k);
			}
			k.value += w;
			k.delta += b - a;
			n = k;
		}
	}
	return root;
}

/* red grew, blue shrank, by the change over the frame's width */
function flameDiffColour(n) {
	if (!n.delta)
		return '#d5d8de';
	const f = Math.min(1, Math.abs(n.delta) / (n.value || 1));
	const l = Math.round(88 - 40 * f);

	return n.delta > 0 ? 'hsl(0,80%,' + l + '%)' : 'hsl(215,80%,' + l + '%)';
}

/* a warm colour from the name, so a function keeps its colour */
function flameColour(name) {
	let h = 0;

	for (let i = 0; i < name.length; i++)
		h = (h * 31 + name.charCodeAt(i)) >>> 0;
	const leaf = name.includes(' <- ') || /\+0x/.test(name);

	return leaf ? 'hsl(' + (200 + h % 30) + ',55%,' + (62 + h % 14) + '%)' :
		'hsl(' + (10 + h % 40) + ',85%,' + (58 + h % 16) + '%)';
}

function flameGraph() {
	const diff = isDiff;
	const stacks = diff ? M.stacks : S.callsite && S.callsite.stacks;

	if (!Array.isArray(stacks))
		return;
	const table = $('sec-table');
	const box = newSection('flame', diff ? 'Differential flame graph ' +
			       'of the stacks (red: grew from A to B, blue: ' +
			       'shrank)' : 'Flame graph of the stacks',
			       table && table.nextElementSibling);
	const select = el('select', { id: 'fl-weight' });
	const crumbs = el('span', { id: 'fl-crumbs' });
	const graph = el('div', { id: 'flame', role: 'img',
				  'aria-label': 'flame graph of the stacks' });
	const info = el('div', { id: 'fl-info', text: 'Click a frame to ' +
		'zoom into it; click the path above to zoom out.' });
	let weight = FLAME_WEIGHTS[0], root, zoom;

	for (const [k, label] of FLAME_WEIGHTS)
		select.append(el('option', { value: k, text: label }));
	box.append(el('div', { class: 'controls' },
		      el('label', null, 'weight ', select), crumbs), graph, info);
	graph.dataset.stacks = String(stacks.length);

	const path = (n) => {
		const p = [];

		for (; n; n = n.parent)
			p.unshift(n);
		return p;
	};
	const draw = () => {
		const width = graph.clientWidth || 1200, rowH = 18;
		let frames = 0, depth = 0;

		graph.textContent = '';
		crumbs.textContent = '';
		for (const n of path(zoom)) {
			const a = el('a', { text: n.name });

			a.addEventListener('click', () => {
				zoom = n;
				draw();
			});
			crumbs.append(crumbs.childNodes.length ? ' › ' : '', a);
		}
		const place = (n, x, w, d) => {
			if (w < 1)
				return;
			const f = el('div', { class: 'fl-frame',
				title: n.name + '\n' + weight[1] + ': ' +
					weight[2](n.value) + ' (' +
					(100 * n.value / (root.value || 1)).toFixed(1) +
					'% of all)' + (diff ? '\nchange from A to B: ' +
					(n.delta > 0 ? '+' : n.delta < 0 ? '-' : '') +
					weight[2](Math.abs(n.delta)) : '') });

			f.style.left = x + 'px';
			f.style.top = d * rowH + 'px';
			f.style.width = Math.max(1, w - 1) + 'px';
			f.style.backgroundColor = diff ? flameDiffColour(n) :
				n === root ? '#c9ced8' : flameColour(n.name);
			f.dataset.delta = String(n.delta);
			f.dataset.name = n.name;
			f.dataset.value = String(n.value);
			f.dataset.depth = String(d);
			if (w > 40)
				f.textContent = n.name;
			f.addEventListener('click', () => {
				zoom = n;
				draw();
			});
			graph.append(f);
			frames++;
			depth = Math.max(depth, d + 1);
			let cx = x;
			const kids = [...n.kids.values()].sort((a, b) =>
				a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

			for (const k of kids) {
				const kw = w * k.value / (n.value || 1);

				place(k, cx, kw, d + 1);
				cx += kw;
			}
		};
		place(zoom, 0, width, 0);
		graph.style.height = Math.max(1, depth) * rowH + 'px';
		graph.dataset.total = String(root.value);
		graph.dataset.delta = String(root.delta);
		graph.dataset.frames = String(frames);
		graph.dataset.zoom = path(zoom).map((n) => n.name).join(';');
		graph.dataset.weight = weight[0];
	};
	const build = () => {
		root = flameTree(stacks, weight[0], diff);
		zoom = root;
		draw();
	};
	select.addEventListener('change', () => {
		weight = FLAME_WEIGHTS.find((w) => w[0] === select.value);
		build();
	});
	build();
	box.parentElement.dataset.rendered = '1';
}

flameGraph();
