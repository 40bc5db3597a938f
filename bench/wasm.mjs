// The benchmark's cases with the engine compiled to wasm32, in Node: prints the figures as
// JSON (the `Side` of bench/src/figures.rs) for `switchyard-bench --wasm FILE` to print
// beside the native ones. `./dev bench` builds the module and runs this.
//
//   node bench/wasm.mjs DIR [--quick] [WORD...]
//
// DIR holds wasm-bindgen's `--target nodejs` output for the switchyard-bench crate. Every case
// runs in a fresh instance, so one that runs out of memory (the 4 GB of wasm32) is reported as
// failed without touching the others.
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const [dir, ...args] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node bench/wasm.mjs DIR [--quick] [WORD...]');
  process.exit(2);
}
const quick = args.includes('--quick') || args.includes('quick');
const filters = args.filter((a) => !a.startsWith('-') && a !== 'quick');
const modulePath = path.resolve(dir, 'switchyard_bench.js');

// Every instance shares one compiled module, as one page's instances would: code V8 has
// compiled (it compiles a function when first called) serves every case. The glue compiles
// the module's bytes on each require; this keeps the first compilation.
const CompiledModule = WebAssembly.Module;
let compiled;
WebAssembly.Module = function (bytes) {
  compiled ??= new CompiledModule(bytes);
  return compiled;
};

// A new instance of the module: its own linear memory.
function fresh() {
  delete require.cache[modulePath];
  return require(modulePath);
}

const side = { cases: [], probes: [] };
for (const key of JSON.parse(fresh().case_keys(JSON.stringify(filters)))) {
  process.stderr.write(`wasm: ${key}\n`);
  const instance = fresh();
  try {
    side.cases.push(JSON.parse(instance.run_case(key, quick)));
  } catch (e) {
    const gb = instance.memory_bytes() / 2 ** 30;
    side.cases.push({ key, name: key, failed: `trapped (${e.message}) with ${gb.toFixed(1)} GB of linear memory` });
  }
}
side.probes = JSON.parse(fresh().run_probes());
console.log(JSON.stringify(side));
