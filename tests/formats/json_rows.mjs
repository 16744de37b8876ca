// Row comparison between floe's JSON lines and another engine's JSON rows,
// shared by the Parquet cross-engine tests. Values compare by meaning, not
// spelling: integers exactly (beyond 2^53 too), floats by value (float32
// printed at double precision included), timestamps and times with any
// fraction width, binary as floe's hex against the other engine's bytes,
// maps as floe's object against [{key, value}].
import { execFileSync } from 'node:child_process';

// The rows `floe parquet cat` prints for `file`, or the error it gives.
export function floeRows(floe, file, args = []) {
  try {
    const out = execFileSync(floe, ['--format', 'jsonl', 'parquet', 'cat', file, ...args], {
      maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { rows: out.toString().split('\n').filter((l) => l.length > 0).map(parseExact) };
  } catch (e) {
    return { error: (e.stderr ?? '').toString().trim() || String(e) };
  }
}

// JSON.parse, keeping integers beyond 2^53 exact (as strings).
export function parseExact(line) {
  return JSON.parse(line.replace(/([:\[,])(-?\d{16,})(?=[,\]}])/g, '$1"$2"'));
}

const isNumeric = (v) => typeof v === 'number' || (typeof v === 'string' && /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(v));
const TIMESTAMP = /^(\d{4,}-\d\d-\d\d)[T ](\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]00(:?00)?)?$/;
// A TIME adjusted to UTC is DuckDB's TIMETZ, printed with "+00"; floe
// prints the time alone (a time of day has no instant to mark as UTC).
const TIME = /^(\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]00(:?00)?)?$/;

function normalTime(s) {
  let m = TIMESTAMP.exec(s);
  if (m) return `${m[1]} ${m[2]}${trimFraction(m[3])}${m[4] ? 'Z' : ''}`;
  m = TIME.exec(s);
  if (m) return `${m[1]}${trimFraction(m[2])}`;
  return null;
}
function trimFraction(f) {
  if (!f) return '';
  const t = f.replace(/0+$/, '');
  return t === '.' ? '' : t;
}
const hex = (s) => Buffer.from(s, 'latin1').toString('hex');
// DuckDB prints a BLOB with \xNN escapes for bytes outside printable ASCII.
function duckBlobHex(s) {
  let out = '';
  for (let i = 0; i < s.length; ) {
    if (s[i] === '\\' && s[i + 1] === 'x') {
      out += s.substr(i + 2, 2).toLowerCase();
      i += 4;
    } else {
      out += hex(s[i]);
      i += 1;
    }
  }
  return out;
}

function scalarEqual(f, d) {
  if (f === d) return true;
  if (typeof f === 'string' && typeof d === 'string') {
    const tf = normalTime(f);
    if (tf !== null && tf === normalTime(d)) return true;
    // floe prints binary as hex; DuckDB prints bytes.
    if (/^([0-9a-f]{2})*$/.test(f) && (f === duckBlobHex(d) || f === hex(d))) return true;
    if (f.toLowerCase() === d.toLowerCase() && /^[0-9a-f-]{36}$/i.test(f)) return true;  // uuid
  }
  if (isNumeric(f) && isNumeric(d)) {
    if (/^-?\d+$/.test(String(f)) && /^-?\d+$/.test(String(d))) return BigInt(f) === BigInt(d);
    const a = Number(f), b = Number(d);
    if (a === b) return true;
    if (Math.fround(a) === Math.fround(b)) return true;  // float32 printed at double precision
    return Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
  }
  if ((f === 'NaN' || Number.isNaN(f)) && (d === 'NaN' || Number.isNaN(d))) return true;
  if (typeof f === 'string' && typeof d === 'number') return scalarEqual(f, String(d));
  return false;
}

// floe prints a map as an object; DuckDB as [{key, value}].
export function looseEqual(f, d) {
  if (f === null || d === null) return f === d;
  if (Array.isArray(f) && Array.isArray(d)) return f.length === d.length && f.every((v, i) => looseEqual(v, d[i]));
  if (typeof f === 'object' && !Array.isArray(f) && Array.isArray(d)) {
    const entries = Object.entries(f);
    return entries.length === d.length &&
      entries.every(([k, v], i) => d[i] !== null && scalarEqual(k, typeof d[i].key === 'object' ? JSON.stringify(d[i].key) : d[i].key) && looseEqual(v, d[i].value));
  }
  if (typeof f === 'object' && typeof d === 'object' && !Array.isArray(f) && !Array.isArray(d)) {
    const keys = Object.keys(f);
    return keys.length === Object.keys(d).length && keys.every((k) => k in d && looseEqual(f[k], d[k]));
  }
  if (typeof f === 'object' || typeof d === 'object') return false;
  return scalarEqual(f, d);
}

// The first difference between floe's rows and `expected`, or null.
export function diffRows(floe, expected, source) {
  if (floe.length !== expected.length) return `floe reads ${floe.length} rows, ${source} ${expected.length}`;
  for (let i = 0; i < floe.length; ++i) {
    if (!looseEqual(floe[i], expected[i])) {
      return `row ${i} differs from ${source}:\n    floe:  ${JSON.stringify(floe[i]).slice(0, 400)}\n    ${source}: ${JSON.stringify(expected[i]).slice(0, 400)}`;
    }
  }
  return null;
}

