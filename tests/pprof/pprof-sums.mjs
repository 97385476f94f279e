// A second decoder of report --pprof's profiles: the npm package
// pprof-format (Datadog's, installed from tests/pprof/package-lock.json
// by scripts/install-deps) reads the gzipped profile and prints, as JSON,
// the sample types ("type/unit"), each type's sum, the number of
// samples, and each sample's leaf function with its values, for
// tests/integration/pprof-check.py to compare with the report.
//
//   node tests/pprof/pprof-sums.mjs PROFILE
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Profile } = require('pprof-format');

const p = Profile.decode(gunzipSync(readFileSync(process.argv[2])));
const s = (i) => p.stringTable.strings[Number(i)];
const types = p.sampleType.map((t) => `${s(t.type)}/${s(t.unit)}`);
const sums = types.map(() => 0n);
const fn = new Map(p.function.map((f) => [String(f.id), s(f.name)]));
const loc = new Map(p.location.map((l) => [String(l.id), l]));
const leaves = {};
for (const smp of p.sample) {
	smp.value.forEach((v, i) => { sums[i] += BigInt(v); });
	const l = loc.get(String(smp.locationId[0]));
	const name = fn.get(String(l.line[l.line.length - 1].functionId));
	const acc = leaves[name] || types.map(() => 0n);
	smp.value.forEach((v, i) => { acc[i] += BigInt(v); });
	leaves[name] = acc;
}
const num = (a) => a.map((v) => Number(v));
const out = { types, sums: num(sums), samples: p.sample.length,
	period_type: `${s(p.periodType.type)}/${s(p.periodType.unit)}`,
	leaves: Object.fromEntries(Object.entries(leaves)
		.map(([k, v]) => [k, num(v)])) };
console.log(JSON.stringify(out));
