// The laboratory on the website (lessons 07 to 09): the committed translation models, in the reader's browser.
//
// Loaded only on the pages of a notebook with a lab explorer (src/attention_workshop/ae_twins.py). When the lab first comes into view (see
// "Loading" below) it loads ae-lab-math.js and its parts (the model's mathematics, a second implementation of
// attention_core.models, part by part, tested against it), ae-lab-worker.js (the training loop of a Web Worker;
// a second Worker of the same code runs the validation checks, which can run on another core)
// and ae-lab-data.js (self.AELabData: every committed model of lessons 07 to 09, the grammar, the training
// snapshots, the recipe and the seed study, exported by attention_core.explorers.site.lab_data when the site was
// built). Every word shown comes from the page's edition (#ae-params "labels", from
// attention_core.explorers.site.LABELS). Above the panels, the design (the designs the registry offers the lab,
// attention_core.models.designs: attention with the additive or general score in Bahdanau's or Luong's order, the
// fixed summary, or lesson 09's encoders of self-attention layers; their labels and step panels come with the data)
// and the target language (lesson 07's or verb-final): Compose, Step and Encoder use the committed model of that
// pair, or the reader's own finished run of it (without either, they say to train one first). The panels:
//   Compose        a sentence of the toy language, its greedy translation, the alignment grid, the reference
//   Step through   one decoder step at a time, in the order of the design's equations
//   Watch it learn lesson 07's committed run's snapshots (whatever is chosen above, and it says so): the grid, the
//                  losses and the validation curves, step by step
//   Train          the chosen design on the chosen language, trained in a Worker with its own seed (checked in a
//                  second one), beside the seed study's runs of the same design and language; it says where the
//                  products run (WebAssembly with SIMD, else JavaScript)
//   Encoder        for a design whose encoder is made of self-attention layers (lesson 09): what each layer reads,
//                  beside the decoder's cross-attention, for the sentence of Compose (shown for those designs only)
(function () {
  "use strict";

  var UI = self.AEUI, // ae-ui.js: the helpers this script shares with the explorers
    t = UI.t, // every word shown comes from the page's edition (its labels)
    el = UI.el,
    svg = UI.svg;
  var uid = 0;
  // The panels, in the order of their tabs (each tab's label is "lab_tab_" + its name; data-args "panel" names one).
  var PANELS = ["compose", "step", "watch", "train", "encoder"];

  function fmt(x, digits) {
    return UI.fmt(x, digits === undefined ? 3 : digits); // three decimals unless told; "–" for no number
  }

  function id(name) {
    return "ae-lab-" + name + "-" + uid;
  }

  // A formula of the design registry as nodes, from the pieces attention_core.explorers.formulas made of its TeX:
  // text, and symbols {base, sub, sup} (italic; upright with "upright") -> e<sub>tj</sub>. data-tex keeps the TeX.
  function eq(formula) {
    return el(
      "p",
      { class: "ae-lab-eq", "data-tex": formula.tex },
      formula.math.map(function (p) {
        if (typeof p === "string") return document.createTextNode(p);
        var span = el("span", { class: p.upright ? null : "ae-lab-sym" }, [p.base]);
        if (p.sub) span.appendChild(el("sub", {}, [p.sub]));
        if (p.sup) span.appendChild(el("sup", {}, [p.sup]));
        return span;
      })
    );
  }

  // ---------------------------------------------------------------------------------------------------------
  // A grid of cells drawn on a canvas (an alignment matrix, or one vector as a strip): weights in [0, 1] as the
  // opacity of one ink, signed values (a state) in two colours, with the row and column labels. A canvas
  // repaints a 31 x 30 grid in a fraction of a millisecond, where as many SVG elements cost a frame. The grid
  // takes keyboard focus: the arrow keys, Home, End, Page Up and Page Down move a cursor, and the cell under the
  // cursor (or under the pointer or finger) is written out as text below the grid, in a polite live region.

  var grids = []; // every grid, redrawn when the theme changes

  function Grid(opts) {
    this.opts = opts;
    this.readoutId = id("readout-" + ++uid);
    this.wrap = el("div", {
      class: "ae-lab-grid" + (opts.signed ? " ae-lab-strip" : ""),
      tabindex: "0",
      role: "group",
      "aria-label": opts.label,
      "aria-describedby": this.readoutId,
    });
    // the row labels on a canvas of their own that stays at the box's left edge while the cells scroll under it
    this.rowCanvas = el("canvas", { class: "ae-lab-rowcanvas", "aria-hidden": "true" });
    this.canvas = el("canvas", { class: "ae-lab-canvas", "aria-hidden": "true" });
    this.wrap.appendChild(this.rowCanvas);
    this.wrap.appendChild(this.canvas);
    this.readout = el("p", { class: "ae-lab-readout", id: this.readoutId, "aria-live": "polite" }, [opts.hint || ""]);
    // a grid wider than the column scrolls sideways (the box, not the page), and says so beside an edge shadow
    this.cue = el("p", { class: "ae-lab-scrollcue", hidden: "hidden" }, [t("lab_grid_scroll")]);
    this.node = el("div", { class: "ae-lab-gridbox" }, [this.cue, this.wrap, this.readout]);
    this.rows = [];
    this.cols = [];
    this.truth = [];
    this.values = null;
    this.cursor = null;
    this.showing = false; // whether the cursor is drawn
    var self = this;
    this.wrap.addEventListener("keydown", function (e) {
      self.key(e);
    });
    this.wrap.addEventListener("focus", function () {
      if (!self.cursor) self.cursor = [0, 0];
      self.showCursor();
    });
    this.wrap.addEventListener("blur", function () {
      self.hideCursor();
    });
    this.canvas.addEventListener("pointermove", function (e) {
      if (e.pointerType === "mouse") self.pointer(e); // a finger's move scrolls the box; its tap reads a cell
    });
    this.canvas.addEventListener("click", function (e) {
      self.pointer(e);
    });
    this.wrap.addEventListener("scroll", function () {
      self.edges();
    });
    this.canvas.addEventListener("pointerleave", function () {
      if (document.activeElement !== self.wrap) self.hideCursor();
    });
    grids.push(this);
  }

  // Lay the grid out for row labels, column labels, values (rows x cols, row-major) and true cells
  // (truth[r] = the true column of row r, or -1).
  Grid.prototype.set = function (rows, cols, values, truth) {
    this.rows = rows;
    this.cols = cols;
    this.truth = truth || [];
    var o = this.opts;
    this.font = paletteOf(this.wrap).font;
    var rowW = rows.some(Boolean) ? Math.ceil(10 + textWidth(rows, this.font)) : 0;
    var colH = cols.some(Boolean) ? Math.ceil(10 + textWidth(cols, this.font)) : 0;
    var avail = Math.max(120, (this.wrap.clientWidth || o.width || 600) - 4);
    var cell = Math.floor((avail - rowW) / Math.max(cols.length, 1));
    cell = Math.max(o.minCell || 16, Math.min(o.maxCell || 24, cell)); // at least 16 px: a finger can hit it
    var h = o.cellHeight || cell;
    this.geom = { x0: 0, y0: colH, cw: cell, ch: h }; // in the cells' canvas; the row labels have their own
    this.rowW = rowW;
    // The canvases are as large as this grid (they shrink for a shorter sentence); wider than the box, it scrolls.
    var W = cell * cols.length + 2,
      H = colH + h * rows.length + 2;
    var ratio = window.devicePixelRatio || 1;
    this.rowCanvas.hidden = !rowW;
    if (this.rowCanvas.width !== Math.round(rowW * ratio) || this.rowCanvas.height !== Math.round(H * ratio)) {
      this.rowCanvas.width = Math.round(rowW * ratio);
      this.rowCanvas.height = Math.round(H * ratio);
      this.rowCanvas.style.width = rowW + "px";
      this.rowCanvas.style.height = H + "px";
    }
    if (this.canvas.width !== Math.round(W * ratio) || this.canvas.height !== Math.round(H * ratio)) {
      this.canvas.width = Math.round(W * ratio);
      this.canvas.height = Math.round(H * ratio);
      this.canvas.style.width = W + "px";
      this.canvas.style.height = H + "px";
    }
    this.ratio = ratio;
    this.size = [W, H];
    this.wrap.setAttribute("data-geom", [0, colH, cell, h].join(",")); // the cells' canvas: x0 y0 width height
    this.wrap.setAttribute("data-rows", String(rows.length));
    this.wrap.setAttribute("data-cols", String(cols.length));
    this.wrap.setAttribute(
      "data-truth",
      String(
        this.truth.filter(function (j) {
          return j >= 0;
        }).length
      )
    );
    if (this.cursor && (this.cursor[0] >= rows.length || this.cursor[1] >= cols.length)) this.cursor = [0, 0];
    this.update(values);
    this.edges();
  };

  // Whether the grid is wider than its box: then the cue shows, and an edge shadows where more is hidden.
  Grid.prototype.edges = function () {
    var w = this.wrap,
      wide = w.scrollWidth > w.clientWidth + 1;
    if (this.cue.hidden === wide) this.cue.hidden = !wide;
    w.classList.toggle("ae-lab-more-right", wide && w.scrollLeft + w.clientWidth < w.scrollWidth - 1);
    w.classList.toggle("ae-lab-more-left", wide && w.scrollLeft > 1);
  };

  // Scroll the box so that the cursor's cell (with its row labels' width beside it) is in view.
  Grid.prototype.reveal = function () {
    if (!this.cursor || !this.geom) return;
    var w = this.wrap,
      g = this.geom;
    var left = this.rowW + g.cw * this.cursor[1], // in the box's content: the row labels, then the cells
      right = left + g.cw;
    if (left < w.scrollLeft + this.rowW) w.scrollLeft = Math.max(0, left - this.rowW - 2); // not under the labels
    else if (right > w.scrollLeft + w.clientWidth) w.scrollLeft = right - w.clientWidth + 4;
  };

  // The theme's colours and font for the canvases, read once (and again when the theme changes): reading the
  // computed style after each change of the page would cost a style recalculation per frame.
  var palette = null;
  function paletteOf(node) {
    if (!palette) {
      var css = getComputedStyle(node);
      palette = { font: "11px " + css.fontFamily };
      ["--ae-ink", "--ae-lab-bg", "--ae-lab-ink", "--ae-lab-pos", "--ae-lab-neg", "--ae-lab-true", "--ae-lab-focus"].forEach(function (name) {
        palette[name] = css.getPropertyValue(name).trim() || "#888";
      });
    }
    return palette;
  }

  // The widest of some labels in a font (a canvas measures them).
  var measurer = null;
  function textWidth(labels, font) {
    if (!measurer) measurer = document.createElement("canvas").getContext("2d");
    measurer.font = font;
    return labels.reduce(function (m, label) {
      return Math.max(m, measurer.measureText(String(label)).width);
    }, 0);
  }

  // New values for the same layout: the grid is drawn again (the colours are read from the page's theme).
  Grid.prototype.update = function (values) {
    this.values = values;
    this.draw();
    if (this.showing) this.showCursor(true);
  };

  Grid.prototype.draw = function () {
    if (!this.geom) return;
    var ctx = this.canvas.getContext("2d"),
      g = this.geom,
      o = this.opts;
    var pal = paletteOf(this.wrap);
    var color = function (name) {
      return pal[name];
    };
    ctx.setTransform(this.ratio, 0, 0, this.ratio, 0, 0);
    ctx.clearRect(0, 0, this.size[0], this.size[1]);
    ctx.font = this.font;
    ctx.fillStyle = color("--ae-ink");
    var r, c;
    if (this.rowW) {
      var rc = this.rowCanvas.getContext("2d");
      rc.setTransform(this.ratio, 0, 0, this.ratio, 0, 0);
      rc.clearRect(0, 0, this.rowW, this.size[1]);
      rc.font = this.font;
      rc.fillStyle = color("--ae-ink");
      rc.textAlign = "right";
      rc.textBaseline = "middle";
      for (r = 0; r < this.rows.length; r++) if (this.rows[r]) rc.fillText(this.rows[r], this.rowW - 5, g.y0 + g.ch * r + g.ch / 2);
    }
    ctx.textBaseline = "middle";
    ctx.textAlign = "left";
    for (c = 0; c < this.cols.length; c++) {
      if (!this.cols[c]) continue;
      ctx.save();
      ctx.translate(g.x0 + g.cw * c + g.cw / 2, g.y0 - 5);
      ctx.rotate(-Math.PI / 2);
      ctx.fillText(this.cols[c], 0, 0);
      ctx.restore();
    }
    var n = this.cols.length;
    ctx.fillStyle = color("--ae-lab-bg");
    ctx.fillRect(g.x0, g.y0, g.cw * n, g.ch * this.rows.length);
    var gap = g.cw >= 10 ? 0.5 : 0;
    var ink = color("--ae-lab-ink"),
      pos = color("--ae-lab-pos"),
      neg = color("--ae-lab-neg");
    var values = this.values;
    for (r = 0; r < this.rows.length; r++) {
      for (c = 0; c < n; c++) {
        var v = values ? values[r * n + c] : 0;
        var a = o.signed ? Math.min(1, Math.abs(v)) : Math.max(0, Math.min(1, v));
        if (a <= 0) continue;
        ctx.globalAlpha = a;
        ctx.fillStyle = o.signed ? (v < 0 ? neg : pos) : ink;
        ctx.fillRect(g.x0 + g.cw * c + gap, g.y0 + g.ch * r + gap, g.cw - 2 * gap, g.ch - 2 * gap);
      }
    }
    ctx.globalAlpha = 1;
    ctx.strokeStyle = color("--ae-lab-true");
    ctx.lineWidth = 1.5;
    for (r = 0; r < this.truth.length && r < this.rows.length; r++) {
      if (this.truth[r] >= 0) ctx.strokeRect(g.x0 + g.cw * this.truth[r] + 0.75, g.y0 + g.ch * r + 0.75, g.cw - 1.5, g.ch - 1.5);
    }
    if (this.showing && this.cursor) {
      ctx.strokeStyle = color("--ae-lab-focus");
      ctx.lineWidth = 2.5;
      ctx.strokeRect(g.x0 + g.cw * this.cursor[1] + 1.25, g.y0 + g.ch * this.cursor[0] + 1.25, g.cw - 2.5, g.ch - 2.5);
    }
  };

  Grid.prototype.key = function (e) {
    if (!this.rows.length || !this.cols.length) return;
    var c = this.cursor || [0, 0];
    var moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    var next = null;
    if (moves[e.key]) next = [c[0] + moves[e.key][0], c[1] + moves[e.key][1]];
    else if (e.key === "Home") next = [c[0], 0];
    else if (e.key === "End") next = [c[0], this.cols.length - 1];
    else if (e.key === "PageUp") next = [0, c[1]];
    else if (e.key === "PageDown") next = [this.rows.length - 1, c[1]];
    if (!next) return;
    e.preventDefault();
    this.cursor = [Math.max(0, Math.min(this.rows.length - 1, next[0])), Math.max(0, Math.min(this.cols.length - 1, next[1]))];
    this.showCursor();
    this.reveal();
  };

  Grid.prototype.pointer = function (e) {
    if (!this.geom) return;
    var box = this.canvas.getBoundingClientRect();
    var x = e.clientX - box.left - this.geom.x0,
      y = e.clientY - box.top - this.geom.y0;
    var c = Math.floor(x / this.geom.cw),
      r = Math.floor(y / this.geom.ch);
    if (r < 0 || c < 0 || r >= this.rows.length || c >= this.cols.length) return;
    this.cursor = [r, c];
    this.showCursor();
  };

  // Draw the cursor and write out its cell (quiet: only when its text changed, e.g. new values under it).
  Grid.prototype.showCursor = function (quiet) {
    if (!this.cursor || !this.rows.length || !this.cols.length) return;
    var r = this.cursor[0],
      c = this.cursor[1];
    if (!quiet) {
      this.showing = true;
      this.draw();
    }
    this.wrap.setAttribute("data-cursor", r + "," + c);
    var v = this.values ? this.values[r * this.cols.length + c] : 0;
    var text = this.opts.describe(r, c, v, this);
    if (this.readout.textContent !== text) this.readout.textContent = text;
  };

  Grid.prototype.hideCursor = function () {
    if (!this.showing) return;
    this.showing = false;
    this.wrap.removeAttribute("data-cursor");
    this.draw();
  };

  // The row r of the values, and its largest entry.
  Grid.prototype.rowMax = function (r) {
    var n = this.cols.length,
      best = 0;
    for (var c = 1; c < n; c++) if (this.values[r * n + c] > this.values[r * n + best]) best = c;
    return best;
  };

  // An alignment grid: output (or reference) words down, source words across.
  function alignmentGrid(label) {
    return new Grid({
      label: label,
      hint: t("lab_grid_hint"),
      describe: function (r, c, v, g) {
        var best = g.rowMax(r);
        var text = t("lab_cell", { t: r + 1, out: String(g.rows[r]).replace(/^\d+ /, ""), j: c + 1, src: g.cols[c], w: fmt(v) });
        text += " " + t("lab_cell_max", { j: best + 1, src: g.cols[best], w: fmt(g.values[r * g.cols.length + best]) });
        if (g.truth[r] >= 0) text += " " + t("lab_cell_truth", { j: g.truth[r] + 1, src: g.cols[g.truth[r]] });
        return text;
      },
    });
  }

  // A self-attention grid of the encoder (lesson 09): the source words that read down, the words read across.
  function selfAttentionGrid() {
    return new Grid({
      label: "",
      hint: t("lab_grid_hint"),
      describe: function (r, c, v, g) {
        var best = g.rowMax(r),
          n = g.cols.length;
        var text = t("lab_encoder_cell", { i: r + 1, reader: g.cols[r], j: c + 1, read: g.cols[c], w: fmt(v) });
        return text + " " + t("lab_encoder_cell_max", { i: r + 1, j: best + 1, src: g.cols[best], w: fmt(g.values[r * n + best]) });
      },
    });
  }

  // A vector as a strip of cells (one row); name is the symbol shown in the readout.
  function strip(label, name) {
    return new Grid({
      label: label,
      signed: true,
      minCell: 4,
      maxCell: 12,
      cellHeight: 18,
      hint: t("lab_strip_hint"),
      describe: function (r, c, v) {
        return t("lab_component", { name: name, k: c + 1, n: this.n, v: fmt(v) });
      },
    });
  }

  // ---------------------------------------------------------------------------------------------------------
  // A line chart in SVG, drawn at the width of its box: series of (x, y) points, an optional log scale, and a
  // vertical marker for the current step.

  function Chart(opts) {
    this.opts = opts;
    this.series = opts.series.map(function () {
      return [];
    });
    var captionId = id("chart-" + ++uid);
    this.svg = svg("svg", { class: "ae-lab-chart", role: "img", "aria-labelledby": captionId });
    this.legend = el(
      "ul",
      { class: "ae-lab-legend" },
      opts.series.map(function (s) {
        return el("li", { class: s.cls }, [el("span", { class: "ae-lab-key", "aria-hidden": "true" }), s.name]);
      })
    );
    this.node = el("figure", { class: "ae-lab-figure" }, [el("figcaption", { id: captionId }, [opts.title]), this.svg, this.legend]);
    this.marker = null;
  }

  Chart.prototype.draw = function () {
    var o = this.opts,
      s = this.svg;
    var W = Math.max(200, this.node.clientWidth || 300),
      H = o.height || 170;
    var L = 44,
      R = 18,
      T = 8,
      B = 30;
    s.setAttribute("width", W);
    s.setAttribute("height", H);
    s.setAttribute("viewBox", "0 0 " + W + " " + H);
    while (s.firstChild) s.removeChild(s.firstChild);
    var x0 = 0,
      x1 = o.xmax();
    var ylo = o.ylog ? Math.log10(o.ymin) : o.ymin,
      yhi = o.ylog ? Math.log10(o.ymax) : o.ymax;
    var sx = function (x) {
      return L + ((W - L - R) * (x - x0)) / Math.max(x1 - x0, 1);
    };
    var sy = function (y) {
      var v = o.ylog ? Math.log10(Math.max(y, o.ymin)) : y;
      return T + (H - T - B) * (1 - (v - ylo) / (yhi - ylo));
    };
    this.sx = sx;
    this.top = T;
    this.bottom = H - B;
    (o.yticks || []).forEach(function (y) {
      svg("line", { x1: L, x2: W - R, y1: sy(y), y2: sy(y), class: "ae-lab-gridline" }, s);
      var tx = svg("text", { x: L - 4, y: sy(y) + 4, class: "ae-lab-ytick" }, s);
      tx.textContent = String(y);
    });
    (o.targets || []).forEach(function (y) {
      svg("line", { x1: L, x2: W - R, y1: sy(y), y2: sy(y), class: "ae-lab-target" }, s);
      var tt = svg("text", { x: W - R - 2, y: sy(y) + 13, class: "ae-lab-targetlabel" }, s);
      tt.textContent = String(y);
    });
    svg("line", { x1: L, x2: L, y1: T, y2: H - B, class: "ae-lab-axis" }, s);
    svg("line", { x1: L, x2: W - R, y1: H - B, y2: H - B, class: "ae-lab-axis" }, s);
    var step = niceStep(x1 / 4);
    for (var x = 0; x <= x1 + 1e-9; x += step) {
      svg("line", { x1: sx(x), x2: sx(x), y1: H - B, y2: H - B + 4, class: "ae-lab-axis" }, s);
      var xt = svg("text", { x: sx(x), y: H - B + 15, class: "ae-lab-xtick" }, s);
      xt.textContent = String(x);
    }
    var xl = svg("text", { x: (L + W - R) / 2, y: H - 2, class: "ae-lab-xlabel" }, s);
    xl.textContent = o.xlabel;
    var self = this;
    this.lines = o.series.map(function (ser, k) {
      var pts = self.series[k]
        .map(function (p) {
          return sx(p[0]).toFixed(1) + "," + sy(p[1]).toFixed(1);
        })
        .join(" ");
      return svg("polyline", { points: pts, class: "ae-lab-line " + ser.cls }, s);
    });
    this.marker = svg("line", { x1: -10, x2: -10, y1: T, y2: H - B, class: "ae-lab-marker", visibility: "hidden" }, s);
    if (this.markAt !== undefined) this.mark(this.markAt);
  };

  Chart.prototype.setData = function (series) {
    this.series = series;
    this.draw();
  };

  Chart.prototype.mark = function (x) {
    this.markAt = x;
    if (!this.marker || x === null) return;
    var px = this.sx(x).toFixed(1);
    this.marker.setAttribute("x1", px);
    this.marker.setAttribute("x2", px);
    this.marker.setAttribute("visibility", "visible");
  };

  function niceStep(raw) {
    var p = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1))));
    var m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
  }

  // Target words of greedy tokens up to the first end symbol (what follows it means nothing).
  function untilEnd(G, tokens) {
    var end = tokens.indexOf(G.eos_id);
    return tokens
      .slice(0, end < 0 ? tokens.length : end + 1)
      .map(function (k) {
        return G.tgt_words[k];
      })
      .join(" ");
  }

  // A moving mean over `window` points, as (step, value) pairs from step 1.
  function movingMean(values, window) {
    var out = [],
      sum = 0;
    for (var i = 0; i < values.length; i++) {
      sum += values[i];
      if (i >= window) sum -= values[i - window];
      if (i >= window - 1 || i === values.length - 1) out.push([i + 1, sum / Math.min(i + 1, window)]);
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------------------------
  // The laboratory

  function Lab(root, data, args) {
    this.root = root;
    this.D = data;
    this.grammars = {}; // language -> the grammar with its target order (AELabMath.parse, sampleSentence)
    data.grammar.languages.forEach(function (lang) {
      var G = {};
      Object.keys(data.grammar).forEach(function (k) {
        G[k] = data.grammar[k];
      });
      G.language = lang;
      this.grammars[lang] = G;
    }, this);
    this.paramsOf = {}; // committed model name -> its parameters, decoded when first used (they never change)
    this.mine = {}; // design|language -> the reader's finished run: {params, cfg, seed, steps, buckets}
    this.rng = new AELabMath.Rng(Date.now() % 100000);
    this.held = []; // blocks kept at their tallest (hold)
    this.sentence = null; // the parsed pair of Compose
    this.trace = null;
    // where the notebook's lab explorers start (data-args, attention_core.explorers.twin): a committed model
    // (its design and language), or a design and a language; lesson 07's model otherwise
    var first = data.models.filter(function (m) {
      return m.name === args.model;
    })[0] || data.models[0];
    this.design = args.design && data.designs[args.design] ? args.design : first.design;
    this.language = args.language && this.grammars[args.language] ? args.language : first.language;
    uid += 1;
    root.textContent = "";
    this.buildChooser();
    this.useModel(); // this.G, this.cfg and this.params: what the panels compute with
    this.buildTabs();
    this.buildCompose();
    this.buildStep();
    this.buildWatch();
    this.buildTrain();
    this.buildEncoder(args.layer);
    this.showDesign();
    // the panel the page opens on (data-args "panel", e.g. lesson 09's encoder explorer), if the design has it
    var first = PANELS.indexOf(args.panel);
    this.select(first >= 0 && !this.tabs[first].hidden ? first : 0, false);
    // their sentence and the snapshot sentence of the replay (on a phone, the 12-word one: a wider grid scrolls)
    this.setSentence(typeof args.sentence === "string" ? args.sentence : data.examples[1].join(" "));
    if (typeof args.snapshot_sentence === "number" && args.snapshot_sentence < data.snapshots.sentences.length) {
      var narrow = root.clientWidth && root.clientWidth < 520 && data.snapshots.sentences[args.snapshot_sentence].source.length > 12;
      this.watchSel.value = String(narrow ? Math.min(1, args.snapshot_sentence) : args.snapshot_sentence);
      this.showWatch(true);
    }
    var self = this;
    if (window.ResizeObserver) {
      var width = root.clientWidth;
      new ResizeObserver(function () {
        if (Math.abs(root.clientWidth - width) > 8) {
          width = root.clientWidth;
          self.relayout();
        }
      }).observe(root);
    }
  }

  // --- the design and the language: what Compose and Step decode with, and what Train trains -------------
  // A design's short name: its order's and its score's ("Bahdanau, additive score"), or its score's alone without
  // attention ("fixed summary"), after its encoder's names when that is not lesson 07's ("self-attention encoder,
  // no positions; Bahdanau, additive score"); the keys are the registry's (attention_core.models.designs, exported
  // by lab_data).
  Lab.prototype.shortLabel = function (design) {
    var d = this.D.designs[design];
    var decoder = d.config.attention ? t("lab_short", { order: t(d.labels.order), score: t(d.labels.score) }) : t(d.labels.score);
    if (!d.labels.encoder.length) return decoder;
    return t("lab_short_encoder", { encoder: d.labels.encoder.map(function (key) { return t(key); }).join(t("list_sep")), decoder: decoder });
  };

  // A design's label in the menu: its own, or its short name.
  Lab.prototype.designLabel = function (design) {
    var d = this.D.designs[design];
    return d.labels.menu ? t(d.labels.menu) : this.shortLabel(design);
  };

  Lab.prototype.buildChooser = function () {
    var self = this;
    this.designSel = el("select", { id: id("design") });
    Object.keys(this.D.designs).forEach(function (name) {
      self.designSel.appendChild(el("option", { value: name }, [self.designLabel(name)]));
    });
    this.languageSel = el("select", { id: id("language") });
    this.D.grammar.languages.forEach(function (lang) {
      self.languageSel.appendChild(el("option", { value: lang }, [t("lab_language_" + lang)]));
    });
    this.designSel.value = this.design;
    this.languageSel.value = this.language;
    [this.designSel, this.languageSel].forEach(function (sel) {
      sel.addEventListener("change", function () {
        self.design = self.designSel.value;
        self.language = self.languageSel.value;
        self.useModel();
        self.compose();
        self.trainWatchOption();
        self.showResults(); // the runs and the seed study of the language chosen
      });
    });
    this.using = el("p", { class: "ae-lab-using", "aria-live": "polite" });
    this.root.appendChild(
      el("div", { class: "ae-lab-chooser" }, [
        el("div", { class: "ae-lab-controls" }, [
          el("div", { class: "ae-lab-field" }, [el("label", { for: id("design") }, [t("lab_design")]), this.designSel]),
          el("div", { class: "ae-lab-field" }, [el("label", { for: id("language") }, [t("lab_language")]), this.languageSel]),
        ]),
        this.using,
      ])
    );
  };

  // The chosen design's ModelConfig: lesson 07's sizes with the design's fields.
  Lab.prototype.designConfig = function (design) {
    var cfg = {},
      base = this.D.models[0].config,
      f = this.D.designs[design].config;
    Object.keys(base).forEach(function (k) {
      cfg[k] = base[k];
    });
    Object.keys(f).forEach(function (k) {
      cfg[k] = f[k];
    });
    return cfg;
  };

  // What Compose and Step decode with: the committed model of the chosen design and language, else the reader's
  // finished run of them, else nothing (this.cfg null; the panels say to train one).
  Lab.prototype.useModel = function () {
    var design = this.design,
      language = this.language;
    this.G = this.grammars[language];
    if (this.tabs) this.showDesign(); // the encoder's tab and the replay's note follow the choice at once
    var committed = this.D.models.filter(function (m) {
      return m.design === design && m.language === language;
    })[0];
    var mine = this.mine[design + "|" + language];
    var arrays = committed && ((this.D.arrays || {})[committed.name] || (window.AELabModels || {})[committed.name]);
    this.loading = null; // the committed model whose parameters are on their way
    if (committed && !arrays && !this.paramsOf[committed.name]) {
      // its parameters are a script of their own (lab_model_scripts): loaded now, then the panels compute
      this.params = this.cfg = null;
      this.loading = committed.name;
      this.using.textContent = t("lab_model_loading", { name: committed.name });
      this.root.setAttribute("data-ae-model", "");
      var lab = this;
      loadScripts([this.D.files[committed.name]], function (ok) {
        if (!ok || !(window.AELabModels || {})[committed.name]) {
          lab.using.textContent = t("missing");
          return;
        }
        if (lab.design === design && lab.language === language) {
          lab.useModel();
          lab.compose();
        }
      });
      return;
    }
    if (committed) {
      if (!this.paramsOf[committed.name]) {
        this.paramsOf[committed.name] = AELabMath.freeze(AELabMath.decodeParams({ config: committed.config, arrays: arrays }));
      }
      this.params = this.paramsOf[committed.name];
      this.cfg = committed.config;
      this.using.textContent = t("lab_using_committed", { name: committed.name });
    } else if (mine) {
      this.params = mine.params;
      this.cfg = mine.cfg;
      this.using.textContent = t("lab_using_yours", { seed: mine.seed, steps: mine.steps });
    } else {
      this.params = null;
      this.cfg = null;
      this.using.textContent = t("lab_using_none", { train: t("lab_tab_train") });
    }
    this.root.setAttribute("data-ae-model", committed ? committed.name : mine ? "yours" : "");
    this.root.setAttribute("data-ae-design", design);
    this.root.setAttribute("data-ae-language", language);
    this.trace = null;
    this.encoded = null;
    this.stepLayoutFor = null;
  };

  // What depends on the chosen design and language beyond the model: the encoder's tab (a design whose encoder is
  // made of self-attention layers has one; the others hide it), and the replay's note.
  Lab.prototype.showDesign = function () {
    var own = this.designConfig(this.design).encoder === "self_attention";
    this.tabs[4].hidden = !own;
    if (!own && this.current === 4) this.select(0, false);
    this.showWatchNote();
    this.trainBudget();
  };

  // The budget a run of the chosen design starts with (lab_data: lesson 09's designs take the committed recipe's),
  // in the training panel's intro and its steps box; a budget the reader typed stays until the design's changes.
  Lab.prototype.trainBudget = function () {
    var R = this.D.recipe,
      steps = this.D.designs[this.design].steps || R.steps;
    if (!this.trainIntro || this.budgetShown === steps) return;
    this.budgetShown = steps;
    this.trainIntro.textContent = t("lab_train_intro", { steps: steps, committed: R.committed_steps, batch: R.batch_size, n_train: R.n_train });
    this.stepsInput.value = String(steps);
  };

  // A button to the "Train it yourself" tab (where a design and language without a model get one).
  Lab.prototype.goTrain = function () {
    var self = this,
      button = el("button", { type: "button", class: "ae-button ae-lab-gotrain" }, [t("lab_go_train", { train: t("lab_tab_train") })]);
    button.addEventListener("click", function () {
      self.select(3, true);
    });
    return el("div", { class: "ae-buttons" }, [button]);
  };

  // --- tabs (the ARIA tabs pattern: arrow keys move between the tabs, each shows its panel) ----------------
  Lab.prototype.buildTabs = function () {
    var self = this;
    var names = PANELS.map(function (name) {
      return "lab_tab_" + name;
    });
    this.tablist = el("div", { class: "ae-lab-tabs", role: "tablist", "aria-label": t("lab_title") });
    this.tabs = [];
    this.panels = [];
    names.forEach(function (key, i) {
      var tab = el("button", { type: "button", role: "tab", id: id("tab" + i), "aria-controls": id("panel" + i), "aria-selected": "false", tabindex: "-1", class: "ae-lab-tab" }, [t(key)]);
      var panel = el("div", { role: "tabpanel", id: id("panel" + i), "aria-labelledby": id("tab" + i), class: "ae-lab-panel", hidden: "hidden" });
      tab.addEventListener("click", function () {
        self.select(i, true);
      });
      tab.addEventListener("keydown", function (e) {
        var shown = self.tabs.filter(function (x) {
            return !x.hidden; // the encoder's tab is there for some designs only
          }),
          at = shown.indexOf(tab),
          n = shown.length,
          next = null;
        if (e.key === "ArrowRight") next = (at + 1) % n;
        else if (e.key === "ArrowLeft") next = (at + n - 1) % n;
        else if (e.key === "Home") next = 0;
        else if (e.key === "End") next = n - 1;
        if (next === null) return;
        e.preventDefault();
        self.select(self.tabs.indexOf(shown[next]), true);
      });
      self.tabs.push(tab);
      self.panels.push(panel);
      self.tablist.appendChild(tab);
    });
    this.root.appendChild(this.tablist);
    this.panels.forEach(function (p) {
      self.root.appendChild(p);
    });
  };

  Lab.prototype.select = function (i, focus) {
    this.tabs.forEach(function (tab, k) {
      tab.setAttribute("aria-selected", k === i ? "true" : "false");
      tab.setAttribute("tabindex", k === i ? "0" : "-1");
    });
    this.panels.forEach(function (p, k) {
      if (k === i) p.removeAttribute("hidden");
      else p.setAttribute("hidden", "hidden");
    });
    if (focus) this.tabs[i].focus();
    this.current = i;
    this.relayout();
  };

  // Keep a panel at least as tall as it has been: while the reader types or steps, the lab's height never
  // shrinks and rarely grows, so the long page below it is not laid out and painted again at every input.
  // The same for the blocks inside a panel whose text changes length (nodes), so what follows them stays put.
  Lab.prototype.hold = function (nodes) {
    var self = this;
    nodes = (nodes || []).concat([this.panels[this.current]]);
    var heights = nodes.map(function (node) {
      return node.offsetHeight; // all read first: one layout, not one per block
    });
    nodes.forEach(function (node, i) {
      if (heights[i] > (node.aeHeld || 0)) {
        node.aeHeld = heights[i];
        node.style.minHeight = heights[i] + "px";
        if (self.held.indexOf(node) < 0) self.held.push(node);
      }
    });
  };

  // Redraw what depends on the width of the visible panel.
  Lab.prototype.relayout = function () {
    this.held.forEach(function (node) {
      node.aeHeld = 0;
      node.style.minHeight = "";
    });
    this.held = [];
    if (this.current === 0 && this.composeGrid && this.sentence) this.showCompose();
    if (this.current === 1) {
      if (this.sentence && this.ensureTrace()) this.buildStepStrips();
      else this.showStep();
    }
    if (this.current === 2 && this.watchGrid) this.showWatch(true);
    if (this.current === 3 && this.trainLoss) this.redrawTrain();
    if (this.current === 4 && this.encBody) this.showEncoder();
  };

  // --- Compose -------------------------------------------------------------------------------------------
  Lab.prototype.buildCompose = function () {
    var self = this,
      P = this.panels[0],
      G = this.G;
    P.appendChild(el("p", { class: "ae-lab-intro" }, [t("lab_compose_intro")]));
    // examples
    this.exampleSel = el("select", { id: id("examples") });
    this.exampleSel.appendChild(el("option", { value: "" }, [t("lab_examples_pick")]));
    this.D.examples.concat(
      this.D.snapshots.sentences.map(function (s) {
        return s.source;
      })
    ).forEach(function (words) {
      var key = words.join(" ");
      if (self.exampleSel.querySelector('option[value="' + key + '"]')) return;
      self.exampleSel.appendChild(el("option", { value: key }, [t("lab_example_option", { n: words.length, words: key })]));
    });
    this.exampleSel.addEventListener("change", function () {
      if (self.exampleSel.value) self.setSentence(self.exampleSel.value);
    });
    // the sentence as text
    this.input = el("input", { type: "text", id: id("sentence"), autocomplete: "off", autocapitalize: "none", spellcheck: "false", "aria-describedby": id("message") });
    this.input.addEventListener("input", function () {
      self.exampleSel.value = "";
      self.compose();
    });
    // slot by slot
    this.nextSel = el("select", { id: id("next") });
    var add = el("button", { type: "button", class: "ae-button" }, [t("lab_add")]);
    add.addEventListener("click", function () {
      if (!self.nextSel.value) return;
      self.setSentence((self.input.value.trim() + " " + self.nextSel.value).trim());
      self.nextSel.focus();
    });
    var back = el("button", { type: "button", class: "ae-button" }, [t("lab_remove")]);
    back.addEventListener("click", function () {
      var words = self.words();
      words.pop();
      self.setSentence(words.join(" "));
    });
    var random = el("button", { type: "button", class: "ae-button" }, [t("lab_random")]);
    random.addEventListener("click", function () {
      self.setSentence(AELabMath.sampleSentence(self.G, self.rng).src.join(" "));
    });
    var clear = el("button", { type: "button", class: "ae-button" }, [t("lab_clear")]);
    clear.addEventListener("click", function () {
      self.setSentence("");
      self.input.focus();
    });
    P.appendChild(
      el("div", { class: "ae-lab-controls" }, [
        el("div", { class: "ae-lab-field" }, [el("label", { for: id("examples") }, [t("lab_examples")]), this.exampleSel]),
        el("div", { class: "ae-lab-field" }, [el("label", { for: id("sentence") }, [t("lab_sentence")]), this.input]),
        el("div", { class: "ae-lab-field ae-lab-slot" }, [el("label", { for: id("next") }, [t("lab_next")]), this.nextSel, add]),
        el("div", { class: "ae-buttons" }, [back, clear, random]),
      ])
    );
    this.message = el("p", { id: id("message"), class: "ae-lab-message", "aria-live": "polite" });
    P.appendChild(this.message);
    this.result = el("div", { class: "ae-lab-result" }); // not live: the message says a translation is below
    P.appendChild(this.result);
    this.composeGrid = alignmentGrid(t("lab_grid_label"));
    P.appendChild(this.composeGrid.node);
    P.appendChild(el("p", { class: "ae-lab-note" }, [t("lab_grid_note")]));
  };

  // The typed words, lower case, without punctuation (the toy language has none: "bird." reads "bird", and
  // this.stripped says something was removed).
  var PUNCTUATION = /^[.,;:!?…"“”‘’'()«»。，、；：！？（）]+|[.,;:!?…"“”‘’'()«»。，、；：！？（）]+$/g;
  Lab.prototype.words = function () {
    var self = this;
    this.stripped = false;
    return this.input.value
      .trim()
      .toLowerCase()
      .split(/\s+/)
      .map(function (w) {
        var bare = w.replace(PUNCTUATION, "");
        if (bare !== w) self.stripped = true;
        return bare;
      })
      .filter(Boolean);
  };

  Lab.prototype.setSentence = function (text) {
    this.input.value = text;
    if (this.exampleSel.value && this.exampleSel.value !== text) this.exampleSel.value = "";
    this.compose();
  };

  // The class names and their words, for the messages and the slot menu.
  Lab.prototype.classWords = function (cls) {
    return this.G.groups[cls].map(function (p) {
      return p[0];
    });
  };

  Lab.prototype.allowedText = function (allowed) {
    var self = this;
    var parts = allowed.map(function (cls) {
      if (cls === AELabMath.END) return t("lab_end_of_sentence");
      return t("lab_class_" + cls) + " (" + self.classWords(cls).join(", ") + ")"; // the toy language's words, Latin
    });
    return parts.join(t("lab_or"));
  };

  // The message of a parse error; the reader's words in it isolated and shortened (UI.readersWord).
  Lab.prototype.errorText = function (err) {
    var where = { word: UI.readersWord(err.word), k: err.position + 1, max_adj: this.G.max_adj, max_pp: this.G.max_pp, max_len: this.G.max_len };
    where.allowed = this.allowedText(err.allowed);
    if (err.kind === "unfinished") {
      var words = this.words();
      where.last = UI.readersWord(words[words.length - 1]);
      where.k = words.length;
    }
    return t("lab_err_" + err.kind, where);
  };

  // Fill the slot menu with the words the grammar allows after the current words.
  Lab.prototype.fillNext = function (words) {
    var self = this,
      sel = this.nextSel;
    var next = AELabMath.nextClasses(this.G, words);
    var allowed = next.allowed || [];
    var key = (next.error ? "!" : "") + allowed.join(",") + "|" + this.phraseAdjectives(words).join(",");
    if (key === this.nextKey) return; // the same menu as for the previous words
    this.nextKey = key;
    sel.textContent = "";
    var classes = allowed.filter(function (c) {
      return c !== AELabMath.END;
    });
    if (!classes.length) {
      sel.appendChild(el("option", { value: "" }, [next.error ? t("lab_next_fix") : t("lab_next_done")]));
      sel.disabled = true;
      return;
    }
    sel.disabled = false;
    var used = {};
    words.forEach(function (w) {
      used[w] = true;
    });
    classes.forEach(function (cls) {
      var group = el("optgroup", { label: t("lab_class_" + cls) });
      self.classWords(cls).forEach(function (w) {
        var inPhrase = cls === "adjective" && self.phraseAdjectives(words).indexOf(w) >= 0;
        if (!inPhrase) group.appendChild(el("option", { value: w }, [w]));
      });
      sel.appendChild(group);
    });
  };

  // The adjectives of the noun phrase the words end in (an adjective appears once per noun phrase).
  Lab.prototype.phraseAdjectives = function (words) {
    var L = this.G.groups,
      adjs = [];
    var isAdj = Object.create(null); // no prototype: "constructor" is no adjective
    L.adjective.forEach(function (p) {
      isAdj[p[0]] = true;
    });
    for (var i = words.length - 1; i >= 0 && isAdj[words[i]]; i--) adjs.push(words[i]);
    return adjs;
  };

  Lab.prototype.compose = function () {
    var words = this.words();
    this.fillNext(words);
    var parsed = AELabMath.parse(this.G, words);
    var note = this.stripped ? " " + t("lab_punct_note") : "";
    if (parsed.error) {
      var empty = parsed.error.kind === "empty"; // nothing typed yet: a hint, not an error
      this.message.textContent = this.errorText(parsed.error) + note;
      this.message.classList.toggle("ae-lab-error", !empty);
      if (empty) this.input.removeAttribute("aria-invalid");
      else this.input.setAttribute("aria-invalid", "true");
      this.sentence = null;
      this.decoded = null;
      this.trace = null;
      this.encoded = null;
      this.result.textContent = "";
      this.composeGrid.node.hidden = true;
      if (this.current === 1) this.showStep();
      if (this.current === 4) this.showEncoder();
      if (this.current === 0) this.hold([this.message]);
      return;
    }
    // a sentence: translated below, or (no model of this design and language yet) what to do first
    var ok = this.cfg || this.loading ? t("lab_ok", { n: words.length }) : t("lab_ok_untrained", { n: words.length, train: t("lab_tab_train") });
    this.message.textContent = ok + note;
    this.message.classList.remove("ae-lab-error");
    this.input.removeAttribute("aria-invalid");
    this.sentence = parsed.pair;
    var src = parsed.pair.src;
    var T = src.length;
    if (this.cfg) {
      var g = AELabMath.greedy(this.params, this.cfg, src, 1, T, T + 1, false, this.G.bos_id);
      this.decoded = {
        tokens: Array.from(g.tokens),
        weights: g.weights
          ? Array.from({ length: T + 1 }, function (v, k) {
              return Array.from(g.weights.subarray(k * T, (k + 1) * T));
            })
          : null, // the fixed summary reads no weights
      };
    } else this.decoded = null; // no model of this design and language yet
    this.trace = null; // the step-through's trace, made when that panel is shown
    this.encoded = null; // the encoder's reads, made when its panel is shown
    this.showCompose();
    this.stepT = 0;
    if (this.current === 1) this.showStep();
    if (this.current === 4) this.showEncoder();
    this.trainWatchOption();
    if (this.current === 0) this.hold([this.message, this.result, this.composeGrid.node]);
  };

  Lab.prototype.showCompose = function () {
    if (!this.sentence) return;
    var G = this.G,
      pair = this.sentence,
      tr = this.decoded;
    var ref = pair.words.tgt.concat([G.tgt_words[G.eos_id]]);
    if (!tr) {
      this.result.textContent = "";
      this.result.appendChild(el("p", {}, [el("strong", {}, [t("lab_reference")]), " " + ref.join(" ")]));
      if (!this.loading) this.result.appendChild(this.goTrain()); // the message above says to train one first
      this.composeGrid.node.hidden = true;
      return;
    }
    var out = tr.tokens.map(function (k) {
      return G.tgt_words[k];
    });
    var firstDiff = -1;
    for (var i = 0; i < ref.length; i++) {
      if (out[i] !== ref[i]) {
        firstDiff = i;
        break;
      }
      if (out[i] === G.tgt_words[G.eos_id]) break;
    }
    this.result.textContent = "";
    var outLine = el("p", { class: "ae-lab-line-out" }, [el("strong", {}, [t("lab_model_says")]), " "]);
    out.forEach(function (w, k) {
      outLine.appendChild(el("span", { class: k === firstDiff ? "ae-lab-diff" : "" }, [w]));
      outLine.appendChild(document.createTextNode(" "));
    });
    this.result.appendChild(outLine);
    this.result.appendChild(el("p", {}, [el("strong", {}, [t("lab_reference")]), " " + ref.join(" ")]));
    this.result.appendChild(el("p", { class: firstDiff < 0 ? "ae-lab-same" : "ae-lab-diffnote" }, [firstDiff < 0 ? t("lab_same") : t("lab_differs", { k: firstDiff + 1, want: ref[firstDiff], got: out[firstDiff] })]));
    if (!tr.weights) {
      this.composeGrid.node.hidden = true;
      this.result.appendChild(el("p", { class: "ae-lab-note" }, [t("lab_baseline_no_weights")]));
      return;
    }
    this.composeGrid.node.hidden = false;
    var values = [];
    tr.weights.forEach(function (row) {
      values.push.apply(values, row);
    });
    var truth = out.map(function (w, k) {
      return k < pair.align.length ? pair.align[k] : -1;
    });
    this.composeGrid.set(
      out.map(function (w, k) {
        return k + 1 + " " + w;
      }),
      pair.words.src,
      values,
      truth
    );
  };

  // --- Step through the decoder --------------------------------------------------------------------------
  Lab.prototype.buildStep = function () {
    var self = this,
      P = this.panels[1];
    this.stepIntro = el("p", { class: "ae-lab-intro" }, [t("lab_step_intro")]); // the design's order: layoutStep
    P.appendChild(this.stepIntro);
    this.stepSentence = el("p", { class: "ae-lab-stepsentence" });
    P.appendChild(this.stepSentence);
    var prev = el("button", { type: "button", class: "ae-button" }, [t("lab_prev")]);
    var next = el("button", { type: "button", class: "ae-button" }, [t("lab_next_step")]);
    this.stepRange = el("input", { type: "range", id: id("t"), min: "1", max: "1", step: "1", value: "1" });
    this.stepOut = el("output", { for: id("t"), class: "ae-lab-value" });
    prev.addEventListener("click", function () {
      self.goStep(self.stepT - 1);
    });
    next.addEventListener("click", function () {
      self.goStep(self.stepT + 1);
    });
    this.stepRange.addEventListener("input", function () {
      self.goStep(parseInt(self.stepRange.value, 10) - 1);
    });
    P.appendChild(el("div", { class: "ae-lab-stepper" }, [prev, el("label", { for: id("t") }, [t("lab_step_t")]), this.stepRange, this.stepOut, next]));
    this.stepBody = el("div", { class: "ae-lab-stepbody" });
    P.appendChild(this.stepBody);
    this.stepLive = el("p", { class: "ae-lab-sr", "aria-live": "polite" });
    P.appendChild(this.stepLive);
    // the five parts, in the order of the step
    var s = this.stepParts = {};
    s.input = el("p", { class: "ae-lab-stephead" });
    s.prevStrip = strip(t("lab_strip_sprev"), "sₜ₋₁");
    s.cards = el("div", { class: "ae-lab-cards", role: "list", "aria-label": t("lab_cards_label") });
    s.ctxStrip = strip(t("lab_strip_c"), "cₜ");
    s.newStrip = strip(t("lab_strip_s"), "sₜ");
    s.top = el("ol", { class: "ae-lab-top" });
    s.readSummary = el("p", { class: "ae-lab-note" });
    this.stepT = 0;
  };

  // The step's sections in the order of the chosen design's equations (lessons 07 to 09), as the registry gives
  // them (attention_core.explorers.site.step_panel): Bahdanau's order reads with s_{t-1} and then updates; Luong's
  // updates, reads with s_t, then makes the attentional state; the fixed summary reads the same m at every step.
  // Each section: its heading, then its formulas, captions and displays in order. Laid out again when the design
  // changes.
  Lab.prototype.layoutStep = function () {
    var s = this.stepParts,
      body = this.stepBody,
      panel = this.D.designs[this.design].step,
      n = 0;
    if (this.stepLayoutFor === this.design) return;
    this.stepLayoutFor = this.design;
    body.textContent = "";
    this.stepIntro.textContent = t(panel.intro);
    var shows = {
      s_prev: [s.prevStrip.node],
      s_new: [s.newStrip.node],
      weights: [s.cards, s.readSummary],
      context: [s.ctxStrip.node],
    };
    body.appendChild(s.input);
    panel.sections.forEach(function (section) {
      body.appendChild(el("h4", { class: "ae-lab-h" }, [++n + " · " + t(section.head)]));
      section.items.forEach(function (item) {
        if (item.math) body.appendChild(eq(item));
        else if (item.caption) body.appendChild(el("p", { class: "ae-lab-caption" }, [t(item.caption)]));
        else
          shows[item.show].forEach(function (node) {
            body.appendChild(node);
          });
      });
    });
    body.appendChild(s.top);
  };

  // The step-through's trace of the composed sentence: every quantity of every step (made once per sentence).
  Lab.prototype.ensureTrace = function () {
    if (!this.trace && this.sentence && this.cfg) {
      var src = this.sentence.src;
      this.trace = AELabMath.greedy(this.params, this.cfg, src, 1, src.length, src.length + 1, true, this.G.bos_id).trace;
    }
    return this.trace;
  };

  Lab.prototype.goStep = function (k) {
    if (!this.ensureTrace()) return;
    this.stepT = Math.max(0, Math.min(this.trace.tokens.length - 1, k));
    this.showStep(true);
  };

  // The strips' layout depends on the panel's width; their values on the step.
  Lab.prototype.buildStepStrips = function () {
    var s = this.stepParts,
      tr = this.trace;
    if (!tr) return;
    this.layoutStep(); // the strips in the page first: their size depends on the width they get
    [
      [s.prevStrip, tr.s_prev],
      [s.ctxStrip, tr.context],
      [s.newStrip, tr.state],
    ].forEach(function (pair) {
      var n = pair[1][0].length;
      pair[0].opts.n = n;
      pair[0].n = n;
      pair[0].set([""], new Array(n).fill(""), pair[1][0], []);
    });
    this.showStep();
  };

  Lab.prototype.showStep = function (announce) {
    var tr = this.ensureTrace(),
      s = this.stepParts,
      G = this.G;
    if (!tr || !this.sentence) {
      this.stepSentence.textContent = this.sentence ? this.using.textContent : t("lab_step_none");
      this.stepBody.hidden = true;
      return;
    }
    this.layoutStep();
    this.stepBody.hidden = false;
    var U = tr.tokens.length,
      k = this.stepT;
    var src = this.sentence.words.src;
    this.stepSentence.textContent = t("lab_step_sentence", { words: src.join(" ") });
    this.stepRange.max = String(U);
    this.stepRange.value = String(k + 1);
    this.stepOut.textContent = k + 1 + " / " + U;
    if (s.prevStrip.n !== tr.s_prev[0].length || !s.prevStrip.geom) {
      this.buildStepStrips();
      return;
    }
    var yPrev = G.tgt_words[tr.y_prev[k]],
      y = G.tgt_words[tr.tokens[k]];
    s.input.textContent = t("lab_step_head", { t: k + 1, U: U, prev: yPrev, word: y });
    s.prevStrip.update(tr.s_prev[k]);
    s.ctxStrip.update(tr.context[k]);
    s.newStrip.update(tr.state[k]);
    // scores and weights, one card per source word (made once per sentence, then updated)
    var p = tr.probs[k];
    var order = p
      .map(function (v, i) {
        return i;
      })
      .sort(function (a, b) {
        return p[b] - p[a];
      })
      .slice(0, 5);
    var w = tr.weights ? tr.weights[k] : null,
      e = tr.scores ? tr.scores[k] : null,
      best = 0;
    if (w) for (var j = 1; j < w.length; j++) if (w[j] > w[best]) best = j;
    var truth = k < this.sentence.align.length ? this.sentence.align[k] : -1;
    var key = src.join(" ") + "|" + this.stepLayoutFor;
    if (s.cardsFor !== key) {
      s.cards.textContent = "";
      s.cardParts = src.map(function (word, j) {
        var part = { fill: el("span", { class: "ae-lab-fill" }), e: el("span", { "data-ae-out": "score-" + j }), w: el("span", { "data-ae-out": "weight-" + j }) };
        part.card = el("div", { class: "ae-lab-card", role: "listitem" }, [
          el("span", { class: "ae-lab-cardword" }, [j + 1 + " " + word]),
          el("span", { class: "ae-lab-num" }, ["e = ", part.e]),
          el("span", { class: "ae-lab-track" }, [part.fill]),
          el("span", { class: "ae-lab-num" }, ["α = ", part.w]),
        ]);
        s.cards.appendChild(part.card);
        return part;
      });
      s.top.textContent = "";
      s.topParts = [0, 1, 2, 3, 4].map(function (r) {
        var part = { word: el("span", { class: "ae-lab-topword" }), fill: el("span", { class: "ae-lab-fill" }), p: el("span", { class: "ae-lab-num", "data-ae-out": "prob-" + r }) };
        part.li = el("li", { class: r === 0 ? "ae-lab-chosen" : "" }, [part.word, el("span", { class: "ae-lab-track" }, [part.fill]), part.p]);
        s.top.appendChild(part.li);
        return part;
      });
      s.cardsFor = key;
    }
    if (w) {
      s.cardParts.forEach(function (part, j) {
        part.fill.style.width = (100 * w[j]).toFixed(1) + "%";
        part.e.textContent = fmt(e[j]);
        part.w.textContent = fmt(w[j]);
        part.card.className = "ae-lab-card" + (j === best ? " ae-lab-best" : "") + (j === truth ? " ae-lab-true" : "");
      });
      s.readSummary.textContent = t("lab_read_summary", { j: best + 1, src: src[best], w: fmt(w[best]) }) + (truth >= 0 ? " " + t("lab_cell_truth", { j: truth + 1, src: src[truth] }) : " " + t("lab_read_end"));
    }
    // the output distribution: the five most probable words
    order.forEach(function (i, r) {
      var part = s.topParts[r];
      part.word.textContent = G.tgt_words[i];
      part.fill.style.width = (100 * p[i]).toFixed(1) + "%";
      part.p.textContent = fmt(p[i], 4);
    });
    if (this.current === 1) this.hold([s.input, s.cards, s.readSummary]);
    if (announce) {
      this.stepLive.textContent = w
        ? t("lab_step_live", { t: k + 1, j: best + 1, src: src[best], w: fmt(w[best]), word: y, p: fmt(p[order[0]], 4) })
        : t("lab_step_live_fixed", { t: k + 1, word: y, p: fmt(p[order[0]], 4) });
    }
  };

  // --- Watch it learn ------------------------------------------------------------------------------------
  Lab.prototype.buildWatch = function () {
    var self = this,
      P = this.panels[2],
      S = this.D.snapshots;
    P.appendChild(el("p", { class: "ae-lab-intro" }, [t("lab_watch_intro", { every: S.steps[1] - S.steps[0], steps: S.steps[S.steps.length - 1] })]));
    this.watchNote = el("div", { class: "ae-lab-watchnote" }); // which run this is (showWatchNote)
    P.appendChild(this.watchNote);
    this.watchSel = el("select", { id: id("watchsent") });
    S.sentences.forEach(function (s, i) {
      self.watchSel.appendChild(el("option", { value: String(i) }, [t("lab_example_option", { n: s.source.length, words: s.source.join(" ") })]));
    });
    this.watchSel.addEventListener("change", function () {
      self.showWatch(true);
    });
    this.play = el("button", { type: "button", class: "ae-button ae-lab-play", "aria-pressed": "false" }, [t("lab_play")]);
    this.play.addEventListener("click", function () {
      self.togglePlay();
    });
    this.scrub = el("input", { type: "range", id: id("scrub"), min: "0", max: String(S.steps.length - 1), step: "1", value: String(S.steps.length - 1) });
    this.scrubOut = el("output", { for: id("scrub"), class: "ae-lab-value" });
    this.scrub.addEventListener("input", function () {
      self.stopPlay();
      self.showWatch(false);
    });
    P.appendChild(
      el("div", { class: "ae-lab-controls" }, [
        el("div", { class: "ae-lab-field" }, [el("label", { for: id("watchsent") }, [t("lab_watch_sentence")]), this.watchSel]),
        el("div", { class: "ae-lab-field ae-lab-scrubber" }, [this.play, el("label", { for: id("scrub") }, [t("lab_scrub")]), this.scrub, this.scrubOut]),
      ])
    );
    this.watchFigures = el("p", { class: "ae-lab-figures", "aria-live": "polite" });
    P.appendChild(this.watchFigures);
    this.watchOut = el("p", { class: "ae-lab-line-out" });
    P.appendChild(this.watchOut);
    this.watchGrid = alignmentGrid(t("lab_watch_grid_label"));
    P.appendChild(this.watchGrid.node);
    var steps = S.steps;
    this.watchLoss = new Chart({
      title: t("lab_chart_loss"),
      xlabel: t("lab_axis_step"),
      ylog: true,
      ymin: 0.002,
      ymax: 5,
      yticks: [0.01, 0.1, 1],
      xmax: function () {
        return steps[steps.length - 1];
      },
      series: [
        { cls: "ae-lab-s0", name: t("lab_series_loss") },
        { cls: "ae-lab-s1", name: t("lab_series_loss_mean") },
      ],
    });
    this.watchAcc = new Chart({
      title: t("lab_chart_acc"),
      xlabel: t("lab_axis_step"),
      ymin: 0,
      ymax: 1,
      yticks: [0, 0.5, 1],
      xmax: function () {
        return steps[steps.length - 1];
      },
      series: [
        { cls: "ae-lab-s1", name: t("lab_series_valid") },
        { cls: "ae-lab-s2", name: t("lab_series_align") },
      ],
    });
    P.appendChild(el("div", { class: "ae-lab-charts" }, [this.watchLoss.node, this.watchAcc.node]));
    P.appendChild(el("p", { class: "ae-lab-note" }, [t("lab_watch_note", { command: S.command })]));
    this.watchSentence = -1;
  };

  // The replay is lesson 07's committed run whatever design and language are chosen: it says so, and, when the
  // choice is another, where to watch that one learn.
  Lab.prototype.showWatchNote = function () {
    var S = this.D.snapshots,
      box = this.watchNote;
    if (!box) return;
    var run = this.D.models.filter(function (m) {
      return m.name === S.model;
    })[0];
    box.textContent = "";
    box.appendChild(el("p", { class: "ae-lab-note" }, [t("lab_watch_replays", { design: this.designLabel(run.design), language: t("lab_language_" + run.language) })]));
    var other = run.design !== this.design || run.language !== this.language;
    if (other) {
      box.appendChild(el("p", { class: "ae-lab-note ae-lab-watchother" }, [t("lab_watch_yours", { design: this.designLabel(this.design), language: t("lab_language_" + this.language), train: t("lab_tab_train") })]));
      box.appendChild(this.goTrain());
    }
    this.root.setAttribute("data-ae-replay", other ? "other" : "same");
  };

  Lab.prototype.showWatch = function (relayout) {
    var S = this.D.snapshots,
      G = this.G;
    var k = parseInt(this.scrub.value, 10),
      i = parseInt(this.watchSel.value, 10) || 0;
    var step = S.steps[k],
      sent = S.sentences[i];
    var rows = sent.reference.concat([G.tgt_words[G.eos_id]]);
    var scale = Math.pow(10, -S.digits);
    var values = S.weights[k][i].map(function (v) {
      return v * scale;
    });
    if (relayout || this.watchSentence !== i) {
      this.watchGrid.set(
        rows.map(function (w, r) {
          return r + 1 + " " + w;
        }),
        sent.source,
        values,
        sent.true_source.concat([-1])
      );
      this.watchSentence = i;
      var losses = S.losses;
      this.watchLoss.setData([
        losses.map(function (v, s) {
          return [s + 1, v];
        }),
        movingMean(losses, 20),
      ]);
      this.watchAcc.setData([
        S.steps.map(function (s, q) {
          return [s, S.valid_token[q]];
        }),
        S.steps.map(function (s, q) {
          return [s, S.valid_alignment[q]];
        }),
      ]);
    } else {
      this.watchGrid.update(values);
    }
    this.watchLoss.mark(step);
    this.watchAcc.mark(step);
    this.scrubOut.textContent = t("lab_step_of", { step: step, steps: S.steps[S.steps.length - 1] });
    var recent = S.losses.slice(Math.max(0, step - 20), step);
    var mean = recent.length
      ? recent.reduce(function (a, b) {
          return a + b;
        }, 0) / recent.length
      : null;
    this.watchFigures.textContent = t("lab_watch_figures", { step: step, loss: mean === null ? "–" : fmt(mean, 3), token: fmt(S.valid_token[k]), align: fmt(S.valid_alignment[k]) });
    this.watchOut.textContent = t("lab_watch_output") + " " + untilEnd(G, S.outputs[k][i]);
    if (this.current === 2) this.hold([this.watchFigures, this.watchOut, this.watchGrid.node]);
  };

  Lab.prototype.togglePlay = function () {
    if (this.playing) {
      this.stopPlay();
      return;
    }
    var self = this,
      last = parseInt(this.scrub.max, 10);
    if (parseInt(this.scrub.value, 10) >= last) this.scrub.value = "0";
    this.playing = true;
    this.watchFigures.setAttribute("aria-live", "off"); // no announcement four times a second while it plays
    this.play.setAttribute("aria-pressed", "true");
    this.play.textContent = t("lab_pause");
    var tick = function () {
      if (!self.playing) return;
      var k = parseInt(self.scrub.value, 10);
      if (k >= last) {
        self.stopPlay();
        return;
      }
      self.scrub.value = String(k + 1);
      self.showWatch(false);
      self.playTimer = setTimeout(tick, 250);
    };
    this.showWatch(false);
    this.playTimer = setTimeout(tick, 250);
  };

  Lab.prototype.stopPlay = function () {
    this.playing = false;
    this.watchFigures.setAttribute("aria-live", "polite");
    clearTimeout(this.playTimer);
    this.play.setAttribute("aria-pressed", "false");
    this.play.textContent = t("lab_play");
  };

  // --- Train it yourself ---------------------------------------------------------------------------------
  Lab.prototype.buildTrain = function () {
    var self = this,
      P = this.panels[3],
      R = this.D.recipe;
    this.trainIntro = el("p", { class: "ae-lab-intro" }); // with the chosen design's budget (trainBudget)
    P.appendChild(this.trainIntro);
    // where the products run: WebAssembly with 128-bit SIMD where the browser has it (lab/kernels.js), else JavaScript
    var engine = AELabMath.parts.kernels.engine();
    P.appendChild(el("p", { class: "ae-lab-note ae-lab-engine", "data-ae-engine": engine }, [t(engine === "webassembly" ? "lab_engine_wasm" : "lab_engine_js")]));
    this.trainWhat = el("p", { class: "ae-lab-note" }); // the design and language of the next run (the chooser's)
    this.seedInput = el("input", { type: "number", id: id("seed"), min: "0", max: "99999", step: "1", value: "0", inputmode: "numeric" });
    this.stepsInput = el("input", { type: "number", id: id("steps"), min: "20", max: "3000", step: "10", value: String(R.steps), inputmode: "numeric" });
    this.trainWatch = el("select", { id: id("trainwatch") });
    this.trainWatch.addEventListener("change", function () {
      self.sendWatch();
    });
    this.trainButton = el("button", { type: "button", class: "ae-button ae-lab-primary" }, [t("lab_train")]);
    this.pauseButton = el("button", { type: "button", class: "ae-button", disabled: "disabled", "aria-pressed": "false" }, [t("lab_pause")]);
    this.stopButton = el("button", { type: "button", class: "ae-button", disabled: "disabled" }, [t("lab_stop")]);
    this.trainButton.addEventListener("click", function () {
      self.startTraining();
    });
    this.pauseButton.addEventListener("click", function () {
      self.pauseOrResume();
    });
    this.stopButton.addEventListener("click", function () {
      self.stopTraining();
    });
    P.appendChild(
      el("div", { class: "ae-lab-controls" }, [
        this.trainWhat,
        el("div", { class: "ae-lab-inline" }, [
          el("div", { class: "ae-lab-field ae-lab-small" }, [el("label", { for: id("seed") }, [t("lab_seed")]), this.seedInput]),
          el("div", { class: "ae-lab-field ae-lab-small" }, [el("label", { for: id("steps") }, [t("lab_steps")]), this.stepsInput]),
        ]),
        el("div", { class: "ae-lab-field" }, [el("label", { for: id("trainwatch") }, [t("lab_train_watch")]), this.trainWatch]),
        el("div", { class: "ae-buttons" }, [this.trainButton, this.pauseButton, this.stopButton]),
      ])
    );
    this.trainStatus = el("p", { class: "ae-lab-status" }, [t("lab_train_idle")]);
    this.trainLive = el("p", { class: "ae-lab-sr", "aria-live": "polite" });
    P.appendChild(this.trainStatus);
    P.appendChild(this.trainLive);
    var self2 = this;
    this.trainLoss = new Chart({
      title: t("lab_chart_train_loss"),
      xlabel: t("lab_axis_step"),
      ylog: true,
      ymin: 0.002,
      ymax: 5,
      yticks: [0.01, 0.1, 1],
      xmax: function () {
        return self2.runSteps || R.steps;
      },
      series: [
        { cls: "ae-lab-s0", name: t("lab_series_loss") },
        { cls: "ae-lab-s1", name: t("lab_series_loss_mean") },
      ],
    });
    this.trainAcc = new Chart({
      title: t("lab_chart_train_acc"),
      xlabel: t("lab_axis_step"),
      ymin: 0,
      ymax: 1,
      yticks: [0, 0.5, 1],
      targets: [0.95],
      xmax: function () {
        return self2.runSteps || R.steps;
      },
      series: [{ cls: "ae-lab-s1", name: t("lab_series_valid") }],
    });
    P.appendChild(el("div", { class: "ae-lab-charts" }, [this.trainLoss.node, this.trainAcc.node]));
    this.trainOut = el("p", { class: "ae-lab-line-out" });
    P.appendChild(this.trainOut);
    this.trainGrid = alignmentGrid(t("lab_train_grid_label"));
    this.trainGridNote = el("p", { class: "ae-lab-note" });
    P.appendChild(this.trainGrid.node);
    P.appendChild(this.trainGridNote);
    this.results = el("div", { class: "ae-lab-results" });
    P.appendChild(this.results);
    if (window.IntersectionObserver) {
      // while the results table is on screen, the theme's "Back to top" pill (fixed over the page) is hidden
      new IntersectionObserver(function (entries) {
        document.documentElement.classList.toggle("ae-lab-results-in-view", entries[entries.length - 1].isIntersecting);
      }).observe(this.results);
    }
    this.finished = {}; // design|language -> {design, language, buckets, seed, steps}
    this.trainWatchOption();
    this.setTrainGrid(null); // nothing to draw before a run
  };

  // The sentences the training panel can show: the examples and the one composed.
  Lab.prototype.trainWatchOption = function () {
    if (!this.trainWatch) return;
    this.trainWhat.textContent = t("lab_train_what", { design: this.designLabel(this.design), language: t("lab_language_" + this.language) });
    var keep = this.trainWatch.value;
    var options = this.D.snapshots.sentences.map(function (s) {
      return s.source.join(" ");
    });
    if (this.sentence && options.indexOf(this.sentence.words.src.join(" ")) < 0) options.push(this.sentence.words.src.join(" "));
    var self = this;
    if (this.trainWatchKey === options.join("|")) return;
    this.trainWatchKey = options.join("|");
    this.trainWatch.textContent = "";
    options.forEach(function (text, i) {
      var mine = self.sentence && text === self.sentence.words.src.join(" ") && i >= self.D.snapshots.sentences.length;
      self.trainWatch.appendChild(el("option", { value: text }, [mine ? t("lab_yours", { words: text }) : t("lab_example_option", { n: text.split(" ").length, words: text })]));
    });
    if (keep && options.indexOf(keep) >= 0) this.trainWatch.value = keep;
    else this.trainWatch.value = options[Math.min(1, options.length - 1)];
  };

  Lab.prototype.workerSource = function () {
    return AELabMath.source() + "(" + aeLabWorker.toString() + ")(M, self);\n";
  };

  // The run's Workers end: the trainer and its checker.
  Lab.prototype.endWorkers = function () {
    if (this.worker) this.worker.terminate();
    if (this.checker) this.checker.terminate();
    this.worker = this.checker = null;
  };

  Lab.prototype.startTraining = function () {
    var R = this.D.recipe;
    this.endWorkers();
    var seed = Math.max(0, Math.min(99999, parseInt(this.seedInput.value, 10) || 0));
    var steps = Math.max(20, Math.min(3000, parseInt(this.stepsInput.value, 10) || this.budgetShown || R.steps));
    this.seedInput.value = String(seed);
    this.stepsInput.value = String(steps);
    var recipe = {};
    Object.keys(R).forEach(function (k) {
      recipe[k] = R[k];
    });
    recipe.seed = seed;
    recipe.steps = steps;
    this.runSteps = steps;
    var cfg = this.designConfig(this.design);
    this.run = { design: this.design, language: this.language, cfg: cfg, seed: seed, steps: steps, losses: [], valid: [], reached: null, state: "running" };
    var url = URL.createObjectURL(new Blob([this.workerSource()], { type: "text/javascript" }));
    // two Workers of the same code: the trainer, and the checker its validation checks go to (ae-lab-worker.js)
    var trainer = (this.worker = new Worker(url));
    var checker = (this.checker = new Worker(url));
    URL.revokeObjectURL(url);
    var self = this;
    trainer.onmessage = checker.onmessage = function (e) {
      if (self.worker === trainer) self.onWorker(e.data); // not a message of a run stopped or replaced since
    };
    var checks = new MessageChannel();
    checker.postMessage({ type: "checker", port: checks.port2 }, [checks.port2]);
    this.runG = this.grammars[this.language];
    trainer.postMessage({ type: "start", grammar: this.runG, config: cfg, recipe: recipe, dataSeed: 0, nTest: R.n_test, watch: this.trainWatch.value.split(" "), checks: checks.port1 }, [checks.port1]);
    this.trainStatus.textContent = t("lab_train_making", { n: R.n_train });
    this.trainButton.textContent = t("lab_train_again");
    this.trainButtons();
    this.results.textContent = "";
    this.redrawTrain();
    this.setTrainGrid(null);
  };

  // The run's buttons in its state: running (Pause and Stop), paused (Resume and Stop), evaluating (Stop: the
  // final evaluation cannot pause), done or stopped (neither).
  Lab.prototype.trainButtons = function () {
    var state = this.run ? this.run.state : "idle";
    this.pauseButton.disabled = state !== "running" && state !== "paused";
    this.stopButton.disabled = state !== "running" && state !== "paused" && state !== "evaluating";
    this.pauseButton.textContent = state === "paused" ? t("lab_resume") : t("lab_pause");
    this.pauseButton.setAttribute("aria-pressed", state === "paused" ? "true" : "false");
    this.root.setAttribute("data-ae-train-state", state);
  };

  Lab.prototype.pauseOrResume = function () {
    var run = this.run;
    if (!this.worker || !run || (run.state !== "running" && run.state !== "paused")) return;
    run.state = run.state === "paused" ? "running" : "paused";
    this.worker.postMessage({ type: run.state === "paused" ? "pause" : "resume" });
    if (run.state === "running") this.trainStatus.textContent = t("lab_train_resumed");
    this.trainButtons();
  };

  // Stop: the run ends here (its Worker with it); Train starts a new one.
  Lab.prototype.stopTraining = function () {
    var run = this.run;
    if (!this.worker || !run || ["running", "paused", "evaluating"].indexOf(run.state) < 0) return;
    this.endWorkers();
    run.state = "stopped";
    this.trainStatus.textContent = t("lab_train_stopped", { step: run.step || 0, steps: run.steps });
    this.trainLive.textContent = this.trainStatus.textContent;
    this.trainButtons();
  };

  Lab.prototype.sendWatch = function () {
    if (this.worker && this.run) this.worker.postMessage({ type: "watch", words: this.trainWatch.value.split(" ") });
  };

  Lab.prototype.onWorker = function (msg) {
    var run = this.run;
    if (!run || run.state === "stopped") return;
    if (msg.type === "ready") {
      this.trainStatus.textContent = t("lab_train_ready", { n: msg.n_train, s: fmt(msg.seconds, 1) });
      this.setTrainGrid(msg.watched);
      return;
    }
    if (msg.type === "paused") {
      if (run.state !== "paused") return; // resumed (or stopped) since
      this.trainStatus.textContent = t("lab_train_paused", { step: msg.step, steps: run.steps, s: fmt(msg.seconds, 1) });
      this.trainLive.textContent = this.trainStatus.textContent;
      return;
    }
    if (msg.type === "progress") {
      run.losses.push.apply(run.losses, msg.losses);
      run.step = msg.step;
      run.seconds = msg.seconds;
      run.msPerStep = msg.msPerStep;
      if (msg.valid !== null) this.validCheck(msg);
      this.trainStatus.textContent = this.statusText();
      if (this.current === 3) this.redrawTrain();
      this.setTrainGrid(msg.watched);
      if (this.current === 3) this.hold([this.trainStatus, this.trainOut]);
      return;
    }
    if (msg.type === "valid") {
      // the checker's answer, which may come after the last step's progress, during the final evaluation or after it
      this.validCheck(msg);
      if (run.state === "running") this.trainStatus.textContent = this.statusText();
      else if (run.state === "done") this.trainStatus.textContent = this.doneText();
      if (this.current === 3) this.redrawTrain();
      return;
    }
    if (msg.type === "evaluating") {
      run.state = "evaluating"; // a Pause pressed now would never be answered: only Stop is offered
      this.trainButtons();
      this.trainStatus.textContent = t("lab_train_evaluating", { n: this.D.recipe.n_test, s: fmt(msg.seconds, 1) });
      this.trainLive.textContent = this.trainStatus.textContent;
      return;
    }
    if (msg.type === "done") {
      run.state = "done";
      run.done = msg;
      this.trainButtons();
      this.trainStatus.textContent = this.doneText();
      this.trainLive.textContent = this.trainStatus.textContent;
      var key = run.design + "|" + run.language;
      this.finished[key] = { design: run.design, language: run.language, buckets: msg.buckets, seed: run.seed, steps: msg.step };
      if (msg.params) {
        // the reader's model: Compose and Step use it where no committed model of its design and language exists
        this.mine[key] = { params: AELabMath.freeze(msg.params), cfg: run.cfg, seed: run.seed, steps: msg.step };
        if (run.design === this.design && run.language === this.language && this.cfg === null) {
          this.useModel();
          this.compose();
        }
      }
      this.setTrainGrid(msg.watched);
      this.showResults();
      this.root.setAttribute("data-ae-trained", run.design + "|" + run.language);
    }
  };

  // A validation check's accuracy: recorded, announced, and the first at or above 0.95 remembered.
  Lab.prototype.validCheck = function (msg) {
    var run = this.run;
    run.valid.push([msg.step, msg.valid]);
    run.valid.sort(function (a, b) {
      return a[0] - b[0];
    });
    if (msg.valid >= 0.95 && (run.reached === null || msg.step < run.reached.step)) run.reached = { step: msg.step, seconds: msg.seconds };
    this.trainLive.textContent = t("lab_train_check", { step: msg.step, acc: fmt(msg.valid) });
  };

  Lab.prototype.reachedText = function () {
    var r = this.run.reached;
    return r ? " " + t("lab_train_reached", { step: r.step, s: fmt(r.seconds, 1) }) : "";
  };

  Lab.prototype.statusText = function () {
    var run = this.run;
    var last = run.valid.length ? run.valid[run.valid.length - 1] : null;
    return t("lab_train_status", { step: run.step, steps: run.steps, s: fmt(run.seconds, 1), ms: fmt(run.msPerStep, 0), acc: last ? fmt(last[1]) : "–", at: last ? last[0] : "–" }) + this.reachedText();
  };

  Lab.prototype.doneText = function () {
    var run = this.run,
      msg = run.done;
    return t("lab_train_done", { steps: msg.step, s: fmt(msg.seconds, 1), ms: fmt(run.msPerStep, 0), token: fmt(msg.all.token), exact: fmt(msg.all.exact) }) + this.reachedText();
  };

  Lab.prototype.redrawTrain = function () {
    var run = this.run;
    this.trainLoss.setData(
      run
        ? [
            run.losses.map(function (v, s) {
              return [s + 1, v];
            }),
            movingMean(run.losses, 20),
          ]
        : [[], []]
    );
    this.trainAcc.setData([run ? run.valid : []]);
  };

  Lab.prototype.setTrainGrid = function (watched) {
    var G = this.runG || this.G,
      words = this.trainWatch.value.split(" ");
    var parsed = AELabMath.parse(G, words);
    if (!watched || !parsed.pair) {
      this.trainGrid.node.hidden = true;
      this.trainOut.textContent = "";
      this.trainGridNote.textContent = "";
      return;
    }
    this.trainOut.textContent = t("lab_train_output") + " " + untilEnd(G, watched.tokens);
    if (!watched.weights) {
      this.trainGrid.node.hidden = true;
      this.trainGridNote.textContent = t("lab_baseline_no_weights");
      return;
    }
    this.trainGrid.node.hidden = false;
    this.trainGridNote.textContent = t("lab_train_grid_note");
    var key = words.join(" ") + "|" + this.trainGrid.wrap.clientWidth;
    if (this.trainGridKey !== key) {
      var rows = parsed.pair.words.tgt.concat([G.tgt_words[G.eos_id]]);
      this.trainGrid.set(
        rows.map(function (w, r) {
          return r + 1 + " " + w;
        }),
        words,
        watched.weights,
        Array.from(parsed.pair.align).concat([-1])
      );
      this.trainGridKey = key;
    } else {
      this.trainGrid.update(watched.weights);
    }
  };

  // Accuracy by source length: each of the reader's finished runs on the chosen language, beside the seed
  // study's runs of the same design and language (mean and range over its runs: lesson 08's tables' figures).
  Lab.prototype.showResults = function () {
    var self = this,
      F = this.finished,
      R = this.D.recipe,
      language = this.language;
    var cols = [];
    Object.keys(F).forEach(function (key) {
      var f = F[key];
      if (f.language !== language) return;
      var names = { design: self.shortLabel(f.design), seed: f.seed, steps: f.steps };
      cols.push({ label: t("lab_col_yours", names), b: f.buckets, out: key });
      var study = (self.D.study[f.language] || {})[f.design];
      if (study) {
        var range = function (x) {
          return t("lab_range", { mean: fmt(x.mean), min: fmt(x.min), max: fmt(x.max) });
        };
        cols.push({
          label: t("lab_col_study", { design: names.design, runs: study.runs, steps: study.steps }),
          b: study.buckets.map(function (x) {
            return { token: range(x.token), exact: range(x.exact) };
          }),
          study: key,
        });
      }
    });
    this.results.textContent = "";
    if (!cols.length) return;
    var table = el("table", { class: "ae-lab-table" });
    table.appendChild(el("caption", {}, [t("lab_results_caption", { n: R.n_test })]));
    var head = el("tr", {}, [el("th", { scope: "col" }, [t("lab_col_length")])]);
    cols.forEach(function (c) {
      head.appendChild(el("th", { scope: "col", class: c.study ? "ae-lab-study" : "" }, [c.label]));
    });
    table.appendChild(el("thead", {}, [head]));
    var body = el("tbody");
    R.buckets.forEach(function (b, i) {
      var tr = el("tr", {}, [el("th", { scope: "row" }, [t("lab_bucket", { lo: b[0], hi: b[1] })])]);
      cols.forEach(function (c) {
        var x = c.b[i];
        var attrs = c.out ? { "data-ae-out": c.out + "-" + i } : { "data-ae-study": c.study + "-" + i, class: "ae-lab-study" };
        tr.appendChild(el("td", attrs, [t("lab_token_exact", { token: typeof x.token === "number" ? fmt(x.token) : x.token, exact: typeof x.exact === "number" ? fmt(x.exact) : x.exact })]));
      });
      body.appendChild(tr);
    });
    table.appendChild(body);
    this.results.appendChild(el("p", { class: "ae-lab-note" }, [t("lab_results_language", { language: t("lab_language_" + language) })]));
    this.results.appendChild(el("div", { class: "ae-lab-tablebox", tabindex: "0", role: "region", "aria-label": t("lab_results_caption", { n: R.n_test }) }, [table]));
    this.results.appendChild(el("p", { class: "ae-lab-note" }, [t("lab_results_note")]));
  };

  // --- Inside the encoder (lesson 09) ----------------------------------------------------------------------
  // For a design whose encoder is made of self-attention layers: what each layer reads for the sentence of
  // Compose (Seq2Seq.encoder_reads, computed in the page), beside the decoder's cross-attention for it (Compose's
  // grid). `layer` (1, 2, ...) is the layer shown first.
  Lab.prototype.buildEncoder = function (layer) {
    var self = this,
      P = this.panels[4];
    P.appendChild(el("p", { class: "ae-lab-intro" }, [t("lab_encoder_intro")]));
    this.encWanted = typeof layer === "number" ? layer : 1;
    this.encLayer = el("select", { id: id("layer") });
    this.encLayer.addEventListener("change", function () {
      self.encWanted = parseInt(self.encLayer.value, 10);
      self.showEncoder();
    });
    P.appendChild(el("div", { class: "ae-lab-controls" }, [el("div", { class: "ae-lab-field" }, [el("label", { for: id("layer") }, [t("lab_encoder_layer")]), this.encLayer])]));
    this.encMessage = el("p", { class: "ae-lab-stepsentence" });
    P.appendChild(this.encMessage);
    this.encSelfHead = el("h4", { class: "ae-lab-h" });
    this.encSelfGrid = selfAttentionGrid();
    this.encNote = el("p", { class: "ae-lab-note", hidden: "hidden" });
    this.encCrossGrid = alignmentGrid(t("lab_grid_label"));
    this.encBody = el("div", { class: "ae-lab-encoder" }, [
      el("div", { class: "ae-lab-encpart ae-lab-encself" }, [this.encSelfHead, this.encSelfGrid.node, this.encNote]),
      el("div", { class: "ae-lab-encpart ae-lab-enccross" }, [
        el("h4", { class: "ae-lab-h" }, [t("lab_encoder_cross_head")]),
        this.encCrossGrid.node,
        el("p", { class: "ae-lab-note" }, [t("lab_grid_note")]), // Compose's note: alpha_tj, the outlined true sources
      ]),
    ]);
    P.appendChild(this.encBody);
  };

  Lab.prototype.showEncoder = function () {
    var pair = this.sentence,
      G = this.G;
    if (!pair || !this.cfg) {
      this.encMessage.textContent = pair ? this.using.textContent : t("lab_step_none"); // train one first, or compose
      this.encBody.hidden = true;
      return;
    }
    var words = pair.words.src,
      T = words.length;
    if (!this.encoded) {
      var reads = AELabMath.encoderReads(this.params, this.cfg, pair.src, 1, T); // one (1, T, T) per layer
      this.encoded = {
        layers: reads.map(function (A) {
          return Array.from(A);
        }),
      };
    }
    var L = this.encoded.layers.length;
    this.encBody.hidden = !L;
    if (!L) return; // a recurrent encoder reads nothing (its designs have no encoder tab)
    if (this.encLayer.options.length !== L) {
      this.encLayer.textContent = "";
      for (var l = 1; l <= L; l++) this.encLayer.appendChild(el("option", { value: String(l) }, [t("lab_encoder_layer_option", { l: l, L: L })]));
    }
    var shown = Math.max(1, Math.min(L, this.encWanted));
    this.encLayer.value = String(shown);
    this.encMessage.textContent = t("lab_step_sentence", { words: words.join(" ") });
    this.encSelfHead.textContent = t("lab_encoder_self_head", { l: shown });
    this.encSelfGrid.wrap.setAttribute("aria-label", t("lab_encoder_grid_label", { l: shown }));
    this.root.setAttribute("data-ae-layer", String(shown));
    var numbered = function (w, k) {
      return k + 1 + " " + w;
    };
    this.encSelfGrid.set(words.map(numbered), words, this.encoded.layers[shown - 1], []);
    this.encNote.hidden = this.cfg.positions !== "none"; // copies of a word: equal columns
    this.encNote.textContent = this.encNote.hidden ? "" : t("lab_encoder_no_positions");
    var tr = this.decoded,
      out = tr.tokens.map(function (k) {
        return G.tgt_words[k];
      }),
      values = [];
    tr.weights.forEach(function (row) {
      values.push.apply(values, row);
    });
    var truth = out.map(function (w, k) {
      return k < pair.align.length ? pair.align[k] : -1;
    });
    this.encCrossGrid.set(out.map(numbered), words, values, truth);
    if (this.current === 4) this.hold([this.encMessage, this.encBody]);
  };

  // ---------------------------------------------------------------------------------------------------------
  // Loading. The page shows the lab's title at first; the rest is fetched when the lab first comes near the
  // screen (an IntersectionObserver), so a reader who never scrolls to it never downloads it: ae-lab-math.js and
  // the parts it names (lab/*.js), ae-lab-worker.js and the numbers, ae-lab-data.js (about 0.14 MB; it sets
  // self.AELabData; its schema must be the one this script reads), and each committed model's parameters,
  // ae-lab-model-<name>.js, the first time the reader chooses that model. They are scripts beside this one, added as
  // <script> elements in order (not fetch(): it works from file:// too).

  var LAB_SCHEMA = 5; // the layout of attention_core.explorers.site.lab_data() this script reads (LAB_SCHEMA there)
  var here = document.currentScript && document.currentScript.src; // .../_static/ae-lab.js?v=...
  var version = document.currentScript && document.currentScript.getAttribute("data-lab-version"); // of the build
  var loading = null; // one load for every lab of the page: a list of callbacks until the data arrive

  // Scripts beside this one, run in the order given; then done(true), or done(false) if one failed to load.
  function loadScripts(names, done) {
    var base = here ? here.replace(/ae-lab\.js(\?.*)?$/, "") : "_static/",
      left = names.length,
      ok = true;
    names.forEach(function (name) {
      var script = document.createElement("script");
      script.src = base + name + (version ? "?v=" + version : ""); // a new build's files, not a cached one's
      script.async = false; // in order
      script.onload = script.onerror = function (event) {
        ok = ok && event.type === "load";
        if (--left === 0) done(ok);
      };
      document.head.appendChild(script);
    });
  }

  // The mathematics, its parts, the Worker's loop and the data, once for every lab of the page: done(data or null).
  function loadData(done) {
    if (self.AELabData && self.AELabMath && self.AELabMath.greedy) return done(self.AELabData);
    if (loading) return loading.push(done);
    loading = [done];
    function finish(ok) {
      var math = ok && self.AELabMath && self.AELabMath.assemble ? self.AELabMath.assemble() : null;
      var waiting = loading;
      loading = null;
      waiting.forEach(function (f) {
        f(math && typeof aeLabWorker === "function" ? self.AELabData || null : null);
      });
    }
    loadScripts(["ae-lab-math.js"], function (ok) {
      if (!ok || !self.AELabMath) return finish(false);
      var parts = self.AELabMath.PARTS.map(function (name) {
        return "lab/" + name + ".js";
      });
      loadScripts(parts.concat(["ae-lab-worker.js", "ae-lab-data.js"]), finish);
    });
  }

  function open(root) {
    if (root.aeLab || root.aeLabOpening) return;
    root.aeLabOpening = true;
    loadData(function (data) {
      root.removeAttribute("aria-busy");
      if (!data || data.schema !== LAB_SCHEMA) {
        root.textContent = t("missing");
        if (data) console.error("ae-lab.js reads lab data of schema " + LAB_SCHEMA + ", the page has schema " + data.schema + ": rebuild the site");
        return;
      }
      try {
        root.aeLab = new Lab(root, data, JSON.parse(root.getAttribute("data-args") || "{}"));
        root.classList.add("ae-lab-open");
      } catch (err) {
        root.textContent = t("missing");
        throw err;
      }
    });
  }

  function start() {
    if (window.MutationObserver) {
      new MutationObserver(function () {
        palette = null; // the theme changed: read its colours again
        grids.forEach(function (g) {
          g.draw();
        });
      }).observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    }
    var roots = document.querySelectorAll('.ae-explorer[data-explorer="lab"]');
    if (!roots.length) return;
    UI.pageParams(); // the page's labels
    var seen = window.IntersectionObserver
      ? new IntersectionObserver(
          function (entries) {
            entries.forEach(function (entry) {
              if (!entry.isIntersecting) return;
              seen.unobserve(entry.target);
              open(entry.target);
            });
          },
          { rootMargin: "600px 0px" } // a screen or so ahead: the data arrive while the reader scrolls
        )
      : null;
    Array.prototype.forEach.call(roots, function (root) {
      root.classList.add("ae-lab");
      root.textContent = "";
      root.appendChild(el("p", { class: "ae-lab-waiting" }, [t("lab_title")]));
      root.setAttribute("aria-busy", "true");
      root.classList.add("ae-x-ready"); // drawn: the title now, the laboratory when it comes into view
      if (seen) seen.observe(root);
      else open(root);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
