// Live explorers for the static website of "Attention, executable".
//
// A page that holds <div class="ae-explorer" data-explorer="state|score|question" data-args="{...}"> gets this
// script and an inline <script type="application/json" id="ae-params"> written at build time by
// src/attention_workshop/ae_twins.py from attention_core.explorers.site.site_parameters(): the worked example's H, W_s, W_h,
// v, b, the sliders' ranges and the token labels. data-args is what the notebook explorer this one stands for
// declared (attention_core.explorers.twin): where it starts (its state, annotations, scores, sentence,
// question) and whether it has the tanh switch. Nothing here is fetched or hard-coded; the numbers have one
// source, the Python core.
// This script only redoes, in the browser, the three small computations of lessons 04 to 06:
//
//   score    e_j(s) = v^T tanh(W_s s + W_h h_j + b)      (lesson 05; without tanh: the linear ablation)
//   weights  alpha_j = exp(e_j) / sum_k exp(e_k)          (lesson 04)
//   context  c = sum_j alpha_j h_j                        (lesson 04)
//   question e_j = q^T x_j over hand-made token features    (lesson 01: the same tokens, two questions)
//
// and draws the result with inline SVG and HTML text. No library, no network request. The browser tests
// (tests/site/test_explorers.py) check that the numbers shown equal the core's to 4 decimals.
(function () {
  "use strict";

  var UI = self.AEUI, // ae-ui.js: the helpers this script shares with the laboratory
    t = UI.t, // every word the explorers show comes from the page's edition (its labels); only numbers are made here
    tNodes = UI.tNodes,
    svg = UI.svg;
  var counter = 0; // makes element ids unique when a page holds several explorers
  // The parameters' layout version, attention_core.explorers.site.SCHEMA (its one home), travels in the parameters
  // (params.schema). A page and this script come from one build: the page names the script by its content
  // (Sphinx's ?v=<checksum>), so a new script is a new address and never meets an older page's parameters.

  // ---------------------------------------------------------------------------------------------------
  // The math (plain loops over tiny arrays; the shapes are those of the core: H is (T, d_h) as rows).

  // Additive scores for one decoder state s (an array of length d_s): one number per row of H.
  function additiveScores(P, s, withTanh) {
    return P.H.map(function (h) {
      var e = 0;
      for (var i = 0; i < P.v.length; i++) {
        // pre_i = (W_s s)_i + (W_h h)_i + b_i, one hidden unit of the scorer
        var pre = P.b[i];
        for (var k = 0; k < s.length; k++) pre += P.W_s[i][k] * s[k];
        for (var m = 0; m < h.length; m++) pre += P.W_h[i][m] * h[m];
        e += P.v[i] * (withTanh ? Math.tanh(pre) : pre);
      }
      return e;
    });
  }

  // Softmax with the maximum subtracted first, so exp() never overflows (as attention_core.softmax does).
  function softmax(scores) {
    var top = Math.max.apply(null, scores);
    var z = scores.map(function (e) {
      return Math.exp(e - top);
    });
    var total = z.reduce(function (a, b) {
      return a + b;
    }, 0);
    return z.map(function (x) {
      return x / total;
    });
  }

  // Context c = sum_j alpha_j h_j: a point of the plane when the annotations are two-dimensional.
  function weightedSum(weights, H) {
    var c = H[0].map(function () {
      return 0;
    });
    weights.forEach(function (w, j) {
      for (var i = 0; i < c.length; i++) c[i] += w * H[j][i];
    });
    return c;
  }

  function read(P, s, withTanh) {
    var scores = additiveScores(P, [s], withTanh);
    var weights = softmax(scores);
    return { scores: scores, weights: weights, context: weightedSum(weights, P.H) };
  }

  // ---------------------------------------------------------------------------------------------------
  // Small DOM helpers.

  // Four decimals, as the notebooks print; "-0.0000" is shown as "0.0000".
  function fmt(x, digits) {
    return UI.fmt(x, digits === undefined ? 4 : digits); // four decimals unless told
  }

  function html(tag, attrs, text) {
    return UI.el(tag, attrs, text === undefined ? [] : [text]);
  }

  // Text with subscripts: "α_j" and "h_1" become α<sub>j</sub> and h<sub>1</sub> (built as nodes, not parsed HTML).
  function withSubs(node, text) {
    text.split(/(_[0-9a-z])/).forEach(function (part) {
      if (/^_[0-9a-z]$/.test(part)) node.appendChild(html("sub", {}, part.slice(1)));
      else if (part) node.appendChild(document.createTextNode(part));
    });
    return node;
  }

  var SUB_DIGITS = "₀₁₂₃₄₅₆₇₈₉"; // SVG text has no <sub>; Unicode subscript digits read well

  function append(parent, children) {
    children.forEach(function (child) {
      parent.appendChild(child);
    });
    return parent;
  }

  // A labelled native range input (arrow keys step it) with an <output> showing its value.
  function slider(id, label, range, step, value, digits) {
    var input = html("input", {
      type: "range",
      id: id,
      min: range[0],
      max: range[1],
      step: step,
      value: value,
    });
    var output = html("output", { for: id, class: "ae-x-value" }, fmt(value, digits));
    var row = append(html("div", { class: "ae-x-slider" }), [withSubs(html("label", { for: id }), label), input, output]);
    return { row: row, input: input, output: output, digits: digits };
  }

  // A row of plain buttons (Enter and Space press them): [[label, onClick], ...].
  function buttons(specs, label) {
    var row = html("div", { class: "ae-buttons", role: "group", "aria-label": label });
    specs.forEach(function (spec) {
      var b = html("button", { type: "button", class: "ae-button" }, spec[0]);
      b.addEventListener("click", spec[1]);
      row.appendChild(b);
    });
    return row;
  }

  // A legend of the weight curves: a line sample in each position's colour and dash, and its label.
  function curveLegend(tokens) {
    var list = html("ul", { class: "ae-x-legend" });
    tokens.forEach(function (token, j) {
      var sample = svg("svg", { viewBox: "0 0 28 10", width: 28, height: 10, "aria-hidden": "true" });
      svg("line", { x1: 1, y1: 5, x2: 27, y2: 5, class: "ae-x-curve ae-c" + j + " ae-dash" + j }, sample);
      var item = append(html("li"), [sample]);
      item.appendChild(withSubs(html("span"), "α_" + (j + 1) + " (" + token + ")"));
      list.appendChild(item);
    });
    return list;
  }

  // A figure panel: a title (its caption, which also names the picture for screen readers) and a body.
  function panel(id, title) {
    var fig = html("figure", { class: "ae-x-panel" });
    var cap = withSubs(html("figcaption", { id: id }), title);
    append(fig, [cap]);
    return fig;
  }

  // ---------------------------------------------------------------------------------------------------
  // Weight bars: one row per position, a coloured bar and its value as text.

  function makeBars(parent, tokens) {
    var box = html("div", { class: "ae-x-bars", "aria-hidden": "true" }); // the table below has the numbers
    var rows = tokens.map(function (token, j) {
      var fill = html("span", { class: "ae-x-fill ae-c" + j });
      var value = html("span", { class: "ae-x-barval" });
      var track = append(html("span", { class: "ae-x-track" }), [fill]);
      box.appendChild(append(html("div", { class: "ae-x-bar" }), [html("span", { class: "ae-x-tok" }, token), track, value]));
      return { fill: fill, value: value };
    });
    parent.appendChild(box);
    return function update(weights) {
      weights.forEach(function (w, j) {
        rows[j].fill.style.width = (100 * w).toFixed(2) + "%";
        rows[j].value.textContent = fmt(w);
      });
    };
  }

  // ---------------------------------------------------------------------------------------------------
  // The plane: annotations h_j as points, their hull, and the context c as a moving point.

  function makePlane(parent, H, tokens, labelId) {
    var xs = H.map(function (h) {
      return h[0];
    });
    var ys = H.map(function (h) {
      return h[1];
    });
    var pad = 0.8;
    var x0 = Math.min(0, Math.min.apply(null, xs)) - pad;
    var x1 = Math.max(0, Math.max.apply(null, xs)) + pad;
    var y0 = Math.min(0, Math.min.apply(null, ys)) - pad;
    var y1 = Math.max(0, Math.max.apply(null, ys)) + pad;
    var unit = 220 / Math.max(x1 - x0, y1 - y0); // pixels per unit, the same on both axes
    var W = (x1 - x0) * unit;
    var Hpx = (y1 - y0) * unit;
    function px(p) {
      return [((p[0] - x0) * unit).toFixed(2), ((y1 - p[1]) * unit).toFixed(2)];
    }
    var root = svg("svg", {
      viewBox: "0 0 " + W.toFixed(1) + " " + Hpx.toFixed(1),
      role: "img",
      "aria-labelledby": labelId,
      class: "ae-x-plane",
    });
    // axes through the origin
    svg("line", { x1: px([x0, 0])[0], y1: px([x0, 0])[1], x2: px([x1, 0])[0], y2: px([x1, 0])[1], class: "ae-x-axis" }, root);
    svg("line", { x1: px([0, y0])[0], y1: px([0, y0])[1], x2: px([0, y1])[0], y2: px([0, y1])[1], class: "ae-x-axis" }, root);
    // the hull of the annotations: every context c lies inside it (a segment when the h_j are collinear)
    svg("polygon", { points: H.map(px).join(" "), class: "ae-x-hull" }, root);
    H.forEach(function (h, j) {
      var p = px(h);
      svg("circle", { cx: p[0], cy: p[1], r: 6, class: "ae-c" + j }, root);
      var right = h[0] < (x0 + x1) / 2; // label on the side with more room
      var label = svg("text", { x: +p[0] + (right ? 10 : -10), y: +p[1] - 8, "text-anchor": right ? "start" : "end" }, root);
      label.textContent = "h" + SUB_DIGITS[j + 1] + " " + tokens[j];
    });
    var point = svg("g", { class: "ae-x-context" }, root);
    svg("rect", { x: -6, y: -6, width: 12, height: 12, transform: "rotate(45)" }, point);
    var cText = svg("text", { x: 10, y: 16 }, point);
    cText.textContent = "c";
    parent.appendChild(root);
    return function update(c) {
      var p = px(c);
      point.setAttribute("transform", "translate(" + p[0] + " " + p[1] + ")");
    };
  }

  // ---------------------------------------------------------------------------------------------------
  // Weight curves over s, with a marker at the current s.

  function makeCurves(parent, st, tokens, labelId) {
    var W = 320;
    var Hpx = 210;
    var m = { left: 34, right: 10, top: 24, bottom: 30 }; // margins for the tick and axis labels
    var lo = st.s_range[0];
    var hi = st.s_range[1];
    var yMax = 1;
    function X(s) {
      return m.left + ((s - lo) / (hi - lo)) * (W - m.left - m.right);
    }
    function Y(w) {
      return Hpx - m.bottom - (w / yMax) * (Hpx - m.top - m.bottom);
    }
    var root = svg("svg", { viewBox: "0 0 " + W + " " + Hpx, role: "img", "aria-labelledby": labelId, class: "ae-x-curves" });
    var axes = svg("g", {}, root);
    var lines = tokens.map(function (_, j) {
      return svg("polyline", { class: "ae-x-curve ae-c" + j + " ae-dash" + j }, root);
    });
    var marker = svg("line", { class: "ae-x-marker", y1: m.top, y2: Hpx - m.bottom }, root);
    var dots = tokens.map(function (_, j) {
      return svg("circle", { r: 4, class: "ae-c" + j }, root);
    });

    function drawAxes() {
      axes.textContent = "";
      var ticks = [];
      for (var tick = Math.ceil(lo); tick <= hi; tick += 2) ticks.push(tick);
      ticks.forEach(function (tick) {
        svg("line", { x1: X(tick), x2: X(tick), y1: Hpx - m.bottom, y2: Hpx - m.bottom + 4, class: "ae-x-axis" }, axes);
        svg("text", { x: X(tick), y: Hpx - m.bottom + 16, "text-anchor": "middle" }, axes).textContent = String(tick);
      });
      [0, yMax / 2, yMax].forEach(function (w) {
        svg("line", { x1: m.left, x2: W - m.right, y1: Y(w), y2: Y(w), class: "ae-x-grid" }, axes);
        svg("text", { x: m.left - 4, y: Y(w) + 4, "text-anchor": "end" }, axes).textContent = fmt(w, 2);
      });
      Object.keys(st.marks).forEach(function (name) {
        var s = st.marks[name];
        svg("line", { x1: X(s), x2: X(s), y1: m.top, y2: Hpx - m.bottom, class: "ae-x-mark" }, axes);
        svg("text", { x: X(s) + 3, y: m.top + 10 }, axes).textContent = name;
      });
      svg("text", { x: W - m.right, y: Hpx - 2, "text-anchor": "end" }, axes).textContent = t("curves_x");
      svg("text", { x: 2, y: 10, "text-anchor": "start" }, axes).textContent = t("curves_y");
    }

    return {
      // curves: one weight row per state on the grid
      setCurves: function (grid, curves) {
        yMax = Math.min(1, Math.ceil((Math.max.apply(null, [].concat.apply([], curves)) + 0.05) * 5) / 5);
        drawAxes();
        lines.forEach(function (line, j) {
          var pts = grid.map(function (s, n) {
            return X(s).toFixed(1) + "," + Y(curves[n][j]).toFixed(1);
          });
          line.setAttribute("points", pts.join(" "));
        });
      },
      update: function (s, weights) {
        marker.setAttribute("x1", X(s));
        marker.setAttribute("x2", X(s));
        dots.forEach(function (dot, j) {
          dot.setAttribute("cx", X(s));
          dot.setAttribute("cy", Y(weights[j]));
        });
      },
      attach: function () {
        parent.appendChild(root);
      },
    };
  }

  // ---------------------------------------------------------------------------------------------------
  // The numbers as a table (what the tests and screen readers read), and a short live summary.

  function makeTable(tokens, scoreHeader) {
    var table = html("table", { class: "ae-x-table" });
    var caption = html("caption");
    var head = append(html("tr"), [
      html("th", { scope: "col" }, t("position")),
      withSubs(html("th", { scope: "col" }), scoreHeader),
      withSubs(html("th", { scope: "col" }), t("weight_j")),
    ]);
    var body = html("tbody");
    var cells = tokens.map(function (token, j) {
      var e = html("td", { "data-ae-out": "score-" + j });
      var w = html("td", { "data-ae-out": "weight-" + j });
      var name = withSubs(html("th", { scope: "row" }), "h_" + (j + 1) + " (" + token + ")");
      body.appendChild(append(html("tr"), [name, e, w]));
      return { e: e, w: w };
    });
    var cx = html("span", { "data-ae-out": "context-0" });
    var cy = html("span", { "data-ae-out": "context-1" });
    var sum = html("span", { "data-ae-out": "weight-sum" });
    var foot = append(html("td", { colspan: "3" }), tNodes("table_foot", { c0: cx, c1: cy, sum: sum }));
    append(table, [caption, append(html("thead"), [head]), body, append(html("tfoot"), [append(html("tr"), [foot])])]);
    return {
      table: table,
      update: function (title, r) {
        caption.textContent = title;
        cells.forEach(function (cell, j) {
          cell.e.textContent = fmt(r.scores[j]);
          cell.w.textContent = fmt(r.weights[j]);
        });
        cx.textContent = fmt(r.context[0]);
        cy.textContent = fmt(r.context[1]);
        sum.textContent = fmt(
          r.weights.reduce(function (a, b) {
            return a + b;
          }, 0)
        );
      },
    };
  }

  // Screen readers hear this sentence after each change (polite: it waits until the reader is idle).
  function liveSummary(tokens, r, prefix) {
    var weights = tokens
      .map(function (token, j) {
        return token + " " + fmt(r.weights[j]);
      })
      .join(t("list_sep"));
    return t("live", { title: prefix, weights: weights, c0: fmt(r.context[0]), c1: fmt(r.context[1]) });
  }

  // ---------------------------------------------------------------------------------------------------
  // Lessons 05 and 06: the state explorer.

  function stateExplorer(root, params, args) {
    var st = params.state;
    var tokens = params.tokens;
    var n = ++counter;
    var P = { H: st.H, W_s: st.W_s, W_h: st.W_h, v: st.v, b: st.b };
    var hasSwitch = args.tanh_switch === true;
    var start = typeof args.s === "number" ? Math.min(st.s_range[1], Math.max(st.s_range[0], args.s)) : st.s_start;

    // weight curves over s for both scorers, computed once
    var grid = [];
    for (var i = 0; i < st.curve_points; i++) grid.push(st.s_range[0] + (i * (st.s_range[1] - st.s_range[0])) / (st.curve_points - 1));
    function curvesFor(withTanh) {
      return grid.map(function (s) {
        return read(P, s, withTanh).weights;
      });
    }
    var curves = { true: curvesFor(true), false: hasSwitch ? curvesFor(false) : null };

    var s = slider("ae-s-" + n, t("state_slider"), st.s_range, st.s_step, start, 2);
    var controls = append(html("div", { class: "ae-x-controls" }), [s.row]);
    var tanhBox = null;
    if (hasSwitch) {
      tanhBox = html("input", { type: "checkbox", id: "ae-tanh-" + n, role: "switch", checked: "" });
      controls.appendChild(append(html("div", { class: "ae-x-switch" }), [tanhBox, html("label", { for: "ae-tanh-" + n }, t("tanh_switch"))]));
    }
    function snap(value, withTanh) {
      return function () {
        s.input.value = String(value);
        if (tanhBox && withTanh !== undefined) tanhBox.checked = withTanh;
        render();
      };
    }
    controls.appendChild(
      buttons(
        [
          [t("state_button", { name: "A", s: fmt(st.marks.A, 0).replace("-", "−") }), snap(st.marks.A)],
          [t("state_button", { name: "B", s: fmt(st.marks.B, 0).replace("-", "−") }), snap(st.marks.B)],
          [t("reset"), snap(start, true)],
        ],
        t("jump")
      )
    );

    var pBars = panel("ae-bars-" + n, t("state_bars"));
    var pPlane = panel("ae-plane-" + n, t("state_plane"));
    var pCurves = panel("ae-curves-" + n, t("state_curves"));
    var updateBars = makeBars(pBars, tokens);
    var updatePlane = makePlane(pPlane, st.H, tokens, "ae-plane-" + n);
    var curvePlot = makeCurves(pCurves, st, tokens, "ae-curves-" + n);
    curvePlot.attach();
    pCurves.appendChild(curveLegend(tokens));
    var table = makeTable(tokens, t("state_score"));
    var live = html("p", { class: "ae-x-live", "aria-live": "polite" });

    root.textContent = "";
    append(root, [controls, append(html("div", { class: "ae-x-panels" }), [pBars, pPlane, pCurves]), table.table, live]);

    var shownTanh = null;
    function render() {
      var sv = parseFloat(s.input.value);
      var withTanh = tanhBox ? tanhBox.checked : true;
      if (withTanh !== shownTanh) {
        curvePlot.setCurves(grid, curves[withTanh]); // only when the switch changes
        shownTanh = withTanh;
        root.classList.toggle("ae-x-linear", !withTanh);
      }
      var r = read(P, sv, withTanh);
      s.output.textContent = fmt(sv, 2);
      updateBars(r.weights);
      updatePlane(r.context);
      curvePlot.update(sv, r.weights);
      var title = t(withTanh ? "state_title_tanh" : "state_title_linear", { s: fmt(sv, 2) });
      table.update(title, r);
      live.textContent = liveSummary(tokens, r, title);
    }
    s.input.addEventListener("input", render); // every step while dragging, and arrow keys
    if (tanhBox) tanhBox.addEventListener("change", render);
    render();
  }

  // ---------------------------------------------------------------------------------------------------
  // Lesson 04: the score explorer. Three scores in, weights and the context inside the triangle out.

  function scoreExplorer(root, params, args) {
    var sc = params.score;
    var tokens = args.tokens || params.tokens;
    var eStart = args.start || sc.e_start;
    var n = ++counter;
    var sliders = tokens.map(function (token, j) {
      return slider("ae-e-" + n + "-" + j, t("score_slider", { j: j + 1, token: token }), sc.e_range, sc.e_step, eStart[j], 1);
    });
    var sets = (sc.annotations || [{ name: "H_TRIANGLE", H: sc.H }]).slice();
    var first = 0;
    if (args.H) {
      // the notebook explorer's annotations: one of the menu's sets, or a set of its own at the top
      first = sets.map(function (set) { return JSON.stringify(set.H); }).indexOf(JSON.stringify(args.H));
      if (first < 0) {
        sets.unshift({ name: "H", H: args.H });
        first = 0;
      }
    }
    var H = sets[first].H;
    var choose = html("select", { id: "ae-h-" + n });
    sets.forEach(function (set, i) {
      choose.appendChild(html("option", { value: String(i) }, set.name));
    });
    choose.value = String(first);
    var rows = sliders.map(function (x) {
      return x.row;
    });
    if (sets.length > 1) {
      rows.push(append(html("div", { class: "ae-x-select" }), [html("label", { for: "ae-h-" + n }, t("annotations")), choose]));
    }
    var controls = append(html("div", { class: "ae-x-controls" }), rows);
    controls.appendChild(
      buttons(
        [
          [
            t("reset"),
            function () {
              sliders.forEach(function (x, j) {
                x.input.value = String(eStart[j]);
              });
              render();
            },
          ],
        ],
        t("scores_group")
      )
    );
    var pBars = panel("ae-bars-" + n, t("score_bars"));
    var pPlane = panel("ae-plane-" + n, t("score_plane"));
    var updateBars = makeBars(pBars, tokens);
    var updatePlane = null;
    function drawPlane() {
      Array.prototype.slice.call(pPlane.querySelectorAll("svg")).forEach(function (old) {
        old.remove();
      });
      updatePlane = makePlane(pPlane, H, tokens, "ae-plane-" + n);
    }
    drawPlane();
    var table = makeTable(tokens, t("score_score"));
    var live = html("p", { class: "ae-x-live", "aria-live": "polite" });

    root.textContent = "";
    append(root, [controls, append(html("div", { class: "ae-x-panels" }), [pBars, pPlane]), table.table, live]);

    function render() {
      var scores = sliders.map(function (x) {
        var e = parseFloat(x.input.value);
        x.output.textContent = fmt(e, 1);
        return e;
      });
      var weights = softmax(scores);
      var r = { scores: scores, weights: weights, context: weightedSum(weights, H) };
      updateBars(weights);
      updatePlane(r.context);
      var title = t("score_title", {
        scores: scores
          .map(function (e) {
            return fmt(e, 1);
          })
          .join(", "),
      });
      table.update(title, r);
      live.textContent = liveSummary(tokens, r, title);
    }
    choose.addEventListener("change", function () {
      H = sets[parseInt(choose.value, 10) || 0].H;
      drawPlane();
      render();
    });
    sliders.forEach(function (x) {
      x.input.addEventListener("input", render);
    });
    render();
  }


  // ---------------------------------------------------------------------------------------------------
  // Lesson 01: the question explorer. One sentence, two questions: e_j = q^T x_j, weights = softmax(e).

  function questionRead(X, q) {
    var scores = X.map(function (x) {
      var e = 0;
      for (var f = 0; f < q.length; f++) e += q[f] * x[f]; // e_j = q^T x_j
      return e;
    });
    return { scores: scores, weights: softmax(scores) };
  }

  function questionExplorer(root, params, args) {
    var qp = {
      sentences: args.sentences || params.question.sentences,
      queries: args.queries || params.question.queries,
      top: params.question.top,
    };
    var firstQuery = Math.max(
      0,
      qp.queries.map(function (query) { return query.id; }).indexOf(args.question)
    );
    var n = ++counter;
    var sentenceSel = html("select", { id: "ae-sent-" + n });
    qp.sentences.forEach(function (s, i) {
      sentenceSel.appendChild(html("option", { value: String(i) }, s.text));
    });
    var sentenceRow = append(html("div", { class: "ae-x-select" }), [html("label", { for: "ae-sent-" + n }, t("sentence")), sentenceSel]);
    var questionSet = append(html("fieldset", { class: "ae-radios" }), [html("legend", {}, t("question"))]);
    var radios = qp.queries.map(function (query, i) {
      var id = "ae-q-" + n + "-" + i;
      var input = html("input", { type: "radio", name: "ae-q-" + n, id: id, value: String(i) });
      if (i === firstQuery) input.checked = true;
      questionSet.appendChild(append(html("span", { class: "ae-radio" }), [input, html("label", { for: id }, query.name)]));
      return input;
    });
    if (typeof args.sentence === "number" && args.sentence < qp.sentences.length) sentenceSel.value = String(args.sentence);
    var controls = append(html("div", { class: "ae-x-controls" }), [sentenceRow, questionSet]);

    var pBars = panel("ae-qbars-" + n, t("question_bars"));
    var bars = html("div", { class: "ae-x-bars ae-x-qbars", "aria-hidden": "true" });
    pBars.appendChild(bars);
    var table = html("table", { class: "ae-x-table" });
    var caption = html("caption");
    var body = html("tbody");
    append(table, [
      caption,
      append(html("thead"), [
        append(html("tr"), [
          html("th", { scope: "col" }, "j"),
          html("th", { scope: "col" }, t("token")),
          withSubs(html("th", { scope: "col" }), t("score_score")),
          withSubs(html("th", { scope: "col" }), t("weight_j")),
        ]),
      ]),
      body,
    ]);
    var top = html("p", { class: "ae-x-top" });
    var live = html("p", { class: "ae-x-live", "aria-live": "polite" });
    root.textContent = "";
    append(root, [controls, append(html("div", { class: "ae-x-panels" }), [pBars]), top, table, live]);

    function render() {
      var sentence = qp.sentences[parseInt(sentenceSel.value, 10) || 0];
      var qi = 0;
      radios.forEach(function (r, i) {
        if (r.checked) qi = i;
      });
      var query = qp.queries[qi];
      var r = questionRead(sentence.X, query.q);
      var order = r.weights
        .map(function (w, j) {
          return j;
        })
        .sort(function (a, b) {
          return r.weights[b] - r.weights[a] || a - b;
        })
        .slice(0, qp.top);
      bars.textContent = "";
      body.textContent = "";
      sentence.tokens.forEach(function (token, j) {
        var isTop = order.indexOf(j) >= 0;
        var fill = html("span", { class: "ae-x-fill " + (isTop ? "ae-c1" : "ae-c0") });
        fill.style.width = (100 * r.weights[j]).toFixed(2) + "%";
        bars.appendChild(
          append(html("div", { class: "ae-x-bar" }), [
            html("span", { class: "ae-x-tok" + (isTop ? " ae-x-strong" : "") }, token),
            append(html("span", { class: "ae-x-track" }), [fill]),
            html("span", { class: "ae-x-barval" + (isTop ? " ae-x-strong" : "") }, fmt(r.weights[j])),
          ])
        );
        var row = append(html("tr", isTop ? { class: "ae-x-top-row" } : {}), [
          html("td", {}, String(j + 1)),
          html("th", { scope: "row" }, token),
          html("td", { "data-ae-out": "score-" + j }, fmt(r.scores[j])),
          html("td", { "data-ae-out": "weight-" + j }, fmt(r.weights[j])),
        ]);
        body.appendChild(row);
      });
      var together = order.reduce(function (a, j) {
        return a + r.weights[j];
      }, 0);
      var names = order.map(function (j) {
        return sentence.tokens[j] + " " + fmt(r.weights[j]);
      });
      var listed = names.join(t("list_sep"));
      caption.textContent = t("question_caption", { question: query.name, sentence: sentence.text });
      top.textContent = "";
      append(top, [html("strong", {}, t("top_head", { k: qp.top, n: sentence.tokens.length }))]);
      append(
        top,
        tNodes("top_rest", {
          list: html("span", { "data-ae-text": "top" }, listed),
          sum: html("span", { "data-ae-out": "top-sum" }, fmt(together)),
        })
      );
      live.textContent = t("question_live", { question: query.name, list: listed });
    }
    sentenceSel.addEventListener("change", render);
    radios.forEach(function (r) {
      r.addEventListener("change", render);
    });
    render();
  }

  // ---------------------------------------------------------------------------------------------------
  // Start: find the placeholders, read the parameters, build each explorer.

  function start() {
    var roots = document.querySelectorAll(".ae-explorer");
    if (!roots.length) return;
    var params = UI.pageParams();
    var builders = { state: stateExplorer, score: scoreExplorer, question: questionExplorer };
    Array.prototype.forEach.call(roots, function (root) {
      var build = builders[root.getAttribute("data-explorer")];
      if (!build && root.getAttribute("data-explorer") === "lab") return; // lesson 07's lab: ae-lab.js builds it
      var args = null;
      try {
        args = JSON.parse(root.getAttribute("data-args") || "{}");
      } catch (err) {
        args = null;
      }
      if (!params || typeof params.schema !== "number" || !build || !args) {
        root.textContent = params && params.labels ? params.labels.missing : "This live explorer could not start: its parameters are missing from the page.";
        return;
      }
      root.classList.add("ae-x-ready");
      build(root, params, args);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
