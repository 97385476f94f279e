// SPDX-License-Identifier: GPL-2.0
//
// Load a slabacct HTML report in headless Chromium, from a file and with
// no network, and check it through the DevTools protocol:
//   - no JavaScript exception, console error or log error;
//   - no request other than the page's own file;
//   - the treemap holds --tiles tiles (one per call site), each with a
//     distinct data-site;
//   - a real mouse click on a tile zooms in (the path above the treemap
//     changes and fewer tiles are shown), and the path's root zooms out;
//   - with --expect 'A|B', the page's text shows A and B;
//   - with --column NAME, the call-site table has a column NAME;
//   - with --count 'SELECTOR=N|...', the page has N elements that match
//     each SELECTOR (--tiles 0: a page with no treemap, a merge's);
//   - with --sections 'timeline,pages,...', each of those sections is on
//     the page, drawn (data-rendered), not empty and not "not in this
//     trace", and holds what its view draws: the timeline's bars and
//     line, a heat map of pages, reclaim's latency histogram, an OOM
//     kill's card, ... (a diff's "change": its totals coloured by growth
//     and its diverging bars; a merge's runs, totals, spread and sites:
//     their tables and min-median-max bars);
//   - with --empty 'pages,reclaim,...', each of those sections has no
//     section of its own and is named, with its reason, in the one
//     collapsed "Not shown" line (a section asked for by --sections that
//     is there instead fails, with its reason);
//   - with --scale log|linear, the treemap's tiles are sized so (the
//     page picks log when one site holds over half the metric);
//   - with --flame 'bytes_alloc=N,...', the flame graph of the stacks
//     weighs as the report's totals under each weight, and zooms on a
//     click (see below);
//   - a screenshot of the page goes to --shot, and with --shots DIR one
//     of each section (the header, the treemap, the table, every other)
//     to DIR/NAME.png.
// Prints one line per check ("ok ..." / "not ok ...") and exits 1 if any
// failed, 2 on a usage or browser start-up problem.
//
//   node tests/browser/check-page.mjs \
//       --html build/x.html --shot build/test-logs/x.png --tiles 123
//
// It needs nothing but node (18 or later) and Chromium: the WebSocket
// client below is the few lines of RFC 6455 the DevTools protocol uses
// (Debian 12's node 18 has no WebSocket of its own).

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = {};
for (let i = 2; i < process.argv.length; i += 2)
	args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
if (!args.html || !args.shot) {
	console.error('usage: check-page.mjs --html FILE --shot PNG [--tiles N] ' +
		      '[--chromium PATH] [--expect A|B] [--column NAME] ' +
		      '[--count SEL=N|...] [--sections A,B] [--empty A,B] ' +
		      '[--scale log|linear] [--shots DIR]');
	process.exit(2);
}

/* A WebSocket client: text frames, masked as a client must, any length. */
class MiniWS {
	constructor(url) {
		const u = new URL(url);
		const req = request({ host: u.hostname, port: u.port,
			path: u.pathname, headers: {
				Connection: 'Upgrade', Upgrade: 'websocket',
				'Sec-WebSocket-Version': '13',
				'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
			} });

		this.buf = Buffer.alloc(0);
		this.parts = [];
		req.on('upgrade', (res, sock) => {
			this.sock = sock;
			sock.on('data', (d) => this.data(d));
			this.onopen();
		});
		req.on('error', (e) => this.onerror(e));
		req.end();
	}

	data(d) {
		this.buf = Buffer.concat([this.buf, d]);
		for (;;) {
			const b = this.buf;

			if (b.length < 2)
				return;
			let len = b[1] & 0x7f, off = 2;

			if (len === 126) {
				if (b.length < 4)
					return;
				len = b.readUInt16BE(2);
				off = 4;
			} else if (len === 127) {
				if (b.length < 10)
					return;
				len = Number(b.readBigUInt64BE(2));
				off = 10;
			}
			if (b.length < off + len)
				return;
			const fin = b[0] & 0x80, op = b[0] & 0x0f;

			this.parts.push(b.subarray(off, off + len));
			this.buf = b.subarray(off + len);
			if (op === 8) {
				this.sock.end();
				return;
			}
			if (fin) {
				const msg = Buffer.concat(this.parts).toString('utf8');

				this.parts = [];
				this.onmessage({ data: msg });
			}
		}
	}

	send(text) {
		const p = Buffer.from(text, 'utf8');
		const mask = randomBytes(4);
		let head;

		if (p.length < 126) {
			head = Buffer.from([0x81, 0x80 | p.length]);
		} else if (p.length < 65536) {
			head = Buffer.alloc(4);
			head[0] = 0x81;
			head[1] = 0x80 | 126;
			head.writeUInt16BE(p.length, 2);
		} else {
			head = Buffer.alloc(10);
			head[0] = 0x81;
			head[1] = 0x80 | 127;
			head.writeBigUInt64BE(BigInt(p.length), 2);
		}
		for (let i = 0; i < p.length; i++)
			p[i] ^= mask[i & 3];
		this.sock.write(Buffer.concat([head, mask, p]));
	}

	close() {
		if (this.sock)
			this.sock.destroy();
	}
}

const chromium = args.chromium || '/usr/bin/chromium';
const profile = mkdtempSync(join(tmpdir(), 'sa-chromium-'));
const pageUrl = pathToFileURL(resolve(args.html)).href;
let failed = 0;

function ok(cond, what) {
	console.log((cond ? 'ok ' : 'not ok ') + what);
	if (!cond)
		failed++;
}

const browser = spawn(chromium, [
	'--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
	'--disable-background-networking', '--disable-component-update',
	'--disable-sync', '--disable-extensions', '--disable-dev-shm-usage',
	'--host-resolver-rules=MAP * ~NOTFOUND',
	'--remote-debugging-port=0', '--user-data-dir=' + profile,
	'--window-size=1280,1000', 'about:blank',
], { stdio: ['ignore', 'ignore', 'pipe'] });

let stderr = '';
async function cleanup() {
	if (browser.exitCode === null && browser.signalCode === null) {
		const gone = new Promise((r) => browser.once('exit', r));

		browser.kill('SIGKILL');
		await gone;
	}
	try {
		rmSync(profile, { recursive: true, force: true, maxRetries: 5,
				  retryDelay: 200 });
	} catch (e) {
		console.log('# could not remove ' + profile + ': ' + e.message);
	}
}

const wsUrl = await new Promise((res, rej) => {
	const timer = setTimeout(() => rej(new Error('Chromium did not ' +
		'print its DevTools address within 60 s:\n' + stderr)), 60000);
	browser.stderr.on('data', (d) => {
		stderr += d;
		const m = /DevTools listening on (ws:\/\/\S+)/.exec(stderr);
		if (m) {
			clearTimeout(timer);
			res(m[1]);
		}
	});
	browser.on('exit', (code) => rej(new Error('Chromium exited (' + code +
		') before it listened:\n' + stderr)));
}).catch(async (e) => {
	console.error('check-page: ' + e.message);
	await cleanup();
	process.exit(2);
});

const ws = new MiniWS(wsUrl);
await new Promise((res, rej) => {
	ws.onopen = res;
	ws.onerror = () => rej(new Error('cannot connect to ' + wsUrl));
});

let nextId = 1;
const pending = new Map();
const waiters = [];
const errors = [];
const requests = [];

ws.onmessage = (ev) => {
	const m = JSON.parse(ev.data);

	if (m.id && pending.has(m.id)) {
		const { res, rej } = pending.get(m.id);

		pending.delete(m.id);
		if (m.error)
			rej(new Error(JSON.stringify(m.error)));
		else
			res(m.result);
		return;
	}
	if (m.method === 'Runtime.exceptionThrown') {
		const d = m.params.exceptionDetails;

		errors.push('exception: ' + (d.exception && d.exception.description ||
					     d.text) + ' at line ' + d.lineNumber);
	} else if (m.method === 'Runtime.consoleAPICalled' &&
		   ['error', 'assert'].includes(m.params.type)) {
		errors.push('console.' + m.params.type + ': ' +
			    m.params.args.map((a) => a.value ?? a.description)
				.join(' '));
	} else if (m.method === 'Log.entryAdded' &&
		   m.params.entry.level === 'error') {
		errors.push('log: ' + m.params.entry.text + ' ' +
			    (m.params.entry.url || ''));
	} else if (m.method === 'Network.requestWillBeSent') {
		requests.push(m.params.request.url);
	}
	for (let i = waiters.length - 1; i >= 0; i--)
		if (waiters[i].method === m.method) {
			waiters[i].res(m.params);
			waiters.splice(i, 1);
		}
};

function send(method, params = {}, sessionId, ms = 60000) {
	const id = nextId++;
	const msg = { id, method, params };

	if (sessionId)
		msg.sessionId = sessionId;
	ws.send(JSON.stringify(msg));
	return new Promise((res, rej) => {
		pending.set(id, { res, rej });
		setTimeout(() => {
			if (pending.delete(id))
				rej(new Error(method + ' timed out after ' +
					      ms / 1000 + ' s'));
		}, ms);
	});
}

function waitFor(method) {
	return new Promise((res) => waiters.push({ method, res }));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

try {
	const { targetId } = await send('Target.createTarget',
					{ url: 'about:blank' });
	const { sessionId: s } = await send('Target.attachToTarget',
					    { targetId, flatten: true });
	const call = (m, p) => send(m, p, s);
	/*
	 * Page.captureScreenshot waits for a frame from the compositor.
	 * Headless Chromium's compositor can go idle and send none: the
	 * capture then hangs while the page answers everything else
	 * (seen once in a full `make check`, 60 s without an answer).  A
	 * capture gets 20 s; without an answer, a short screencast wakes
	 * the compositor and the capture is asked again, three times in
	 * all.  Every wait is printed, so a stall is never silent.  The
	 * screenshots are for people, and no check reads them: a capture
	 * that stalls three times (seen again: the wake-up did not help)
	 * is reported, no further one is tried, as the compositor stays
	 * stalled, and the page's checks go on.
	 */
	let stalled = null;
	const capture = async (p, what) => {
		if (stalled) {
			console.log('# no screenshot of ' + what + ': ' + stalled);
			return null;
		}
		for (let attempt = 1; ; attempt++) {
			try {
				return await send('Page.captureScreenshot', p, s,
						  20000);
			} catch (e) {
				if (!/timed out/.test(e.message))
					throw e;
				if (attempt === 3) {
					stalled = 'Chromium\'s compositor sent no ' +
						'frame in 3 tries of 20 s';
					console.log('# no screenshot of ' + what +
						    ': ' + stalled);
					return null;
				}
				console.log('# ' + e.message + ' (attempt ' + attempt +
					    ' of 3): waking the compositor');
				await call('Page.startScreencast', { format: 'jpeg',
					quality: 10, everyNthFrame: 1 });
				await sleep(250);
				await call('Page.stopScreencast');
			}
		}
	};
	const evaluate = async (expr) => {
		const r = await call('Runtime.evaluate', { expression: expr,
			returnByValue: true, awaitPromise: true });

		if (r.exceptionDetails)
			throw new Error('evaluating ' + expr + ': ' +
					JSON.stringify(r.exceptionDetails));
		return r.result.value;
	};

	await call('Runtime.enable');
	await call('Log.enable');
	await call('Network.enable');
	await call('Page.enable');
	await call('Emulation.setDeviceMetricsOverride', { width: 1280,
		height: 1000, deviceScaleFactor: 1, mobile: false });
	const loaded = waitFor('Page.loadEventFired');

	await call('Page.navigate', { url: pageUrl });
	await loaded;
	await sleep(300);

	ok(await evaluate('document.body.dataset.ready === "1"'),
	   'the page script ran to the end');
	const tiles = await evaluate(
		'[...document.querySelectorAll("#treemap .tile")]' +
		'.map((t) => t.dataset.site)');

	console.log('# treemap tiles: ' + tiles.length);
	if (args.tiles !== undefined)
		ok(tiles.length === Number(args.tiles),
		   'one tile per call site: ' + tiles.length + ' tiles, ' +
		   args.tiles + ' call sites');
	/* --tiles 0: a page without a treemap (a merge's) */
	if (args.tiles === undefined || Number(args.tiles) > 0)
		ok(tiles.length > 0, 'the treemap has tiles');
	const rowsInTable = await evaluate(
		'document.querySelectorAll("#sites tbody tr").length');
	console.log('# table rows: ' + rowsInTable);
	if (args.tiles !== undefined)
		ok(rowsInTable === Number(args.tiles),
		   'the table has one row per call site');
	for (const want of (args.expect || '').split('|').filter(Boolean))
		ok(await evaluate('document.body.innerText.includes(' +
				  JSON.stringify(want) + ')'),
		   'the page shows "' + want + '"');
	for (const want of (args.count || '').split('|').filter(Boolean)) {
		const eq = want.lastIndexOf('=');
		const sel = want.slice(0, eq), n = Number(want.slice(eq + 1));

		if (eq < 1 || !Number.isInteger(n)) {
			ok(false, '--count ' + want + ': not SELECTOR=N');
			continue;
		}
		const got = await evaluate('document.querySelectorAll(' +
					   JSON.stringify(sel) + ').length');

		ok(got === n, 'the page has ' + n + ' of "' + sel + '": ' + got);
	}
	if (args.column)
		ok(await evaluate('[...document.querySelectorAll("#sites th")]' +
				  '.some((th) => th.textContent.trim() === ' +
				  JSON.stringify(args.column) + ')'),
		   'the call-site table has a column "' + args.column + '"');

	/* the treemap and the table (a page without call sites has none) */
	if (tiles.length) {
		/* a real click in the middle of the largest tile */
		const target = await evaluate(`(() => {
			let best = null, area = -1;
			for (const t of document.querySelectorAll('#treemap .tile')) {
				const r = t.getBoundingClientRect();
				if (r.width * r.height > area) {
					area = r.width * r.height;
					best = t;
				}
			}
			best.scrollIntoView({ block: 'center' });
			const r = best.getBoundingClientRect();
			return { x: r.left + r.width / 2, y: r.top + r.height / 2,
				 site: best.dataset.site };
		})()`);
		const before = await evaluate('document.body.dataset.zoom || ""');

		for (const type of ['mousePressed', 'mouseReleased'])
			await call('Input.dispatchMouseEvent', { type, x: target.x,
				y: target.y, button: 'left', clickCount: 1 });
		await sleep(200);
		const after = await evaluate('document.body.dataset.zoom || ""');
		const zoomedTiles = await evaluate(
			'document.querySelectorAll("#treemap .tile").length');
		const stillThere = await evaluate(
			`[...document.querySelectorAll('#treemap .tile')]
				.some((t) => t.dataset.site === ${JSON.stringify(target.site)})`);

		console.log('# clicked ' + target.site + ': zoom "' + before +
			    '" -> "' + after + '", ' + zoomedTiles + ' tiles');
		ok(after !== before && after.length > 0,
		   'clicking a tile zooms into its group');
		ok(stillThere, 'the clicked call site is in the zoomed view');
		ok(zoomedTiles < tiles.length, 'the zoomed view shows fewer tiles');
		const z = await capture({ format: 'png' }, 'the zoomed treemap');

		if (z)
			writeFileSync(args.shot.replace(/\.png$/, '-zoomed.png'),
				      Buffer.from(z.data, 'base64'));
		await evaluate('document.querySelector("#tm-crumbs a").click()');
		await sleep(100);
		ok(await evaluate('document.body.dataset.zoom') === before &&
		   await evaluate('document.querySelectorAll("#treemap .tile").length')
			=== tiles.length, 'the path\'s root zooms back out');

		/* the table sorts */
		await evaluate('document.querySelector("#sites th[data-key=site]").click()');
		const sorted = await evaluate(
			'[...document.querySelectorAll("#sites tbody tr td:first-child")]' +
			'.map((td) => td.textContent)');
		ok(sorted.length > 1 && sorted.every((v, i) => !i || sorted[i - 1].localeCompare(v) <= 0),
		   'clicking a column header sorts the table');
	}

	/* the sections: drawn, not empty, each with what its view draws */
	const DRAWS = {
		timeline: ['#timeline-svg rect.alloc', '#timeline-svg path.outstanding'],
		live: ['.hist-chart rect.bar', 'tbody tr'],
		subsys: ['.bars .bar', 'tbody tr'],
		pages: ['table.heat td[data-v]', '.kv td', 'tbody tr'],
		reclaim: ['.hist-chart rect.bar', 'tbody tr', 'svg.spark rect'],
		compaction: ['.kv td', 'tbody tr', '.bars .bar'],
		oom: ['.oom-kill', '.oom-kill .bars .bar'],
		budget: ['.budget-tm .tile', 'tbody tr'],
		system: ['table.heat td[data-v]', 'tbody tr td.up, tbody tr td.down'],
		change: ['#diff-totals td.grow, #diff-totals td.shrink',
			 '.dbars .bar'],
		/* a merge */
		runs: ['#merge-runs tbody tr', '.bars .bar'],
		totals: ['#merge-totals tbody tr', '.spread .range', '.spread .med'],
		spread: ['.spreads .spread .range', '.spreads .spread .med'],
		sites: ['#merge-sites tbody tr', '#merge-sites .spread .range',
			'#merge-measure option'],
	};
	for (const name of (args.sections || '').split(',').filter(Boolean)) {
		const got = await evaluate(`(() => {
			const s = document.querySelector('section[data-section=' +
				${JSON.stringify(JSON.stringify(name))} + ']');
			if (!s)
				return null;
			const sel = ${JSON.stringify(DRAWS[name] ||
				['tbody tr, svg rect, .bar, td[data-v]'])};
			const r = s.getBoundingClientRect();
			return {
				rendered: s.dataset.rendered === '1',
				hidden: s.hidden || r.height < 40,
				absent: [...s.querySelectorAll(':scope > .view > .absent.whole')]
					.map((p) => p.textContent),
				text: s.innerText.length,
				counts: sel.map((q) => s.querySelectorAll(q).length),
				sel,
			};
		})()`);

		if (!got) {
			/* collapsed into the "Not shown" line: say why */
			const why = await evaluate(`(() => {
				const li = document.querySelector(
					'#empty-sections li[data-section=' +
					${JSON.stringify(JSON.stringify(name))} +
					'] > details > summary');
				return li ? li.textContent : null;
			})()`);

			ok(false, why ? 'section ' + name + ' is drawn, not ' +
			   'empty: ' + why.replace(/^[^:]*: /, '') :
			   'section ' + name + ' is on the page');
			continue;
		}
		console.log('# section ' + name + ': ' + got.text + ' characters; ' +
			    got.sel.map((q, i) => q + ' x' + got.counts[i]).join(', '));
		ok(got.rendered && !got.hidden && got.text > 80 &&
		   got.absent.length === 0, 'section ' + name + ' is drawn, ' +
		   'not empty' + (got.absent.length ? ': ' + got.absent.join('; ') :
				  ''));
		got.sel.forEach((q, i) => ok(got.counts[i] > 0, 'section ' + name +
			' draws ' + q));
	}

	/* the sections with nothing to show: in the one collapsed line */
	for (const name of (args.empty || '').split(',').filter(Boolean)) {
		const got = await evaluate(`(() => {
			const n = ${JSON.stringify(JSON.stringify(name))};
			const li = document.querySelector(
				'#empty-sections li[data-section=' + n + ']');
			return {
				own: !!document.querySelector(
					'main > section[data-section=' + n + ']'),
				listed: !!li,
				why: li ? li.querySelector('summary').textContent : '',
				lines: document.querySelectorAll(
					'#sec-empty > .view > details').length,
			};
		})()`);

		ok(!got.own && got.listed && got.lines === 1 && /: \S/.test(got.why),
		   'section ' + name + ' is in the one "Not shown" line, with ' +
		   'its reason, not a section of its own (' + got.why + ')');
	}
	if (args.scale) {
		const got = await evaluate(`document.getElementById('tm-scale').value`);

		ok(got === args.scale, 'the treemap is sized on a ' + args.scale +
		   ' scale (' + got + ')');
	}
	/*
	 * --flame 'bytes_alloc=N,allocs=N,live_bytes=N,slack=N': the flame
	 * graph of the stacks (flame.js) weighs its root, under each weight
	 * chosen in its menu, as the report's totals; a real click on the
	 * widest frame below the root zooms into it (the path and the root
	 * change, the root as wide as the graph, its weight the frame's),
	 * and the path's root zooms back out. With --flame-delta
	 * 'bytes_alloc=N,...' (a diff's page), the root's change under
	 * each weight is N, and a frame is red or blue as it grew or
	 * shrank.
	 */
	if (args.flame) {
		const pairs = (a) => Object.fromEntries((a || '').split(',')
			.filter(Boolean).map((kv) => kv.split('='))
			.map(([k, v]) => [k, Number(v)]));
		const want = pairs(args.flame), delta = pairs(args['flame-delta']);

		for (const [k, v] of Object.entries(want)) {
			const got = await evaluate(`(() => {
				const s = document.getElementById('fl-weight');
				s.value = ${JSON.stringify(k)};
				s.dispatchEvent(new Event('change'));
				const f = document.getElementById('flame');
				const c = (sel) => [...f.querySelectorAll('.fl-frame')]
					.filter(sel).every((x) => {
						const m = /rgb\\((\\d+), (\\d+), (\\d+)\\)/
							.exec(x.style.backgroundColor);
						const d = Number(x.dataset.delta);
						return !!m && (d > 0 ? +m[1] > +m[3] :
							      d < 0 ? +m[3] > +m[1] : true);
					});
				return { total: Number(f.dataset.total),
					 delta: Number(f.dataset.delta),
					 colours: c(() => true),
					 frames: Number(f.dataset.frames),
					 root: Number(f.querySelector('.fl-frame')
						.dataset.value) };
			})()`);

			ok(got.total === v && got.root === v && got.frames > 1,
			   'flame graph by ' + k + ': total ' + got.total + ', root ' +
			   got.root + ' (report ' + v + '), ' + got.frames + ' frames');
			if (k in delta)
				ok(got.delta === delta[k] && got.colours,
				   'differential flame graph by ' + k + ': change ' +
				   got.delta + ' (model ' + delta[k] + '), red grew, ' +
				   'blue shrank');
		}
		const target = await evaluate(`(() => {
			let best = null;
			for (const f of document.querySelectorAll('#flame .fl-frame'))
				if (f.dataset.depth === '1' && (!best ||
				    f.offsetWidth > best.offsetWidth))
					best = f;
			best.scrollIntoView({ block: 'center' });
			const r = best.getBoundingClientRect();
			return { x: r.left + Math.min(r.width / 2, 20),
				 y: r.top + r.height / 2, name: best.dataset.name,
				 value: Number(best.dataset.value) };
		})()`);
		for (const type of ['mousePressed', 'mouseReleased'])
			await call('Input.dispatchMouseEvent', { type, x: target.x,
				y: target.y, button: 'left', clickCount: 1 });
		await sleep(200);
		const zoomed = await evaluate(`(() => {
			const g = document.getElementById('flame');
			const r = g.querySelector('.fl-frame');
			return { zoom: g.dataset.zoom, name: r.dataset.name,
				 value: Number(r.dataset.value),
				 full: r.offsetWidth >= g.clientWidth - 2 };
		})()`);
		console.log('# flame: clicked ' + target.name + ', zoom ' + zoomed.zoom);
		ok(zoomed.zoom === 'all;' + target.name && zoomed.name === target.name &&
		   zoomed.value === target.value && zoomed.full,
		   'clicking a frame zooms into it');
		await evaluate(`document.querySelector('#fl-crumbs a').click()`);
		ok(await evaluate(`document.getElementById('flame').dataset.zoom`) ===
		   'all', 'the flame graph path\'s root zooms back out');
	}

	/* a screenshot of each section */
	if (args.shots) {
		mkdirSync(args.shots, { recursive: true });
		const boxes = await evaluate(`[...document.querySelectorAll(
			'header#top, main > section')].filter((s) => !s.hidden)
			.map((s) => {
				const r = s.getBoundingClientRect();
				return { name: s.dataset.section ||
					 s.id.replace(/^sec-/, ''), x: 0,
					 y: r.top + window.scrollY, w: 1280,
					 h: Math.min(8000, Math.ceil(r.height) + 8) };
			})`);

		for (const b of boxes) {
			const r = await capture({
				format: 'png', captureBeyondViewport: true,
				clip: { x: b.x, y: Math.max(0, b.y - 4), width: b.w,
					height: b.h, scale: 1 } }, 'section ' + b.name);

			if (r)
				writeFileSync(join(args.shots, b.name + '.png'),
					      Buffer.from(r.data, 'base64'));
			else
				b.name += ' (none)';
		}
		console.log('# ' + boxes.length + ' section screenshots in ' +
			    args.shots + ': ' + boxes.map((b) => b.name).join(' '));
	}

	/* full-page screenshot */
	await evaluate('window.scrollTo(0, 0)');
	const { contentSize } = await call('Page.getLayoutMetrics');
	const height = Math.min(6000, Math.ceil(contentSize.height));
	const shot = await capture({ format: 'png',
		captureBeyondViewport: true,
		clip: { x: 0, y: 0, width: 1280, height, scale: 1 } },
		'the whole page');

	if (shot) {
		writeFileSync(args.shot, Buffer.from(shot.data, 'base64'));
		console.log('# screenshot: ' + args.shot + ' (and ' +
			    args.shot.replace(/\.png$/, '-zoomed.png') + ')');
	}

	const foreign = requests.filter((u) => u !== pageUrl);
	ok(foreign.length === 0, 'no request but the page itself' +
	   (foreign.length ? ': ' + foreign.join(' ') : ''));
	ok(errors.length === 0, 'no JavaScript or console errors' +
	   (errors.length ? ':\n# ' + errors.join('\n# ') : ''));
} catch (e) {
	ok(false, 'driving the page: ' + e.message);
}
ws.close();
await cleanup();
process.exit(failed ? 1 : 0);
