// Compiles WebAssembly's text format to a module's bytes with wabt's wat2wasm, under Node: reads the text on stdin
// and writes the bytes on stdout. Called by src/attention_workshop/gemm_wasm.py with the path of wabt's index.js
// (fetched by scripts/fetch_assets.sh into _vendor/node/wabt/). The features of WebAssembly 2.0, SIMD among them,
// are on by default in wabt 1.0.37.
"use strict";

const wabt = require(process.argv[2]);
const text = require("fs").readFileSync(0, "utf8");
wabt().then((w) => {
  const module = w.parseWat("gemm.wat", text);
  module.validate();
  process.stdout.write(Buffer.from(module.toBinary({}).buffer));
});
