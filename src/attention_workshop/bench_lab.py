"""The laboratory's speed and budgets (lessons 07 to 09; prints figures; a script, not a timed test).

    .venv/bin/python -m attention_workshop.bench_lab [SITE] [--engine chromium|node] [--baseline ASSETS] ...

1. The step, side by side. The page's training step (``book/_assets/lab/*.js``: loss, every gradient, the
   clipping, Adam; run in headless Chromium, the page's own engine, or in V8 under Node with ``--engine node``,
   whose step took 1.4-1.6 times Chromium's) and numpy's float32 and float64 steps of the package
   (``Seq2Seq.loss_and_grads``, ``clip_global_norm``, ``Adam``; one BLAS thread), from the same parameters on the
   same batches (the committed recipe's batches of the seed-0 splits), in one run: BLOCKS blocks of BLOCK_STEPS
   steps, each block timed for every engine in turn (the order rotates from one block to the next), after one
   warm-up block each. Printed: milliseconds per step (wall clock, and CPU time under Node) and the ratio page /
   numpy of each block, median and p10-p90 over the blocks, for each design the page offers
   (attention_core.models.designs), by the registry's names. The ratio of one block is taken between timings a few
   seconds apart, so a change in the machine's load moves both sides of it.
2. Time to 0.95. The page's run as the Web Worker drives it (``ae-lab-worker.js``: the splits made, the
   ``Trainer``'s steps, a validation check of greedy token accuracy on the validation set every ``eval_every``
   steps, the watched sentence decoded every 200 ms): the seconds from the start to the first check at or above
   0.95, with what went to making the data, to the steps and to the checks, for each design and each target
   language (lesson 07's and verb-final), in the engine of 1, with every check in the training loop; and that
   time less the checks before the last: about what the page's run takes with a second core free, since the page
   runs its checks in a second Worker (the checker) while the trainer trains on. Section 3 measures that in the page.
   ``--baseline ASSETS`` (another copy of ``book/_assets``, e.g. ``git archive`` of an earlier commit) times that
   copy's parts too, in the same blocks and runs in turn with today's: before and after side by side.
3. With a built site (``make book``; skipped when there is none, or with ``--no-site``), in headless Chromium
   (Debian's, as the browser tests) on the site served from 127.0.0.1: input to repaint, median and 90th
   percentile over SAMPLES inputs (target: p90 <= 16 ms), for Compose (a new sentence typed: parse, greedy
   decoding, the grid), Step (the step slider) and Watch (the snapshot scrubber), and for Compose and Watch
   again while the Worker trains (target: p90 <= 50 ms), measured as ``attention_workshop.bench_site`` does: the
   input is dispatched at the start of a frame and the sample ends when a message posted then arrives, after that
   frame's rendering (the compose sentences are typed once unmeasured first: the boxes keep the largest size they
   had). A run started with the Train button (of the page's default design, or ``--page-design``; of the page's
   budget of steps, or ``--train-steps``), to 0.95 as the page reports it; screenshots of the
   heatmap during that run at 390 and 1280 px, light and dark, go to ``_build/screenshots/lab-training-*.png``.
   The weight of lesson 07's page in each edition, cold cache, with the lab's data and the figures loaded lazily
   (target: <= 1.1 MiB on load), and the lab's own files.

Timings depend on the machine and on what else runs on it; the script prints the load average beside them and
compares only figures taken in the same blocks.
"""

from __future__ import annotations

import base64
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import time

import numpy as np

from attention_core.models import designs
from attention_workshop.command import OneLineParser, add_site_argument, run
from attention_workshop.paths import ROOT

PROG = "python -m attention_workshop.bench_lab"
ASSETS = ROOT / "book" / "_assets"  # ae-lab-math.js and its parts, lab/*.js
SHOTS = pathlib.Path(os.environ.get("AE_SCREENSHOTS", ROOT / "_build" / "screenshots"))
LESSON_07 = "notebooks/07_learning_without_labels.html"
LAB = '.ae-explorer.ae-lab-open[data-explorer="lab"]'  # opened: its data load when it comes into view
SAMPLES = 60
MiB = 1024 * 1024
BLOCKS = 10  # timed blocks of the step, each engine in turn
BLOCK_STEPS = 20  # steps in a block
TARGET = 0.95  # validation token accuracy of "time to 0.95"
LANGUAGES = ("svo", "verb_final")  # the target languages the page trains on (attention_core.models.data.LANGUAGES)
# The designs the page offers, by the registry's names -> the ModelConfig fields that choose their parts
# (attention_core.models.designs, those with `lab`).
DESIGNS = {d.name: d.fields() for d in designs.where(lab=True)}
W = max(map(len, DESIGNS))  # the width of the designs' column

# The page's side, in V8: one function of the assembled mathematics M (AELabMath) that answers commands.
#   {cmd: "load", id, config, recipe, params: {name: base64 float64}, batches: [{N, T, src, tgtIn, tgtOut, align}]}
#   {cmd: "block", id, from, count}: that many training steps on the loaded batches -> {ms, loss}
#   {cmd: "train", config, recipe, grammar, dataSeed, nTest, watch, target}: a run as ae-lab-worker.js drives it
#   {cmd: "wasm", bytes: base64}: the products in WebAssembly, as the served lab/kernels.js has them -> {engine}
DRIVER = r"""
function aeLabBench(M) {
  "use strict";
  var models = {};
  function now() {
    return performance.now();
  }
  // The process's CPU time in ms (Node; null in a browser, which does not tell).
  function cpuMs() {
    if (typeof process !== "object" || !process.cpuUsage) return null;
    var u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  }
  function f64(text) {
    var bin = atob(text),
      bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new Float64Array(bytes.buffer);
  }
  function batch(b) {
    return { N: b.N, T: b.T, U: b.T + 1, src: Int32Array.from(b.src), tgtIn: Int32Array.from(b.tgtIn),
      tgtOut: Int32Array.from(b.tgtOut), align: Int32Array.from(b.align) };
  }
  // One training step as the page's Trainer.step takes it (its gradients reused from one step to the next).
  function step(m, b) {
    var r = M.lossAndGrads(m.p, m.cfg, b, m.grads);
    M.clipGlobalNorm(r.grads, m.recipe.clip_norm);
    m.opt.update(m.p, r.grads, M.learningRate(m.recipe, m.steps));
    m.steps += 1;
    return r.loss;
  }
  // A run as ae-lab-worker.js drives it without a checker (every check in its own loop): the splits, the Trainer,
  // a validation check every eval_every steps, the watched sentence decoded when 200 ms have passed since the last
  // post; stops at the first check >= target.
  function train(c) {
    var G = c.grammar,
      R = c.recipe,
      t0 = now();
    var splits = M.makeSplits(G, c.dataSeed, R.n_train, R.n_valid, c.nTest);
    var tr = new M.Trainer(G, c.config, R, splits);
    var watch = M.parse(G, c.watch).pair;
    var made = now(),
      stepMs = 0,
      evalMs = 0,
      watchMs = 0,
      lastPost = made,
      checks = [],
      reached = null;
    while (tr.steps < R.steps && !reached) {
      var a = now();
      tr.step();
      var b = now();
      stepMs += b - a;
      var check = tr.steps % R.eval_every === 0 || tr.steps === R.steps;
      if (check) {
        var acc = M.shares(M.evaluate(tr.params, c.config, G, splits.valid, false, 256)).token;
        var e = now();
        evalMs += e - b;
        checks.push([tr.steps, acc, (e - t0) / 1000, e - b]); // step, accuracy, seconds so far, ms of the check
        if (acc >= c.target) reached = { step: tr.steps, seconds: (e - t0) / 1000 };
      }
      if (check || tr.steps === 1 || now() - lastPost > 200) {
        var w = now();
        M.greedy(tr.params, c.config, watch.src, 1, watch.src.length, watch.src.length + 1, false, G.bos_id);
        M.teacherWeights(tr.params, c.config, G, watch);
        lastPost = now();
        watchMs += lastPost - w;
      }
    }
    return { reached: reached, steps: tr.steps, seconds: (now() - t0) / 1000, dataMs: made - t0, stepMs: stepMs,
      evalMs: evalMs, watchMs: watchMs, checks: checks };
  }
  return function (c) {
    if (c.cmd === "load") {
      var p = {};
      Object.keys(c.params).forEach(function (k) {
        p[k] = f64(c.params[k]);
      });
      models[c.id] = { p: p, cfg: c.config, recipe: c.recipe, steps: 0, batches: c.batches.map(batch),
        opt: new M.Adam(p, c.recipe.beta1, c.recipe.beta2, c.recipe.adam_eps), grads: M.parts.kernels.zerosLike(p) };
      return { loaded: c.id };
    }
    if (c.cmd === "block") {
      var m = models[c.id],
        loss = 0,
        t = now(),
        cpu = cpuMs();
      for (var i = 0; i < c.count; i++) loss = step(m, m.batches[c.from + i]);
      return { ms: now() - t, cpu: cpu === null ? null : cpuMs() - cpu, loss: loss };
    }
    if (c.cmd === "train") return train(c);
    if (c.cmd === "wasm") {
      var K = M.parts.kernels;
      if (K.useWasm) K.useWasm(c.bytes); // a copy from before lab/gemm.wat has no useWasm
      return { engine: K.engine ? K.engine() : "javascript" };
    }
    throw new Error("unknown command " + c.cmd);
  };
}
"""

# Node: assemble the parts of one copy of book/_assets, then answer one JSON command per line.
NODE_HOST = r"""
"use strict";
const path = require("path");
const assets = process.argv[1];
const math = require(path.join(assets, "ae-lab-math.js"));
const M = math.assemble(math.PARTS.map((name) => require(path.join(assets, "lab", name + ".js"))));
const handle = aeLabBench(M);
require("readline").createInterface({ input: process.stdin }).on("line", (line) => {
  process.stdout.write(JSON.stringify(handle(JSON.parse(line))) + "\n");
});
"""


class NodeEngine:
    """The page's parts of one copy of ``book/_assets``, in a Node process that answers commands."""

    def __init__(self, assets: pathlib.Path, label: str):
        node = shutil.which("node")
        if node is None:
            raise SystemExit(f"{PROG}: error: Node.js is needed (it runs the page's parts; make book needs it too)")
        self.label = label
        self.version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
        self.proc = subprocess.Popen(
            [node, "-e", DRIVER + NODE_HOST, str(assets.resolve())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.products = products_as_served(self, assets)

    def __call__(self, command: dict) -> dict:
        self.proc.stdin.write(json.dumps(command) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"{PROG}: error: the Node process of {self.label} stopped (its error is above)")
        return json.loads(line)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


class ChromiumEngine:
    """The page's parts of one copy of ``book/_assets``, in a page of headless Chromium (the page's own engine)."""

    def __init__(self, browser, assets: pathlib.Path, label: str):
        self.label = label
        self.version = browser.version
        self.context = browser.new_context()
        self.page = self.context.new_page()
        self.page.set_content("<!doctype html><title>bench</title>")
        names = ["ae-lab-math.js", *(f"lab/{name}.js" for name in part_names(assets))]
        for name in names:
            self.page.add_script_tag(content=(assets / name).read_text(encoding="utf-8"))
        self.page.add_script_tag(content=DRIVER + "\nself.aeBench = aeLabBench(AELabMath.assemble());\n")
        self.products = products_as_served(self, assets)

    def __call__(self, command: dict) -> dict:
        return self.page.evaluate("(c) => self.aeBench(c)", command)

    def close(self) -> None:
        self.context.close()


def products_as_served(engine, assets: pathlib.Path) -> str:
    """Gives the engine's parts the compiled ``lab/gemm.wat`` of this copy, as the page has it: the committed part
    ``lab/wasm.js`` (``attention_workshop.gemm_wasm``), or for an older copy without it, its gemm.wat compiled with
    wabt (a copy with neither keeps its products in JavaScript); returns where the products run."""
    from attention_workshop import gemm_wasm

    part, wat = assets / "lab" / "wasm.js", assets / "lab" / "gemm.wat"
    if part.is_file():
        found = gemm_wasm.BYTES.search(part.read_text(encoding="utf-8"))
        encoded = found.group(1) if found else ""
    elif wat.is_file():
        encoded = base64.b64encode(gemm_wasm.compile_wat(wat.read_text(encoding="utf-8"))).decode("ascii")
    else:
        return "javascript"
    return engine({"cmd": "wasm", "bytes": encoded})["engine"]


def part_names(assets: pathlib.Path) -> list[str]:
    """The parts ae-lab-math.js assembles, in its order (AE_LAB_PARTS)."""
    text = (assets / "ae-lab-math.js").read_text(encoding="utf-8")
    start = text.index("AE_LAB_PARTS = [") + len("AE_LAB_PARTS = ")
    return json.loads(text[start : text.index("]", start) + 1])


class NumpyEngine:
    """The package's step (loss_and_grads, clip_global_norm, Adam) in float32 or float64, one BLAS thread."""

    def __init__(self, dtype: str):
        self.dtype = dtype
        self.label = f"numpy {dtype}"
        self.models = {}

    def __call__(self, command: dict) -> dict:
        from threadpoolctl import threadpool_limits

        from attention_core.models.seq2seq import ModelConfig, Seq2Seq
        from attention_core.models.train import Adam, TrainConfig, clip_global_norm, learning_rate

        if command["cmd"] == "load":
            cfg = ModelConfig(**{**command["config"], "dtype": self.dtype})
            model = Seq2Seq(cfg)
            model.params = {k: v.astype(self.dtype) for k, v in command["arrays"].items()}
            r = command["recipe"]
            schedule = {k: r[k] for k in ("steps", "lr", "lr_end", "warmup_steps", "clip_norm")}
            tc = TrainConfig(model=cfg, **schedule)
            self.models[command["id"]] = {
                "model": model,
                "tc": tc,
                "opt": Adam(model.params, r["beta1"], r["beta2"], r["adam_eps"]),
                "steps": 0,
                "batches": command["numpy_batches"],
            }
            return {"loaded": command["id"]}
        m = self.models[command["id"]]
        model, opt, tc = m["model"], m["opt"], m["tc"]
        with threadpool_limits(1):
            start, cpu = time.perf_counter(), time.process_time()
            for batch in m["batches"][command["from"] : command["from"] + command["count"]]:
                loss, grads = model.loss_and_grads(batch)
                clip_global_norm(grads, tc.clip_norm)
                opt.update(model.params, grads, learning_rate(tc, m["steps"]))
                m["steps"] += 1
            return {"ms": (time.perf_counter() - start) * 1000, "cpu": (time.process_time() - cpu) * 1000, "loss": loss}

    def close(self) -> None:
        pass


def b64(a: np.ndarray) -> str:
    return base64.b64encode(np.ascontiguousarray(a, dtype="<f8").tobytes()).decode("ascii")


def spread(values) -> str:
    """Median and p10-p90 of a list of figures."""
    p10, p50, p90 = np.percentile(values, [10, 50, 90])
    return f"{p50:6.2f} ({p10:.2f}-{p90:.2f})"


def the_page(design: str) -> tuple[dict, dict, dict]:
    """What the page trains with: the design's ModelConfig (the package's field names), its recipe (the committed
    recipe's optimiser and data, the page's budget of steps and checks) and the grammar of the toy language."""
    import dataclasses

    from attention_core.explorers import site
    from attention_core.models.seq2seq import ModelConfig
    from attention_core.models.train import TrainConfig

    tc = TrainConfig()
    recipe = {k: getattr(tc, k) for k in ("batch_size", "lr", "lr_end", "warmup_steps", "clip_norm", "beta1")}
    recipe.update({k: getattr(tc, k) for k in ("beta2", "adam_eps", "n_train", "n_valid", "seed")})
    recipe.update(steps=site.LAB_STEPS, eval_every=site.LAB_EVAL_EVERY, n_test=site.LAB_N_TEST)
    cfg = dataclasses.asdict(ModelConfig(**DESIGNS[design]))
    del cfg["dtype"]
    return cfg, recipe, site.lab_data()["grammar"]


def step_side_by_side(pages: list, design: str, blocks: int, block_steps: int) -> dict:
    """Blocks of steps of every engine in turn on the same batches, from the same parameters: for each engine,
    the wall-clock and CPU milliseconds of each block ({ms, cpu}; cpu is None in Chromium)."""
    from attention_core.models import data
    from attention_core.models.seq2seq import ModelConfig, Seq2Seq

    cfg, recipe, _ = the_page(design)
    cfg["dtype"] = "float64"
    splits = data.make_splits(seed=0)
    batches = data.length_batches(splits.train, recipe["batch_size"], np.random.default_rng(0))
    batches = batches[: (blocks + 1) * block_steps]
    params = Seq2Seq(ModelConfig(**cfg), seed=0).params  # float64: each engine casts to its own type
    js_batches = [
        {
            "N": int(b.src.shape[0]),
            "T": int(b.src.shape[1]),
            "src": b.src.ravel().tolist(),
            "tgtIn": b.tgt_in.ravel().tolist(),
            "tgtOut": b.tgt_out.ravel().tolist(),
            "align": b.align.ravel().tolist(),
        }
        for b in batches
    ]
    engines = [*pages, NumpyEngine("float32"), NumpyEngine("float64")]
    load = {"cmd": "load", "id": design, "config": cfg, "recipe": recipe}
    for engine in engines:
        if isinstance(engine, NumpyEngine):
            engine({**load, "arrays": params, "numpy_batches": batches})
        else:
            engine({**load, "params": {k: b64(v) for k, v in params.items()}, "batches": js_batches})
        engine({"cmd": "block", "id": design, "from": 0, "count": block_steps})  # warm-up (the JIT), not counted
    out = {engine.label: [] for engine in engines}
    for b in range(blocks):
        turn = engines[b % len(engines) :] + engines[: b % len(engines)]  # who goes first rotates
        for engine in turn:
            block = {"cmd": "block", "id": design, "from": (b + 1) * block_steps, "count": block_steps}
            out[engine.label].append(engine(block))
    return out


def time_to_target(engine, design: str, language: str, steps: int | None) -> dict:
    """The page's run (seed 0, data seed 0, the page's recipe) of one design on one target language, to the first
    check at or above TARGET (or the end of its budget)."""
    from attention_core.models import data

    cfg, recipe, grammar = the_page(design)
    if steps:
        recipe["steps"] = steps
    watch = data.make_splits(seed=0).test[0].words()[0]  # a sentence to watch (the source is the same in both)
    command = {
        "cmd": "train",
        "config": cfg,
        "recipe": recipe,
        "grammar": {**grammar, "language": language},  # the page's grammar of a language (ae-lab-math.js)
        "dataSeed": 0,
        "nTest": recipe["n_test"],
        "watch": list(watch),
        "target": TARGET,
    }
    return engine(command)


def run_line(runs: list[dict]) -> str:
    """One copy's runs of one design and language: the time to TARGET and where the time went."""
    r = runs[0]
    reached = [x["reached"]["seconds"] for x in runs if x["reached"]]
    if r["reached"]:
        head = f"{statistics.median(reached):5.1f} s at step {r['reached']['step']:<4}"
        if len(runs) > 1:
            head += f" (runs {min(reached):.1f}-{max(reached):.1f})"
        before = sum(c[3] for c in r["checks"][:-1]) / 1000  # the checks before the one that reached the target
        head += f" (about {r['reached']['seconds'] - before:.1f} s with those checks in a second Worker, as the page)"
    else:
        best = max(r["checks"], key=lambda c: c[1]) if r["checks"] else (0, float("nan"))
        head = f"not in {r['steps']} steps ({r['seconds']:.1f} s; best {best[1]:.3f} at step {best[0]})"
    return (
        f"{head}: data {r['dataMs'] / 1000:.1f} s, {r['steps']} steps {r['stepMs'] / 1000:.1f} s "
        f"({r['stepMs'] / r['steps']:.1f} ms each), {len(r['checks'])} checks {r['evalMs'] / 1000:.1f} s "
        f"({r['evalMs'] / max(len(r['checks']), 1) / 1000:.2f} s each), watched sentence {r['watchMs'] / 1000:.1f} s"
    )


def speed(args) -> None:
    """Sections 1 and 2: the step side by side and the time to 0.95, in Node or in Chromium."""
    load = os.getloadavg()
    print(f"The laboratory's speed (load average {load[0]:.1f}, {os.cpu_count()} cores)")
    copies = [(ASSETS, "page")]
    if args.baseline:
        copies.append((args.baseline, "baseline"))
    browser = playwright = None
    if args.engine == "chromium":
        from playwright.sync_api import sync_playwright

        from attention_workshop.bench_site import ARGS, CHROMIUM

        playwright = sync_playwright().start()
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        pages = [ChromiumEngine(browser, assets, label) for assets, label in copies]
        engine_name = f"Chromium {pages[0].version}"
    else:
        pages = [NodeEngine(assets, label) for assets, label in copies]
        engine_name = f"Node {pages[0].version}"
    engine_name += "; products in " + ", ".join(f"{p.label}: {p.products}" for p in pages)
    try:
        if args.blocks:
            print(
                f"\n1. The step, side by side: {args.blocks} blocks of {args.block_steps} steps on the same batches, "
                f"each engine in turn (the page's parts in {engine_name}; numpy with one BLAS thread)"
            )
            print(
                "   ms per step (wall clock; CPU time of the process where the engine tells it) and the ratios of "
                "each block, median (p10-p90) over the blocks"
            )
            pairs = [(p.label, n) for p in pages for n in ("numpy float32", "numpy float64")]
            if args.baseline:
                pairs.append(("page", "baseline"))
            for design in args.designs:
                blocks = step_side_by_side(pages, design, args.blocks, args.block_steps)
                clocks = ("ms", "cpu") if all(b[0]["cpu"] is not None for b in blocks.values()) else ("ms",)
                for clock in clocks:
                    name = {"ms": "wall", "cpu": "CPU"}[clock]
                    per = {k: statistics.median(b[clock] for b in v) / args.block_steps for k, v in blocks.items()}
                    line = ", ".join(f"{k} {v:.1f}" for k, v in per.items())
                    print(f"  {design if clock == 'ms' else '':<{W}} {name:<4} ms per step: {line}")
                for a, b in pairs:
                    ratios = [
                        spread([x[clock] / y[clock] for x, y in zip(blocks[a], blocks[b], strict=True)])
                        for clock in clocks
                    ]
                    print(
                        f"  {'':<{W}} {a} / {b}: "
                        + "; ".join(f"{c} {r}" for c, r in zip(("wall", "CPU"), ratios, strict=False))
                    )
                sys.stdout.flush()
        if args.runs:
            print(
                f"\n2. Time to {TARGET} validation token accuracy: the page's run as its Worker drives it (seed 0, "
                f"data seed 0, a check every 50 steps on the validation set) in {engine_name}; {args.runs} run(s) "
                "of each copy, in turn"
            )
            for design in args.designs:
                for language in args.languages:
                    results = {p.label: [] for p in pages}
                    for _ in range(args.runs):
                        for page in pages:
                            results[page.label].append(time_to_target(page, design, language, args.train_steps))
                    for label, runs in results.items():
                        print(f"  {design:<{W}} {language:<10} {label:<8} {run_line(runs)}")
                    if args.baseline and all(r["reached"] for rs in results.values() for r in rs):
                        ratio = [
                            a["reached"]["seconds"] / b["reached"]["seconds"]
                            for a, b in zip(results["page"], results["baseline"], strict=True)
                        ]
                        print(f"  {'':<{W}} {'':<10} page / baseline: {statistics.median(ratio):.2f}")
                    sys.stdout.flush()
    finally:
        for page in pages:
            page.close()
        if browser:
            browser.close()
            playwright.stop()


# One sample: at the start of a frame, change the input and dispatch its event; the sample ends when a message
# posted in the same callback arrives, which is after the frame (style, layout, paint) is rendered.
REPAINT = """
async ([selector, values, event]) => {
  const input = document.querySelector(selector);
  const times = [];
  for (const value of values) {
    times.push(await new Promise((done) => {
      requestAnimationFrame(() => {
        const t0 = performance.now();
        input.value = String(value);
        input.dispatchEvent(new Event(event, { bubbles: true }));
        const channel = new MessageChannel();
        channel.port1.onmessage = () => done(performance.now() - t0);
        channel.port2.postMessage(null);
      });
    }));
  }
  return times;
}
"""


def p90(times: list[float]) -> float:
    return sorted(times)[int(0.9 * len(times))]


def open_lab(browser, base: str, path: str = LESSON_07, width: int = 1280, scheme: str = "light"):
    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    page.goto(f"{base}/{path}", wait_until="load")
    # as a reader reaches it (the DOM's own scrollIntoView: the lab's top just under the theme's header)
    page.locator('.ae-explorer[data-explorer="lab"]').evaluate("(e) => e.scrollIntoView({block: 'start'})")
    root = page.locator(LAB)
    root.wait_for(timeout=20000)
    return context, page, root


def repaint(page, root, tab: int, selector: str, values, event: str = "input") -> list[float]:
    root.locator('[role="tab"]').nth(tab).click()
    root.scroll_into_view_if_needed()
    page.wait_for_timeout(100)
    return page.evaluate(REPAINT, [selector, list(values), event])


def sentences() -> list[str]:
    from attention_core.models import data

    test = data.make_splits(seed=0).test
    return [" ".join(p.words()[0]) for p in test[:SAMPLES]]


def site_figures(site: pathlib.Path, design: str | None = None, budget: int | None = None) -> None:
    """Section 3: the built site's laboratory in headless Chromium; ``design`` (a name of DESIGNS) is what the Train
    button trains (default: the design the page opens on), ``budget`` its steps (default: the page's)."""
    from playwright.sync_api import sync_playwright

    from attention_workshop.bench_site import ARGS, CHROMIUM, PAGE_FIGURES, serve

    httpd, base = serve(site)
    load = os.getloadavg()
    print(f"\n3. Lesson 07's laboratory on the built site (load average {load[0]:.1f}, {os.cpu_count()} cores)")
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)

        # input to repaint, nothing training
        context, page, root = open_lab(browser, base)
        texts = sentences()
        repaint(page, root, 0, f"{LAB} input[type=text]", texts)  # once unmeasured: the boxes reach their size
        compose = repaint(page, root, 0, f"{LAB} input[type=text]", texts)
        root.locator('[role="tab"]').nth(0).click()
        root.locator("input[type=text]").fill(texts[3])  # a sentence to step through
        steps = [1 + (7 * i) % 10 for i in range(SAMPLES)]
        step = repaint(page, root, 1, f"{LAB} .ae-lab-stepper input[type=range]", steps)
        snapshots = [(7 * i) % 51 for i in range(SAMPLES)]
        scrub = repaint(page, root, 2, f"{LAB} .ae-lab-scrubber input[type=range]", snapshots)
        root.locator('[role="tab"]').nth(2).click()
        root.locator(".ae-lab-scrubber").locator("xpath=..").locator("select").select_option("2")  # 27 words
        scrub27 = page.evaluate(REPAINT, [f"{LAB} .ae-lab-scrubber input[type=range]", snapshots, "input"])
        context.close()

        # training to 0.95 in the page, with repaint figures and screenshots while it runs
        context, page, root = open_lab(browser, base)
        if design is not None:
            root.locator(".ae-lab-chooser select").nth(0).select_option(design)
        root.locator('[role="tab"]').nth(3).click()
        root.scroll_into_view_if_needed()
        if budget is not None:
            root.locator(".ae-lab-panel").nth(3).locator('input[type="number"]').nth(1).fill(str(budget))
        root.locator(".ae-lab-primary").click()
        started = time.perf_counter()
        page.wait_for_function(f"() => (document.querySelector('{LAB}').aeLab.run.step || 0) >= 150", timeout=600000)
        shots = []
        for width, scheme in ((1280, "light"), (1280, "dark"), (390, "light"), (390, "dark")):
            page.set_viewport_size({"width": width, "height": 900})
            page.emulate_media(color_scheme=scheme)
            page.wait_for_timeout(700)
            root.locator(".ae-lab-panel").nth(3).locator(".ae-lab-gridbox").first.scroll_into_view_if_needed()
            name = SHOTS / f"lab-training-{width}-{scheme}.png"
            page.screenshot(path=str(name))
            shots.append(name)
        page.set_viewport_size({"width": 1280, "height": 900})
        page.emulate_media(color_scheme="light")
        busy_compose = repaint(page, root, 0, f"{LAB} input[type=text]", texts[: SAMPLES // 2])
        busy_scrub = repaint(page, root, 2, f"{LAB} .ae-lab-scrubber input[type=range]", snapshots[: SAMPLES // 2])
        root.locator('[role="tab"]').nth(3).click()
        page.wait_for_function(
            f"() => {{ const r = document.querySelector('{LAB}').aeLab.run; return r.reached || r.done; }}",
            timeout=600000,
        )
        run_ = root.evaluate(
            "el => { const r = el.aeLab.run; return {reached: r.reached, step: r.step, ms: r.msPerStep, "
            "steps: r.steps, design: r.design, valid: r.valid, seconds: r.seconds}; }"
        )
        wall = time.perf_counter() - started
        context.close()

        # page weight, cold cache, both editions
        weights = {}
        for path in (LESSON_07, f"zh/{LESSON_07}"):
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            page.goto(f"{base}/{path}", wait_until="load")
            page.wait_for_load_state("networkidle")
            page.wait_for_timeout(200)
            f = page.evaluate(PAGE_FIGURES)
            lazy = [site / s.removeprefix(base + "/").split("?")[0] for s in f["lazy"] if s.startswith(base)]
            weights[path] = (f["bytes"], f["bytes"] + sum(q.stat().st_size for q in lazy if q.is_file()))
            context.close()
        browser.close()
    httpd.shutdown()

    print(f"  the Train button ({run_['design']}, seed 0, {run_['steps']} steps at most):")
    if run_["reached"]:
        print(
            f"    validation token accuracy >= {TARGET} at step {run_['reached']['step']}, after "
            f"{run_['reached']['seconds']:.1f} s in the page ({wall:.1f} s from the click, as seen here); "
            f"{run_['ms']:.1f} ms per step in the Worker"
        )
    else:
        print(f"    did not reach {TARGET} within {run_['steps']} steps ({run_['seconds']:.1f} s in the page)")
    checks = ", ".join(f"{step}: {acc:.3f}" for step, acc in run_["valid"])
    print(f"    validation token accuracy by step: {checks}")
    print("    screenshots of the heatmap during training: " + ", ".join(str(s.relative_to(ROOT)) for s in shots))
    print(f"  input to repaint, {SAMPLES} samples (target: p90 <= 16 ms; <= 50 ms while training)")
    for name, times in (
        ("compose (parse, greedy decoding, grid)", compose),
        ("step slider", step),
        ("snapshot scrubber (6 words)", scrub),
        ("snapshot scrubber (27 words)", scrub27),
        ("compose while training", busy_compose),
        ("snapshot scrubber while training", busy_scrub),
    ):
        print(f"    {name:<42} median {statistics.median(times):5.1f} ms, p90 {p90(times):5.1f} ms")
    print("  lesson 07's page, cold cache (target <= 1.1 MiB on load; the lab's data and the figures lazily)")
    for path, (loaded, read) in weights.items():
        print(f"    {path:<46} {loaded / MiB:5.2f} MiB on load, {read / MiB:5.2f} MiB with every figure")
    names = ("ae-lab-data.js", "ae-lab-math.js", "ae-lab.js", "ae-lab-worker.js", "ae-lab.css")
    files = {name: (site / "_static" / name).stat().st_size for name in names if (site / "_static" / name).is_file()}
    files["lab/*.js"] = sum(path.stat().st_size for path in (site / "_static" / "lab").glob("*.js"))
    print("  the lab's files: " + ", ".join(f"{k} {v / 1024:.0f} KiB" for k, v in files.items()))


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog=PROG, description=__doc__.splitlines()[0])
    add_site_argument(parser)
    parser.add_argument(
        "--engine", choices=("chromium", "node"), default="chromium", help="where the parts run (1 and 2)"
    )
    parser.add_argument(
        "--designs", nargs="+", choices=list(DESIGNS), default=list(DESIGNS), metavar="DESIGN",
        help=f"designs to time, of {list(DESIGNS)} (default: all)",
    )  # fmt: skip
    parser.add_argument("--blocks", type=int, default=BLOCKS, help=f"blocks of the step (default {BLOCKS}; 0: no 1)")
    parser.add_argument("--block-steps", type=int, default=BLOCK_STEPS, help=f"steps per block (default {BLOCK_STEPS})")
    parser.add_argument("--runs", type=int, default=1, help="runs to 0.95 of each design and copy (default 1; 0: no 2)")
    parser.add_argument("--train-steps", type=int, help="the run's budget of steps (default: the page's; 2 and 3)")
    parser.add_argument(
        "--page-design", choices=list(DESIGNS), metavar="DESIGN", help="the design the page's Train button trains (3)"
    )
    parser.add_argument(
        "--languages", nargs="+", choices=LANGUAGES, default=list(LANGUAGES), help="target languages (2)"
    )
    parser.add_argument("--baseline", type=pathlib.Path, help="another copy of book/_assets, timed beside this one")
    parser.add_argument("--no-site", action="store_true", help="skip 3 (the built site)")
    args = parser.parse_args(argv)
    if args.baseline and not (args.baseline / "ae-lab-math.js").is_file():
        parser.error(f"no ae-lab-math.js in {args.baseline}")
    if args.blocks < 0 or args.block_steps < 1 or args.runs < 0:
        parser.error("--blocks and --runs must be >= 0, --block-steps >= 1")
    if args.train_steps is not None and args.train_steps < 1:
        parser.error(f"--train-steps must be at least 1, got {args.train_steps}")
    speed(args)
    site = args.site.resolve()
    if args.no_site:
        return 0
    if not (site / LESSON_07).exists():
        print(f"\n3. (no built lesson 07 at {site}: run `make book` for the site's figures)")
        return 0
    site_figures(site, args.page_design, args.train_steps)
    return 0


if __name__ == "__main__":
    sys.exit(run(main, PROG))
