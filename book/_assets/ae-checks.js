// Answer boxes for the exercises of "Attention, executable": the notebook's self-checks, decided in the page.
//
// After an exercise's check cell the website's build puts <div class="ae-exercise" data-box="{...}"> (written by
// src/attention_workshop/ae_twins.py from the declaration the check left in the cell's metadata and from
// attention_core.checks.site.box): the check's name, its slots (one box per answer of the reader's, with a label),
// the answers the cell starts from and `given`, the numbers its decision needs, computed by the check's own
// `given` function in Python for the page's edition. The page holds once, in <script id="ae-checks">, the messages
// its boxes say (attention_core.checks.site.page_parameters: the check modules' tables in the page's language).
//
// This script is the checks' second implementation, in the package's shape so that the two read side by side:
//
//   Python values      the reader's text read as Python reads it (ints, floats, text, None, lists, tuples, range)
//   base               attention_core/checks/base.py: quote, number, whole_number, positions, numbers, fmt,
//                      Precision, Say, Finding, feedback (the hints grow with the attempts, the answer at the third)
//   reading, state,    each value check's decide(answers, given), key for key and in the same order as its Python
//   training, luong,   twin (check_query_focus, check_negation_focus, check_moved_states, check_moved_halves,
//   encoder            check_stored_floats, check_context; check_example_read, check_peak_state;
//                      check_steepest_push; check_local_m_window; check_scaled_weights, check_permuted_rows)
//   the boxes          a form per box: labelled text fields, Check and "Show the answer", an aria-live verdict
//
// Numbers are formatted as Python and numpy format them (str.format's f, e and g, repr, numpy's array2string),
// from each double's exact decimal value, so a verdict's text is the notebook's character for character.
// tests/site/test_checks_js.py compares every function here with its Python twin under Node, on random answers;
// tests/site/test_site_checks.py runs the exercises' bank in the built pages, in every edition. Under Node the file
// exports its functions (module.exports); in a page it sets self.AEChecks and builds the boxes.
(function (scope) {
  "use strict";

  // ---------------------------------------------------------------------------------------------------
  // Python values. A Python int is an Int (a BigInt inside, so 10**400 stays exact), a float a JS number, a str a
  // JS string, None null, a bool a JS boolean, a list an Array, a tuple a Tuple and a range a Range.

  function Int(v) {
    this.v = BigInt(v);
  }
  function Tuple(items) {
    this.items = items;
  }
  function Range(start, stop, step) {
    this.start = start; // BigInt, as Python's
    this.stop = stop;
    this.step = step;
  }
  Range.prototype.length = function () {
    var s = this.start,
      e = this.stop,
      k = this.step;
    var n = k > 0n ? (e - s + k - 1n) / k : (s - e - k - 1n) / -k;
    return n > 0n ? n : 0n;
  };
  Range.prototype.list = function () {
    var out = [];
    for (var x = this.start; this.step > 0n ? x < this.stop : x > this.stop; x += this.step) out.push(new Int(x));
    return out;
  };
  function Unreadable(given) {
    this.given = given; // text the page cannot read as a Python value
  }

  function isInt(v) {
    return v instanceof Int;
  }
  function isFloat(v) {
    return typeof v === "number";
  }
  function isSeq(v) {
    return Array.isArray(v) || v instanceof Tuple || v instanceof Range;
  }
  function items(v) {
    return Array.isArray(v) ? v : v instanceof Tuple ? v.items : v.list();
  }
  function seqLength(v) {
    return v instanceof Range ? v.length() : BigInt(items(v).length);
  }

  // --- reading the reader's text as Python reads it
  // A recursive-descent reader of Python's expression syntax for what an answer holds: numbers (ints of any size,
  // floats, nan and inf, np.nan, float("...")), + - * / ** and parentheses, lists, tuples (a, b and (a,)),
  // range(...), quoted text, None, True, False. Anything else is Unreadable. Arithmetic follows Python's types.
  var MAX_BITS = 100000; // an int larger than this (about 30,000 digits) is refused: Python would print it slowly

  function read(text) {
    var src = Array.from(String(text)); // by code point
    var i = 0;
    function fail() {
      throw new Unreadable(text);
    }
    function peek() {
      while (i < src.length && /\s/.test(src[i])) i++;
      return src[i];
    }
    function take(word) {
      peek();
      for (var k = 0; k < word.length; k++) if (src[i + k] !== word[k]) return false;
      var after = src[i + word.length];
      if (/\w/.test(word[word.length - 1]) && after !== undefined && /\w/.test(after)) return false;
      i += word.length;
      return true;
    }
    // items up to `close` (undefined: the end of the text), each followed by a comma or the end
    function sequence(close) {
      var out = [],
        trailing = false;
      while (peek() !== close) {
        out.push(expression());
        trailing = false;
        if (peek() === ",") {
          i++;
          trailing = true;
        } else if (peek() !== close) fail();
      }
      i++;
      return { items: out, trailing: trailing };
    }
    function atom() {
      var c = peek();
      if (c === undefined) fail();
      if (c === "(") {
        i++;
        if (peek() === ")") {
          i++;
          return new Tuple([]);
        }
        var first = expression();
        if (peek() === ")") {
          i++;
          return first;
        }
        if (peek() !== ",") fail();
        i++;
        var rest = sequence(")");
        return new Tuple([first].concat(rest.items));
      }
      if (c === "[") {
        i++;
        return sequence("]").items;
      }
      if (c === "'" || c === '"') return string();
      if (/[0-9.]/.test(c)) return numberLiteral();
      var names = [
        ["None", null],
        ["True", true],
        ["False", false],
        ["np.nan", NaN],
        ["np.inf", Infinity],
        ["math.nan", NaN],
        ["math.inf", Infinity],
        ["nan", NaN],
        ["inf", Infinity],
      ];
      for (var k = 0; k < names.length; k++) if (take(names[k][0])) return names[k][1];
      if (take("float")) return floatCall();
      if (take("range")) return rangeCall();
      fail();
    }
    function floatCall() {
      if (peek() !== "(") fail();
      i++;
      var arg = expression();
      if (peek() !== ")") fail();
      i++;
      if (typeof arg === "string") {
        var t = arg.trim().toLowerCase().replace(/_/g, "");
        var m = /^([+-]?)(nan|inf|infinity)$/.exec(t);
        if (m) return m[2] === "nan" ? NaN : m[1] === "-" ? -Infinity : Infinity;
        if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(t)) fail();
        return parseFloat(t);
      }
      return toFloat(arg);
    }
    function rangeCall() {
      if (peek() !== "(") fail();
      i++;
      var args = sequence(")").items;
      if (args.length < 1 || args.length > 3) fail();
      args = args.map(function (a) {
        if (typeof a === "boolean") return BigInt(a ? 1 : 0);
        if (!isInt(a)) fail();
        return a.v;
      });
      var start = args.length > 1 ? args[0] : 0n,
        stop = args.length > 1 ? args[1] : args[0],
        step = args.length > 2 ? args[2] : 1n;
      if (step === 0n) fail();
      return new Range(start, stop, step);
    }
    function string() {
      var q = src[i++],
        out = "";
      while (true) {
        var c = src[i++];
        if (c === undefined) fail();
        if (c === q) return out;
        if (c !== "\\") {
          out += c;
          continue;
        }
        var e = src[i++];
        var simple = { n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'", '"': '"', a: "\x07", b: "\b", f: "\f", v: "\v" };
        var octal = /^[0-7]{1,3}/.exec(src.slice(i - 1, i + 2).join(""));
        if (octal) {
          out += String.fromCodePoint(parseInt(octal[0], 8));
          i += octal[0].length - 1;
        } else if (e === "x" || e === "u" || e === "U") {
          var len = { x: 2, u: 4, U: 8 }[e],
            hex = src.slice(i, i + len).join("");
          if (hex.length !== len || !/^[0-9a-fA-F]+$/.test(hex) || parseInt(hex, 16) > 0x10ffff) fail();
          out += String.fromCodePoint(parseInt(hex, 16));
          i += len;
        } else if (simple[e] !== undefined) out += simple[e];
        else if (e === undefined) fail();
        else out += "\\" + e; // Python keeps an unknown escape as written
      }
    }
    function numberLiteral() {
      var rest = src.slice(i).join("");
      var m = /^(?:(\d(?:_?\d)*)?\.(\d(?:_?\d)*)?(?:[eE][+-]?\d(?:_?\d)*)?|\d(?:_?\d)*[eE][+-]?\d(?:_?\d)*)/.exec(rest);
      var text;
      if (m && m[0] !== "." && (m[0].indexOf(".") >= 0 || /[eE]/.test(m[0]))) {
        text = m[0];
        if (text.indexOf(".") >= 0 && m[1] === undefined && m[2] === undefined) fail();
        i += Array.from(text).length;
        if (/^[jJ\w]/.test(src[i] || "")) fail(); // 1.5j, 1.5x
        return parseFloat(text.replace(/_/g, ""));
      }
      var hexa = /^0[xX](?:_?[0-9a-fA-F])+|^0[oO](?:_?[0-7])+|^0[bB](?:_?[01])+/.exec(rest);
      if (hexa) {
        i += hexa[0].length;
        if (/^\w/.test(src[i] || "")) fail();
        return new Int(BigInt(hexa[0].replace(/_/g, "")));
      }
      var d = /^\d(?:_?\d)*/.exec(rest);
      if (!d) fail();
      text = d[0].replace(/_/g, "");
      if (text.length > 1 && text[0] === "0" && /[1-9]/.test(text)) fail(); // 012 is a syntax error
      i += d[0].length;
      if (/^\w/.test(src[i] || "")) fail();
      return new Int(BigInt(text));
    }
    // Python's precedence: unary + and - bind less tightly than **, more than * and /
    function power() {
      var base = atom();
      if (take("**")) return arith("**", base, unary());
      return base;
    }
    function unary() {
      if (peek() === "-" || peek() === "+") {
        var minus = src[i++] === "-";
        var v = unary();
        if (minus) return negate(v);
        if (typeof v === "boolean") return new Int(v ? 1 : 0);
        if (!isInt(v) && !isFloat(v)) fail();
        return v;
      }
      return power();
    }
    function term() {
      var left = unary();
      while (true) {
        if (peek() === "*" && src[i + 1] !== "*") {
          i++;
          left = arith("*", left, unary());
        } else if (peek() === "/" && src[i + 1] !== "/") {
          i++;
          left = arith("/", left, unary());
        } else return left;
      }
    }
    function expression() {
      var left = term();
      while (true) {
        if (peek() === "+") {
          i++;
          left = arith("+", left, term());
        } else if (peek() === "-") {
          i++;
          left = arith("-", left, term());
        } else return left;
      }
    }
    function negate(v) {
      if (typeof v === "boolean") return new Int(v ? -1 : 0);
      if (isInt(v)) return new Int(-v.v);
      if (isFloat(v)) return -v;
      fail();
    }
    function toFloat(v) {
      if (typeof v === "boolean") return v ? 1 : 0;
      if (isFloat(v)) return v;
      if (isInt(v)) {
        var x = Number(v.v);
        if (!isFinite(x)) fail(); // OverflowError: int too large to convert to float
        return x;
      }
      fail();
    }
    function arith(op, a, b) {
      if (typeof a === "boolean") a = new Int(a ? 1 : 0);
      if (typeof b === "boolean") b = new Int(b ? 1 : 0);
      if (op === "+" && Array.isArray(a) && Array.isArray(b)) return a.concat(b);
      if (op === "+" && a instanceof Tuple && b instanceof Tuple) return new Tuple(a.items.concat(b.items));
      if (!(isInt(a) || isFloat(a)) || !(isInt(b) || isFloat(b))) fail();
      if (isInt(a) && isInt(b)) {
        if (op === "+") return new Int(a.v + b.v);
        if (op === "-") return new Int(a.v - b.v);
        if (op === "*") {
          if (bits(a.v) + bits(b.v) > MAX_BITS) fail();
          return new Int(a.v * b.v);
        }
        if (op === "/") {
          if (b.v === 0n) fail(); // ZeroDivisionError
          var limit = 2n ** 53n;
          if (abs(a.v) > limit || abs(b.v) > limit) fail(); // the page cannot round it as Python does
          return Number(a.v) / Number(b.v); // both exact: one correctly rounded division, as Python's
        }
        if (b.v >= 0n) {
          if (a.v !== 0n && abs(a.v) !== 1n && Number(b.v) * bits(a.v) > MAX_BITS) fail();
          return new Int(a.v ** b.v);
        }
        if (a.v === 0n) fail(); // ZeroDivisionError
        return checkedPow(toFloat(a), toFloat(b));
      }
      var x = toFloat(a),
        y = toFloat(b);
      if (op === "+") return x + y;
      if (op === "-") return x - y;
      if (op === "*") return x * y;
      if (op === "/") {
        if (y === 0) fail(); // ZeroDivisionError
        return x / y;
      }
      return checkedPow(x, y);
    }
    function checkedPow(x, y) {
      if (x === 0 && y < 0) fail(); // ZeroDivisionError
      if (x < 0 && isFinite(y) && Math.floor(y) !== y) fail(); // a complex number in Python
      var r = Math.pow(x, y);
      if (isFinite(x) && isFinite(y) && !isFinite(r)) fail(); // OverflowError
      if (x === 1 || y === 0) return 1; // Python: 1 ** nan and nan ** 0 are 1
      return r;
    }
    if (peek() === undefined) return { empty: true };
    var first = expression();
    if (peek() === ",") {
      i++; // a bare tuple, "4, 5, 6" or "4,": what Python makes of it
      return { value: new Tuple([first].concat(sequence(undefined).items)) };
    }
    if (peek() !== undefined) fail();
    return { value: first };
  }

  function bits(v) {
    return abs(v).toString(2).length;
  }
  function abs(v) {
    return v < 0n ? -v : v;
  }

  // ---------------------------------------------------------------------------------------------------
  // Numbers as Python and numpy write them, from the exact decimal value of a double.

  // |x| = D * 10**-k exactly (x finite, not 0): D a BigInt, k >= 0.
  function exact(x) {
    var view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, Math.abs(x));
    var hi = view.getUint32(0),
      lo = view.getUint32(4);
    var e = (hi >>> 20) & 0x7ff;
    var m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
    if (e === 0) e = 1;
    else m |= 1n << 52n;
    e -= 1075; // |x| = m * 2**e
    if (e >= 0) return { D: m << BigInt(e), k: 0 };
    return { D: m * 5n ** BigInt(-e), k: -e };
  }
  // BigInt q rounded from q * 10**cut + r to the nearest, ties to even (Python's and numpy's rounding).
  function roundOff(D, cut) {
    if (cut <= 0) return D * 10n ** BigInt(-cut);
    var p = 10n ** BigInt(cut),
      q = D / p,
      r = D % p,
      half = p / 2n;
    if (r > half || (r === half && q % 2n === 1n)) q += 1n;
    return q;
  }
  // |x| with `f` decimals, correctly rounded (ties to even): digits, no sign.
  function fixedDigits(x, f) {
    if (x === 0) return f > 0 ? "0." + "0".repeat(f) : "0";
    var ex = exact(x),
      q = roundOff(ex.D, ex.k - f).toString();
    if (f === 0) return q;
    q = q.padStart(f + 1, "0");
    return q.slice(0, q.length - f) + "." + q.slice(q.length - f);
  }
  // |x| with p significant digits, correctly rounded: {digits (p of them), exp (of the first digit)}.
  function sigDigits(x, p) {
    if (x === 0) return { digits: "0".repeat(p), exp: 0 };
    var ex = exact(x),
      n = ex.D.toString().length,
      E = n - 1 - ex.k;
    var q = roundOff(ex.D, n - p).toString();
    if (q.length > p) {
      q = q.slice(0, p);
      E += 1;
    }
    return { digits: q, exp: E };
  }
  // The shortest digits that read back as x (what repr writes): {digits, exp (of the first digit)}.
  function shortest(x) {
    if (x === 0) return { digits: "0", exp: 0 };
    var s = String(Math.abs(x)),
      m = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(s);
    var whole = m[1],
      frac = m[2] || "",
      exp10 = m[3] ? parseInt(m[3], 10) : 0;
    var digits = (whole + frac).replace(/^0+/, "");
    var lead = whole.replace(/^0+/, "").length ? whole.replace(/^0+/, "").length - 1 : -(frac.length - frac.replace(/^0+/, "").length) - 1;
    return { digits: digits.replace(/0+$/, "") || "0", exp: lead + exp10 };
  }
  function expText(e, min) {
    var a = String(Math.abs(e));
    return (e < 0 ? "-" : "+") + a.padStart(min, "0");
  }
  // repr(x) for a Python float
  function floatRepr(x) {
    if (isNaN(x)) return "nan";
    if (!isFinite(x)) return x < 0 ? "-inf" : "inf";
    var sign = x < 0 || Object.is(x, -0) ? "-" : "";
    if (x === 0) return sign + "0.0";
    var s = shortest(x),
      d = s.digits,
      e = s.exp;
    if (e < -4 || e >= 16) return sign + d[0] + (d.length > 1 ? "." + d.slice(1) : "") + "e" + expText(e, 2);
    if (e < 0) return sign + "0." + "0".repeat(-e - 1) + d;
    if (d.length <= e + 1) return sign + d + "0".repeat(e + 1 - d.length) + ".0";
    return sign + d.slice(0, e + 1) + "." + d.slice(e + 1);
  }
  // format(x, spec) for a float x (or an int converted), spec types f, e, g, % and none: Python's rules.
  function formatFloat(x, type, precision, alternate) {
    if (isNaN(x)) return "nan";
    if (!isFinite(x)) return x < 0 ? "-inf" : "inf";
    var sign = x < 0 || Object.is(x, -0) ? "-" : "";
    var a = Math.abs(x);
    if (type === "f" || type === "F") return sign + fixedDigits(a, precision === null ? 6 : precision);
    if (type === "%") return sign + fixedDigits(a * 100, precision === null ? 6 : precision) + "%";
    if (type === "e" || type === "E") {
      var p = precision === null ? 6 : precision,
        s = sigDigits(a, p + 1);
      return sign + s.digits[0] + (p > 0 ? "." + s.digits.slice(1) : "") + "e" + expText(s.exp, 2);
    }
    // g (and no type with a precision: the same, keeping one decimal)
    var P = precision === null ? 6 : precision === 0 ? 1 : precision;
    var sg = sigDigits(a, P),
      E = sg.exp,
      out;
    if (-4 <= E && E < P) {
      var f = P - 1 - E;
      out = fixedDigits(a, f);
      if (!alternate && out.indexOf(".") >= 0) out = out.replace(/0+$/, "").replace(/\.$/, "");
    } else {
      var mant = sg.digits[0] + (P > 1 ? "." + sg.digits.slice(1) : "");
      if (!alternate && mant.indexOf(".") >= 0) mant = mant.replace(/0+$/, "").replace(/\.$/, "");
      out = mant + "e" + expText(E, 2);
    }
    return sign + out;
  }

  // format(value, spec) and str(value): the subset of Python's format mini-language the messages use.
  function formatValue(v, spec) {
    var m = /^(?:(.)?([<>=^]))?([+\- ]?)(#?)(0?)(\d*)(,?)(?:\.(\d+))?([a-zA-Z%]?)$/.exec(spec);
    if (!m) throw new Error("format spec not supported: " + spec);
    var fill = m[1] || (m[5] ? "0" : " "),
      align = m[2] || (m[5] ? "=" : null),
      sign = m[3],
      alt = m[4] === "#",
      width = m[6] ? parseInt(m[6], 10) : 0,
      precision = m[8] !== undefined ? parseInt(m[8], 10) : null,
      type = m[9];
    var text, numeric;
    if (v instanceof Int && (type === "" || type === "d")) {
      text = v.v.toString();
      numeric = true;
    } else if (v instanceof Int || isFloat(v) || typeof v === "boolean") {
      var x = v instanceof Int ? Number(v.v) : Number(v);
      if (type === "" && precision === null) text = v instanceof Int ? v.v.toString() : typeof v === "boolean" ? (v ? "True" : "False") : floatRepr(x);
      else if (type === "" || type === "g" || type === "G") text = formatFloat(x, "g", precision, alt);
      else text = formatFloat(x, type, precision, alt);
      if (type === "" && precision !== null && /^-?\d+$/.test(text)) text += ".0";
      numeric = true;
    } else {
      text = pyStr(v);
      if (precision !== null) text = Array.from(text).slice(0, precision).join("");
      numeric = false;
    }
    if (numeric && sign && text[0] !== "-") text = (sign === " " ? " " : "+") + text;
    var n = Array.from(text).length;
    if (width <= n) return text;
    var pad = fill.repeat(width - n);
    align = align || (numeric ? ">" : "<");
    if (align === "<") return text + pad;
    if (align === ">") return pad + text;
    if (align === "=") return /^[+\- ]/.test(text) ? text[0] + pad + text.slice(1) : pad + text;
    var left = fill.repeat(Math.floor((width - n) / 2));
    return left + text + fill.repeat(width - n - left.length / fill.length);
  }

  // str(v) and repr(v) of a Python value (lists and tuples write their items' repr).
  function pyStr(v) {
    if (typeof v === "string") return v;
    return pyRepr(v);
  }
  var NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;
  function strRepr(s) {
    var cps = Array.from(s);
    var q = s.indexOf("'") >= 0 && s.indexOf('"') < 0 ? '"' : "'";
    var out = q;
    cps.forEach(function (ch) {
      var c = ch.codePointAt(0);
      if (ch === q || ch === "\\") out += "\\" + ch;
      else if (ch === "\t") out += "\\t";
      else if (ch === "\n") out += "\\n";
      else if (ch === "\r") out += "\\r";
      else if (c < 0x20 || c === 0x7f) out += "\\x" + c.toString(16).padStart(2, "0");
      else if (c < 0x7f) out += ch;
      else if (!NOT_PRINTABLE.test(ch)) out += ch;
      else if (c < 0x100) out += "\\x" + c.toString(16).padStart(2, "0");
      else if (c < 0x10000) out += "\\u" + c.toString(16).padStart(4, "0");
      else out += "\\U" + c.toString(16).padStart(8, "0");
    });
    return out + q;
  }
  function pyRepr(v) {
    if (v === null || v === undefined) return "None";
    if (typeof v === "boolean") return v ? "True" : "False";
    if (typeof v === "string") return strRepr(v);
    if (isFloat(v)) return floatRepr(v);
    if (v instanceof Int) return v.v.toString();
    if (v instanceof Range) return "range(" + v.start + ", " + v.stop + (v.step !== 1n ? ", " + v.step : "") + ")";
    if (Array.isArray(v)) return "[" + v.map(pyRepr).join(", ") + "]";
    if (v instanceof Tuple) return "(" + v.items.map(pyRepr).join(", ") + (v.items.length === 1 ? ",)" : ")");
    if (v instanceof Say) return String(v);
    return String(v);
  }

  // Python's str.format(**values): {name}, {name!r}, {name:spec}, {{ and }}.
  function pyFormat(template, values) {
    return template.replace(/\{\{|\}\}|\{(\w+)(?:!([rs]))?(?::([^{}]*))?\}/g, function (all, name, conv, spec) {
      if (all === "{{") return "{";
      if (all === "}}") return "}";
      if (!(name in values)) throw new Error("no value for {" + name + "}");
      var v = values[name];
      if (conv === "r") v = pyRepr(v);
      else if (conv === "s") v = pyStr(v);
      return formatValue(v, spec || "");
    });
  }

  // ---------------------------------------------------------------------------------------------------
  // base: attention_core/checks/base.py

  var SHOWN = 60; // characters of a reader's value quoted in a message
  var MAX_ITEMS = 1000000; // positions read from one answer
  var FSI = "\u2068",
    PDI = "\u2069";
  var BOOKS = {}; // the messages by book (base, site, reading, ...), from the page's #ae-checks

  // A message by key, its values filled when it is said (String(say)): base.Say.
  function Say(book, key, values) {
    this.book = book;
    this.key = key;
    this.values = values || {};
  }
  Say.prototype.toString = function () {
    var table = BOOKS[this.book];
    if (!table || table[this.key] === undefined) throw new Error("no message " + this.book + ":" + this.key);
    var vals = {};
    var self = this;
    Object.keys(this.values).forEach(function (k) {
      var v = self.values[k];
      vals[k] = v instanceof Say ? String(v) : v;
    });
    return pyFormat(table[this.key], vals);
  };
  function text(book, key, values) {
    return String(new Say(book, key, values));
  }

  var STOPS = ".?!。？！";
  function both(first, second) {
    var said = String(first);
    var last = Array.from(said.replace(/\s+$/, "")).pop() || "";
    return new Say("base", STOPS.indexOf(last) >= 0 && last !== "" ? "then" : "then_stop", { first: said, second: second });
  }

  function Problem(hint, detail) {
    this.hint = hint;
    this.detail = detail === undefined ? null : detail;
  }
  function Finding(passed, problems, answer, judged) {
    this.passed = passed || null;
    this.problems = problems || [];
    this.answer = answer === undefined ? null : answer;
    this.judged = judged === undefined ? true : judged;
  }
  Finding.prototype.ok = function () {
    return this.passed !== null && !this.problems.length;
  };
  function right(passed, answer) {
    return new Finding(passed, [], answer);
  }
  function wrong(problems, answer) {
    return new Finding(null, problems, answer);
  }
  function malformed(problem, answer) {
    return new Finding(null, [new Problem(problem)], answer, false);
  }

  var REVEAL_AFTER = 3;
  // The verdict for `finding` at wrong answer number `tries` (0: not counted): base.feedback with page=True.
  function feedback(finding, tries, showAnswer) {
    if (finding.ok()) return { ok: true, lead: capitalised(String(finding.passed)), items: [], note: "" };
    var texts = finding.problems.map(function (problem) {
      var t = String(problem.hint);
      if (problem.detail !== null && tries >= 2) t = String(both(t, problem.detail));
      return t;
    });
    var note;
    if (showAnswer || (tries >= REVEAL_AFTER && finding.answer !== null))
      note = finding.answer !== null ? text("base", "the_answer", { answer: String(finding.answer) }) : "";
    else if (tries) note = text("base", "tries_left_page", { n: new Int(tries), of: new Int(REVEAL_AFTER) });
    else note = "";
    texts = texts.map(capitalised);
    if (texts.length === 1) return { ok: false, lead: texts[0], items: [], note: note };
    return { ok: false, lead: text("base", "problems", { n: new Int(texts.length) }), items: texts, note: note };
  }
  function capitalised(t) {
    var word = t.split(" ")[0].replace(/[,:;]+$/, "");
    var chars = Array.from(word);
    var alpha = chars.length > 1 && chars.every(function (c) {
      return /\p{L}/u.test(c);
    });
    var lower = chars.some(function (c) {
      return c !== c.toUpperCase();
    }) && chars.every(function (c) {
      return c === c.toLowerCase();
    });
    if (!(alpha && lower)) return t;
    var first = Array.from(t)[0];
    return first.toUpperCase() + t.slice(first.length);
  }

  // --- quoting (base.quote): reprlib's bounded repr, cut to SHOWN characters, isolated for bidirectional text
  var MAXLEVEL = 3,
    MAXITEMS = 8,
    MAXTEXT = 4 * SHOWN;
  function short(v, level) {
    if (typeof v === "string") {
      var cps = Array.from(v);
      var s = strRepr(cps.slice(0, MAXTEXT).join(""));
      if (Array.from(s).length > MAXTEXT) {
        var i = Math.floor((MAXTEXT - 3) / 2),
          j = MAXTEXT - 3 - i;
        var r = Array.from(strRepr(cps.slice(0, i).concat(cps.slice(cps.length - j)).join("")));
        s = r.slice(0, i).join("") + "..." + r.slice(r.length - j).join("");
      }
      return s;
    }
    if (v instanceof Int) {
      var b = bits(v.v);
      if (b > 4000) {
        var digits = Math.floor(b * Math.log10(2)) + 1;
        return (v.v < 0n ? "-" : "") + "10**" + (digits - 1);
      }
      return cutMiddle(v.v.toString());
    }
    if (Array.isArray(v) || v instanceof Tuple) {
      var list = items(v),
        n = list.length,
        tuple = v instanceof Tuple;
      var open = tuple ? "(" : "[",
        close = tuple ? ")" : "]",
        body;
      if (level <= 0 && n) body = "...";
      else {
        var pieces = list.slice(0, MAXITEMS).map(function (x) {
          return short(x, level - 1);
        });
        if (n > MAXITEMS) pieces.push("...");
        body = pieces.join(", ");
        if (n === 1 && tuple) close = "," + close;
      }
      return open + body + close;
    }
    return cutMiddle(pyRepr(v)); // float, None, bool, range: repr_instance
  }
  function cutMiddle(s) {
    var cps = Array.from(s);
    if (cps.length <= MAXTEXT) return s;
    var i = Math.floor((MAXTEXT - 3) / 2),
      j = MAXTEXT - 3 - i;
    return cps.slice(0, i).join("") + "..." + cps.slice(cps.length - j).join("");
  }
  // Python's str.isspace, and the characters base._cut writes as \uXXXX
  var SPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;
  var CONTROL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
  function cut(t) {
    var cps = Array.from(t).slice(0, 4 * SHOWN);
    var words = [],
      word = "";
    cps.forEach(function (c) {
      if (SPACE.test(c)) {
        if (word) words.push(word);
        word = "";
      } else word += c;
    });
    if (word) words.push(word);
    cps = Array.from(words.join(" ")).slice(0, 2 * SHOWN);
    var out = cps.map(function (c) {
      return CONTROL.test(c) && c !== " " ? "\\u" + c.codePointAt(0).toString(16).padStart(4, "0") : c;
    });
    out = Array.from(out.join(""));
    return out.length <= SHOWN ? out.join("") : out.slice(0, SHOWN - 1).join("") + "…";
  }
  function quote(v) {
    return FSI + cut(short(v, MAXLEVEL)) + PDI;
  }
  function quoteText(t) {
    return FSI + cut(t) + PDI;
  }

  // --- reading a reader's value (base.number, whole_number, positions, numbers)
  function say(key, values) {
    return new Say("base", key, values);
  }
  function real(v) {
    return isInt(v) || isFloat(v);
  }
  function number(v, name) {
    if (v === null) return [null, say("answer_none", { name: name })];
    if (typeof v === "string") return [null, say("answer_text", { name: name, given: quote(v) })];
    if (!real(v)) return [null, say("answer_not_number", { name: name, given: quote(v) })];
    var x;
    if (isInt(v)) {
      x = Number(v.v);
      if (!isFinite(x)) return [null, say("answer_too_large", { name: name, given: quote(v) })];
    } else x = v;
    if (!isFinite(x)) return [null, say("answer_not_finite", { name: name, given: quote(v) })];
    return [x, null];
  }
  var LIMIT53 = 2n ** 53n;
  function wholeNumber(v, name) {
    if (isInt(v)) {
      if (abs(v.v) > LIMIT53) return [null, say("answer_too_large", { name: name, given: quote(v) })];
      return [v.v, null];
    }
    var r = number(v, name);
    if (r[1]) return r;
    var x = r[0];
    if (!Number.isInteger(x)) return [null, say("answer_not_whole", { name: name, given: quote(v) })];
    if (Math.abs(x) > 2 ** 53) return [null, say("answer_too_large", { name: name, given: quote(v) })];
    return [BigInt(x), null];
  }
  function roundEven(x) {
    var r = Math.round(x);
    return Math.abs(x - Math.trunc(x)) === 0.5 && r % 2 !== 0 ? r - 1 : r;
  }
  function positions(v, name) {
    if (v === null) return [null, say("answer_none", { name: name })];
    if (typeof v === "string") return [null, say("answer_text", { name: name, given: quote(v) })];
    if (!isSeq(v)) return [null, say("answer_not_list", { name: name, given: quote(v) })];
    var count = seqLength(v);
    if (count > BigInt(MAX_ITEMS)) return [null, say("answer_too_long", { name: name, count: new Int(count) })];
    var got = [];
    var list = items(v);
    for (var k = 0; k < list.length; k++) {
      var item = list[k];
      if (typeof item === "string") return [null, say("answer_text", { name: name, given: quote(item) })];
      if (!real(item)) return [null, say("answer_not_list", { name: name, given: quote(v) })];
      var r = wholeNumber(item, name);
      if (r[1]) return r;
      got.push(r[0]);
    }
    var seen = new Map();
    got.forEach(function (n) {
      seen.set(n, (seen.get(n) || 0) + 1);
    });
    var repeated = [];
    seen.forEach(function (times, n) {
      if (times > 1) repeated.push(n);
    });
    if (repeated.length)
      return [null, say("answer_repeated", { name: name, repeated: quote(bigSorted(repeated).map(toInt)) })];
    return [bigSorted(got), null];
  }
  function bigSorted(a) {
    return a.slice().sort(function (x, y) {
      return x < y ? -1 : x > y ? 1 : 0;
    });
  }
  function toInt(n) {
    return new Int(n);
  }

  // numpy.asarray of a Python value: {kind: b|i|u|f|U|O, shape, flat} or null when numpy refuses it (ragged).
  var INT64 = [-(2n ** 63n), 2n ** 63n - 1n];
  function scalarKind(v) {
    if (typeof v === "boolean") return "b";
    if (isFloat(v)) return "f";
    if (typeof v === "string") return "U";
    if (isInt(v)) return v.v >= INT64[0] && v.v <= INT64[1] ? "i" : v.v >= 0n && v.v < 2n ** 64n ? "u" : "O";
    return "O";
  }
  function promote(a, b) {
    if (a === null) return b;
    if (a === b) return a;
    if (a === "O" || b === "O") return "O";
    if (a === "U" || b === "U") return "U";
    var order = "biuf";
    var pair = [a, b].sort(function (x, y) {
      return order.indexOf(x) - order.indexOf(y);
    });
    if (pair[0] === "i" && pair[1] === "u") return "f";
    return pair[1];
  }
  function asarray(v) {
    var flat = [],
      kind = null;
    function shapeOf(x) {
      if (!isSeq(x)) return [];
      var list = items(x);
      if (!list.length) return [0];
      var first = shapeOf(list[0]);
      if (first === null) return null;
      for (var k = 1; k < list.length; k++) {
        var other = shapeOf(list[k]);
        if (other === null || other.join() !== first.join()) return null;
      }
      return [list.length].concat(first);
    }
    var shape = shapeOf(v);
    if (shape === null) return null;
    (function walk(x) {
      if (isSeq(x)) items(x).forEach(walk);
      else {
        flat.push(x);
        kind = promote(kind, scalarKind(x));
      }
    })(v);
    if (kind === null) kind = "f"; // an empty list is float64
    return { kind: kind, shape: shape, flat: flat };
  }
  function hasHugeInt(arr) {
    return arr.flat.length <= 1000 && arr.flat.some(function (x) {
      return isInt(x) && bits(x.v) > 1023;
    });
  }
  function shapeTuple(shape) {
    return new Tuple(shape.map(toInt));
  }
  // base.numbers: finite real numbers of `shape` (a vector: [n]), as a JS array of floats; else a message.
  function numbers(v, name, shape) {
    if (v === null) return [null, say("answer_none", { name: name })];
    if (typeof v === "string") return [null, say("answer_text", { name: name, given: quote(v) })];
    var arr = asarray(v);
    if (arr === null) return [null, say("answer_not_number", { name: name, given: quote(v) })];
    if ("iuf".indexOf(arr.kind) < 0) {
      if (arr.kind === "U") return [null, say("answer_text", { name: name, given: quote(v) })];
      if (arr.kind === "O" && hasHugeInt(arr)) return [null, say("answer_too_large", { name: name, given: quote(v) })];
      return [null, say("answer_not_number", { name: name, given: quote(v) })];
    }
    if (arr.shape.join() !== shape.join()) {
      if (arr.shape.length === 1 && shape.length === 1)
        return [null, say("answer_count", { name: name, count: new Int(shape[0]), given: quote(v) })];
      return [null, say("answer_shape", { name: name, want: shapeTuple(shape), given: quote(v), got: shapeTuple(arr.shape) })];
    }
    var xs = arr.flat.map(function (x) {
      return typeof x === "boolean" ? (x ? 1 : 0) : isInt(x) ? Number(x.v) : x;
    });
    if (!xs.every(isFinite)) return [null, say("answer_not_finite", { name: name, given: quote(v) })];
    return [xs, null];
  }

  // --- numpy's printing of a float vector (base.fmt): np.array2string(x, precision=4, separator=", ",
  // suppress_small=True), then on one line and cut like a quotation (cut=true) or whole (cut=false).
  function dragon4(x, precision, minDigits, scientific) {
    // numpy's format_float_positional / _scientific with unique=True: the shortest digits, or fewer, rounded
    var neg = x < 0 || Object.is(x, -0),
      a = Math.abs(x);
    var s = shortest(a),
      d = s.digits,
      e = s.exp;
    if (!scientific) {
      var frac = Math.max(0, d.length - 1 - e);
      var whole, part;
      if (a === 0) {
        whole = "0";
        part = "";
      } else if (frac > precision) {
        var t = fixedDigits(a, precision).split(".");
        whole = t[0];
        part = (t[1] || "").replace(/0+$/, "");
      } else if (e >= 0) {
        whole = (d + "0".repeat(Math.max(0, e + 1 - d.length))).slice(0, e + 1);
        part = d.slice(e + 1);
      } else {
        whole = "0";
        part = "0".repeat(-e - 1) + d;
      }
      while (part.length < minDigits) part += "0";
      return { int: (neg ? "-" : "") + whole, frac: part };
    }
    if (a !== 0 && d.length - 1 > precision) {
      var sg = sigDigits(a, precision + 1);
      d = sg.digits.replace(/0+$/, "") || "0";
      e = sg.exp;
    }
    if (a !== 0 && d.length - 1 < minDigits) {
      // numpy prints the value's own further digits, rounded (not zeros): 5e-324 is 4.9407e-324 to four
      var more = sigDigits(a, minDigits + 1);
      d = more.digits;
      e = more.exp;
    }
    var mant = d.slice(1);
    while (mant.length < minDigits) mant += "0";
    return { int: (neg ? "-" : "") + d[0], frac: mant, exp: e };
  }
  function array2string(xs) {
    var nonzero = xs.filter(function (x) {
      return x !== 0;
    }).map(Math.abs);
    var expFormat = nonzero.length > 0 && Math.max.apply(null, nonzero) >= 1e8;
    var parts = xs.map(function (x) {
      return dragon4(x, 4, 0, expFormat);
    });
    var padLeft = Math.max.apply(null, parts.map(function (p) {
      return p.int.length;
    }));
    var strs;
    if (expFormat) {
      var prec = Math.max.apply(null, parts.map(function (p) {
        return p.frac.length;
      }));
      var expSize = Math.max.apply(null, parts.map(function (p) {
        return String(Math.abs(p.exp)).length < 2 ? 2 : String(Math.abs(p.exp)).length;
      }));
      strs = xs.map(function (x) {
        var p = dragon4(x, prec, prec, true);
        return p.int.padStart(padLeft, " ") + "." + p.frac + "e" + expText(p.exp, expSize);
      });
    } else {
      var padRight = Math.max.apply(null, parts.map(function (p) {
        return p.frac.length;
      }));
      strs = parts.map(function (p) {
        return p.int.padStart(padLeft, " ") + "." + p.frac.padEnd(padRight, " ");
      });
    }
    return "[" + strs.join(", ") + "]";
  }
  function fmt(xs, cutIt) {
    var t = array2string(xs);
    return cutIt === false ? t.split(/\s+/).filter(Boolean).join(" ") : cut(t);
  }
  // numpy.round(x, decimals): x * 10**d rounded half to even, divided back.
  function npRound(x, d) {
    var p = Math.pow(10, d);
    return roundEven(x * p) / p;
  }
  // Python's round(x, d) for a float: the correctly rounded decimal, read back.
  function pyRound(x, d) {
    return parseFloat((x < 0 ? "-" : "") + fixedDigits(Math.abs(x), d));
  }
  // numpy's sum of a vector of at most 128 numbers (np.add.reduce's pairwise sum): below 8 numbers one after the
  // other; from 8, eight partial sums over blocks of 8, added as a tree, then the remainder one after the other.
  function npSum(xs) {
    var n = xs.length,
      i;
    if (n < 8) {
      var s = 0;
      for (i = 0; i < n; i++) s += xs[i];
      return s;
    }
    var r = xs.slice(0, 8);
    for (i = 8; i < n - (n % 8); i += 8) for (var k = 0; k < 8; k++) r[k] += xs[i + k];
    var res = r[0] + r[1] + (r[2] + r[3]) + (r[4] + r[5] + (r[6] + r[7]));
    for (; i < n; i++) res += xs[i];
    return res;
  }

  // base.Precision: half a unit of the last decimal plus rtol of the exact value.
  function tolerance(precision, exact) {
    return 0.5 * Number("1e-" + precision.decimals) + precision.rtol * Math.abs(exact); // 10.0**-n, correctly rounded
  }
  function accepts(precision, got, exact) {
    got = [].concat(got);
    exact = [].concat(exact);
    return got.every(function (g, k) {
      return Math.abs(g - exact[k]) <= tolerance(precision, exact[k]);
    });
  }
  // numpy.allclose(a, b, rtol, atol): |a - b| <= atol + rtol |b|, elementwise.
  function allclose(a, b, rtol, atol) {
    return a.every(function (x, k) {
      return Math.abs(x - b[k]) <= atol + rtol * Math.abs(b[k]);
    });
  }

  // ---------------------------------------------------------------------------------------------------
  // The reads lesson 01's checks make: e_j = q^T x_j, softmax, c = sum_j alpha_j x_j (attention_core.reading).
  function queryRead(X, q) {
    var scores = X.map(function (x) {
      var e = 0;
      for (var f = 0; f < q.length; f++) e += q[f] * x[f];
      return e;
    });
    var top = Math.max.apply(null, scores);
    var z = scores.map(function (e) {
      return Math.exp(e - top);
    });
    var total = npSum(z);
    var weights = z.map(function (x) {
      return x / total;
    });
    var context = X[0].map(function (_, f) {
      var c = 0;
      weights.forEach(function (w, j) {
        c += w * X[j][f];
      });
      return c;
    });
    return { scores: scores, weights: weights, context: context };
  }
  function argmax(xs) {
    var best = 0;
    xs.forEach(function (x, k) {
      if (x > xs[best]) best = k;
    });
    return best;
  }

  // ---------------------------------------------------------------------------------------------------
  // reading: attention_core/checks/reading.py, the value checks

  function R(key, values) {
    return new Say("reading", key, values);
  }
  function quoted(token) {
    return text("reading", "quoted", { token: token });
  }
  function query(v, X) {
    var name = text("reading", "your_query");
    var r = numbers(v, name, [X[0].length]);
    if (r[1] === null) {
      var finite = X.every(function (x) {
        var e = 0;
        for (var f = 0; f < x.length; f++) e += x[f] * r[0][f];
        return isFinite(e);
      });
      if (!finite) return [null, R("overflow", { name: name })];
    }
    return r;
  }

  function check_query_focus(answers, g) {
    var j = g.j,
      atLeast = g.at_least,
      token = g.tokens[j];
    var answer = R("focus_answer", { token: quoted(token), w: g.example });
    var r = query(answers[0], g.X);
    if (r[1]) return malformed(r[1], answer);
    var read = queryRead(g.X, r[0]);
    var w = read.weights[j];
    if (w >= atLeast) return right(R("focus_ok", { token: quoted(token), w: w }), answer);
    var top = g.tokens[argmax(read.weights)];
    var said = { token: quoted(token), w: w, at_least: atLeast };
    if (top === token) return wrong([new Problem(R("focus_spread", said), R("focus_spread_detail"))], answer);
    var hint = R("focus_other", Object.assign({ top: quoted(top) }, said));
    return wrong([new Problem(hint, R("focus_other_detail", { token: quoted(token) }))], answer);
  }

  function whereScale(q, where, negation) {
    var others = where.map(function (_, k) {
      return k;
    }).filter(function (k) {
      return k !== negation;
    });
    var w = others.map(function (k) {
        return where[k];
      }),
      mine = others.map(function (k) {
        return q[k];
      });
    var scale = dot(mine, w) / dot(w, w);
    if (!isFinite(scale) || scale <= 0) return null;
    var scaled = w.map(function (x) {
      return scale * x;
    });
    if (!allclose(mine, scaled, 1e-5, 1e-5 * scale)) return null;
    return scale;
  }
  function dot(a, b) {
    var s = 0;
    a.forEach(function (x, k) {
      s += x * b[k];
    });
    return s;
  }

  function check_negation_focus(answers, g) {
    var iNeg = g.i_neg,
      iPlace = g.i_place;
    var answer = R("negation_answer", { w: g.solved });
    var r = query(answers[0], g.X);
    if (r[1]) return malformed(r[1], answer);
    var q = r[0];
    var scale = whereScale(q, g.where, g.negation);
    if (scale === null) return wrong([new Problem(R("negation_keep_where"))], answer);
    if (scale < 1 - g.close.rtol) return wrong([new Problem(R("negation_scale", { scale: scale }))], answer);
    var read = queryRead(g.X, q);
    var wNeg = read.weights[iNeg],
      wPlace = read.weights[iPlace];
    var negation = read.context[g.negation];
    var said = { neg: quoted(g.tokens[iNeg]), w_neg: wNeg, place: quoted(g.tokens[iPlace]), w_place: wPlace };
    if (wNeg >= wPlace - 1e-12) return right(R("negation_ok", Object.assign({ negation: negation }, said)), answer);
    if (q[g.negation] <= 0) {
      var detail = R("negation_positive_detail", { neg: said.neg });
      return wrong([new Problem(R("negation_positive", said), detail)], answer);
    }
    return wrong([new Problem(R("negation_raise", said), R("negation_raise_detail"))], answer);
  }

  function positionsWithin(v, T, name) {
    name = name === undefined ? text("reading", "your_answer") : name;
    var r = positions(v, name);
    if (r[1]) return r;
    var got = r[0];
    if (got.indexOf(0n) >= 0) return [null, R("from_zero", { name: name, T: new Int(T) })];
    var outside = got.filter(function (j) {
      return !(j >= 1n && j <= BigInt(T));
    });
    if (outside.length) return [null, R("outside", { name: name, positions: quote(outside.map(toInt)), T: new Int(T) })];
    return [got.map(Number), null];
  }
  function moved(changed, T, direction) {
    var out = [];
    var from = direction === "forward" ? changed : 1,
      to = direction === "forward" ? T : changed;
    for (var j = from; j <= to; j++) out.push(j);
    return out;
  }
  function same(a, b) {
    return a.length === b.length && a.every(function (x, k) {
      return x === b[k];
    });
  }
  function ints(list) {
    return list.map(toInt);
  }
  function movedProblem(got, changed, T, direction, two) {
    var want = moved(changed, T, direction);
    var other = moved(changed, T, direction === "forward" ? "backward" : "forward");
    if (same(got, want)) return null;
    var reads = direction === "forward" ? "x_1, ..., x_j" : "x_j, ..., x_T";
    var named = text("reading", direction);
    if (two && same(got, other) && !same(want, other)) {
      var hint = R("moved_other_direction", { direction: named, reads: reads, changed: new Int(changed) });
      return new Problem(hint, R("moved_other_direction_detail"));
    }
    if (same(got, want.filter(function (j) {
      return j !== changed;
    }))) {
      return new Problem(R("moved_changed_too", { direction: named }), R("moved_changed_too_detail", { changed: new Int(changed) }));
    }
    var extra = got.filter(function (j) {
        return want.indexOf(j) < 0;
      }),
      missing = want.filter(function (j) {
        return got.indexOf(j) < 0;
      });
    var ideas = (extra.length ? [text("reading", "moved_idea_extra")] : []).concat(
      missing.length ? [text("reading", "moved_idea_missing")] : []
    );
    var details = (extra.length ? [R("moved_extra", { positions: quote(ints(extra)), changed: new Int(changed) })] : []).concat(
      missing.length ? [R("moved_missing", { positions: quote(ints(missing)), changed: new Int(changed) })] : []
    );
    var h = R("moved_wrong", { direction: named, parts: ideas.join(text("reading", "and")), reads: reads });
    return new Problem(h, details.length === 2 ? both(details[0], details[1]) : details[0]);
  }

  function check_moved_states(answers, g) {
    var changed = g.changed,
      T = g.T;
    var theAnswer = pyRepr(ints(moved(changed, T, "forward")));
    var r = positionsWithin(answers[0], T);
    if (r[1]) return malformed(r[1], theAnswer);
    var problem = movedProblem(r[0], changed, T, "forward", false);
    if (problem === null) {
      var m = changed === T ? "h_" + T : "h_" + changed + ", ..., h_" + T;
      return right(R("moved_ok", { moved: m }), theAnswer);
    }
    return wrong([problem], theAnswer);
  }

  function check_moved_halves(answers, g) {
    var changed = g.changed,
      T = g.T;
    var theAnswer = R("halves_answer", { forward: ints(moved(changed, T, "forward")), backward: ints(moved(changed, T, "backward")) });
    var problems = [],
      form = [];
    [
      [answers[0], "forward"],
      [answers[1], "backward"],
    ].forEach(function (pair) {
      var r = positionsWithin(pair[0], T, text("reading", "your_" + pair[1]));
      if (r[1] !== null) {
        form.push(new Problem(r[1]));
        return;
      }
      var found = movedProblem(r[0], changed, T, pair[1], true);
      if (found !== null) problems.push(found);
    });
    if (form.length) return new Finding(null, form.concat(problems), theAnswer, false);
    if (problems.length) return wrong(problems, theAnswer);
    return right(R("halves_ok", { changed: new Int(changed), T: new Int(T) }), theAnswer);
  }

  function check_stored_floats(answers, g) {
    var T = BigInt(g.T),
      dDir = BigInt(g.d_dir);
    var want = T * 2n * dDir;
    var theAnswer = T + " x 2 x " + dDir + " = " + want;
    var r = wholeNumber(answers[0], text("reading", "your_answer"));
    if (r[1]) return malformed(r[1], theAnswer);
    var got = r[0];
    if (got === want) return right(R("floats_ok", { got: new Int(got), T: new Int(T), d_dir: new Int(dDir) }), theAnswer);
    // later keys win where two counts coincide: one direction before one annotation before one state
    var slips = new Map();
    slips.set(dDir, "floats_one_state");
    slips.set(2n * dDir, "floats_one_annotation");
    slips.set(T * dDir, "floats_one_direction");
    if (slips.has(got)) {
      var key = slips.get(got);
      return wrong([new Problem(R(key, { got: new Int(got) }), R(key + "_detail"))], theAnswer);
    }
    var detail = R("floats_other_detail", { d_dir: new Int(dDir) });
    return wrong([new Problem(R("floats_other", { got: new Int(got), T: new Int(T) }), detail)], theAnswer);
  }

  function check_context(answers, g) {
    var want = g.want;
    var answer = "c = " + fmt(want, false);
    var given = answers[0];
    var r = numbers(given, text("reading", "your_context"), [want.length]);
    if (r[1]) {
      var problem = r[1];
      if (problem.key === "answer_count" || problem.key === "answer_shape") {
        var shape = asarray(given).shape;
        var key = shape.join() === g.scores_shape.join() ? "context_weights" : "context_shape";
        problem = R(key, { got: shapeTuple(shape), want: shapeTuple([want.length]) });
      }
      return malformed(problem, answer);
    }
    var got = r[0];
    var close = function (a, b) {
      return accepts(g.precision, a, b);
    };
    var shown = fmt(got);
    if (close(got, want)) return right(R("context_ok", { got: shown }), answer);
    if (close(got, g.raw)) return wrong([new Problem(R("context_raw", { got: shown }), R("context_raw_detail"))], answer);
    if (close(got, g.mean)) return wrong([new Problem(R("context_mean", { got: shown }))], answer);
    if (close(got, g.hard)) return wrong([new Problem(R("context_hard", { got: shown }))], answer);
    var gap = Math.sqrt(
      got.reduce(function (s, x, k) {
        return s + (x - want[k]) * (x - want[k]);
      }, 0)
    );
    return wrong([new Problem(R("context_wrong", { got: shown }), R("context_gap", { gap: gap }))], answer);
  }

  // ---------------------------------------------------------------------------------------------------
  // state: attention_core/checks/state.py

  function S(key, values) {
    return new Say("state", key, values);
  }
  function check_example_read(answers, g) {
    var wantE = g.scores,
      wantW = g.weights,
      precision = g.precision;
    var answer = S("read_answer", {
      scores: fmt(wantE.map(function (x) {
        return npRound(x, 3);
      })),
      weights: fmt(wantW.map(function (x) {
        return npRound(x, 3);
      })),
    });
    var r = numbers(answers[0], text("state", "the_scores"), [3]);
    var e = r[0],
      w = null,
      problem = r[1];
    if (problem === null) {
      var rw = numbers(answers[1], text("state", "the_weights"), [3]);
      w = rw[0];
      problem = rw[1];
    }
    if (problem) return malformed(problem, answer);
    var close = function (a, b) {
      return accepts(precision, a, b);
    };
    for (var j = 0; j < g.tokens.length; j++) {
      if (!close(e[j], wantE[j])) {
        var sign = "tanh(s + h_j1) - tanh(s + h_j2)";
        var hint = close(-e[j], wantE[j]) ? text("state", "sign_hint", { sign: sign }) : "";
        var said = S("score_wrong", { j: new Int(j + 1), token: g.tokens[j], score: e[j], sign: sign, hint: hint });
        return wrong([new Problem(said)], answer);
      }
    }
    var total = npSum(w);
    if (Math.abs(total - 1) > 3 * tolerance(precision, 1.0)) return wrong([new Problem(S("weights_sum", { total: total }))], answer);
    var sumE = npSum(wantE);
    var raw = wantE.map(function (x) {
      return x / sumE;
    });
    if (close(w, raw) && !close(w, wantW)) return wrong([new Problem(S("divided_by_sum"), S("divided_by_sum_detail"))], answer);
    for (var k = 0; k < g.tokens.length; k++) {
      if (!close(w[k], wantW[k]))
        return wrong([new Problem(S("weight_wrong", { j: new Int(k + 1), token: g.tokens[k] }), S("weight_wrong_detail"))], answer);
    }
    return right(S("read_ok", { s: g.s }), answer);
  }

  function check_peak_state(answers, g) {
    var n = g.position,
      sBest = g.s_best,
      precision = g.precision;
    var theAnswer = S("peak_answer", { rounded: pyRound(sBest, 2), s_best: sBest });
    var r = number(answers[0], text("state", "your_s"));
    if (r[1]) return malformed(r[1], theAnswer);
    var s = r[0];
    if (accepts(precision, s, sBest)) return right(S("peak_ok", { position: new Int(n), s_best: sBest }), theAnswer);
    if (accepts(precision, -s, sBest) && Math.abs(sBest) > tolerance(precision, sBest))
      return wrong([new Problem(S("peak_mirror"))], theAnswer);
    var side = s > sBest ? text("state", "left") : text("state", "right");
    if (Math.abs(s - sBest) <= 10 * tolerance(precision, sBest))
      return wrong([new Problem(S("peak_close", { s: s }), S("peak_close_detail", { side: side }))], theAnswer);
    return wrong([new Problem(S("peak_wrong", { s: s, side: side }))], theAnswer);
  }

  // ---------------------------------------------------------------------------------------------------
  // training: attention_core/checks/training.py

  function Tr(key, values) {
    return new Say("training", key, values);
  }
  function check_steepest_push(answers, g) {
    var wantJ = g.position,
      wantAmount = g.amount,
      precision = g.precision;
    var answer = Tr("push_answer", { position: new Int(wantJ), amount: wantAmount });
    var position = answers[0];
    var rj = wholeNumber(position, "position");
    if (rj[1] || [1n, 2n, 3n].indexOf(rj[0]) < 0) return malformed(Tr("push_position_kind", { position: quote(position) }), answer);
    var j = Number(rj[0]);
    var ra = number(answers[1], text("training", "the_amount"));
    if (ra[1]) return malformed(ra[1], answer);
    var amount = ra[0];
    if (j !== wantJ) return wrong([new Problem(Tr("push_other_position", { position: new Int(j) }))], answer);
    if (accepts(precision, amount, wantAmount)) return right(Tr("push_ok", { position: new Int(wantJ), amount: wantAmount }), answer);
    if (accepts(precision, -amount, wantAmount)) return wrong([new Problem(Tr("push_sign"), Tr("push_sign_detail"))], answer);
    if (Math.abs(amount - wantAmount) <= 10 * tolerance(precision, wantAmount))
      return wrong([new Problem(Tr("push_close", { amount: amount }), Tr("push_close_detail"))], answer);
    return wrong([new Problem(Tr("push_amount", { amount: amount }))], answer);
  }

  // ---------------------------------------------------------------------------------------------------
  // luong: attention_core/checks/luong.py

  function L(key, values) {
    return new Say("luong", key, values);
  }
  function check_local_m_window(answers, g) {
    var t = g.t,
      T = g.T,
      D = g.D,
      expected = g.expected;
    var theAnswer = pyRepr(ints(expected));
    var r = positions(answers[0], text("luong", "your_window"));
    if (r[1]) return malformed(r[1], theAnswer);
    var got = r[0]; // BigInts: a position may be far outside any list
    var exp = expected.map(BigInt);
    var sameList = function (a, b) {
      return a.length === b.length && a.every(function (x, k) {
        return x === b[k];
      });
    };
    if (sameList(got, exp)) return right(L("window_ok", { t: new Int(t), D: new Int(D), positions: ints(expected) }), theAnswer);
    if (sameList(got, exp.map(function (j) {
      return j - 1n;
    })))
      return wrong([new Problem(L("window_from_zero"), L("window_from_zero_detail"))], theAnswer);
    if (got.length === expected.length + 2 || got.length === D + 1)
      return wrong([new Problem(L("window_ends"), L("window_ends_detail", { T: new Int(T) }))], theAnswer);
    var outside = got.filter(function (j) {
      return !(j >= 1n && j <= BigInt(T));
    });
    if (outside.length) {
      var detail = L("window_outside_detail", { positions: quote(outside.map(toInt)), T: new Int(T) });
      return wrong([new Problem(L("window_outside", { T: new Int(T) }), detail)], theAnswer);
    }
    var missing = exp.filter(function (j) {
        return got.indexOf(j) < 0;
      }),
      extra = got.filter(function (j) {
        return exp.indexOf(j) < 0;
      });
    var parts = (missing.length ? [text("luong", "window_missing", { positions: quote(missing.map(toInt)) })] : []).concat(
      extra.length ? [text("luong", "window_extra", { positions: quote(extra.map(toInt)) })] : []
    );
    var det = L("window_wrong_detail", { parts: parts.join(text("luong", "window_separator")) });
    return wrong([new Problem(L("window_wrong", { t: new Int(t), D: new Int(D), T: new Int(T) }), det)], theAnswer);
  }

  // ---------------------------------------------------------------------------------------------------
  // encoder: attention_core/checks/encoder.py

  function E(key, values) {
    return new Say("encoder", key, values);
  }
  function check_scaled_weights(answers, g) {
    var d = g.d,
      weights = g.weights,
      close = g.close;
    var rounded = function (xs) {
      return xs.map(function (x) {
        return npRound(x, 4);
      });
    };
    var theAnswer = pyRepr(rounded(weights));
    var r = numbers(answers[0], text("encoder", "your_weights"), [weights.length]);
    if (r[1]) return malformed(r[1], theAnswer);
    var got = r[0];
    var near = function (want) {
      return allclose(got, want, close.rtol, close.atol);
    };
    if (near(weights)) {
      var ok = E("weights_ok", { d: new Int(d), scores: rounded(g.scores), weights: rounded(weights) });
      return right(ok, theAnswer);
    }
    if (near(g.unscaled)) return wrong([new Problem(E("unscaled"), E("unscaled_detail"))], theAnswer);
    if (near(g.by_d)) return wrong([new Problem(E("by_d"), E("by_d_detail", { d: new Int(d) }))], theAnswer);
    if ([g.raw, g.scores, g.by_d_scores].some(near))
      return wrong([new Problem(E("no_softmax"), E("no_softmax_detail"))], theAnswer);
    var total = npSum(got);
    if (!allclose([total], [1.0], close.rtol, close.atol))
      return wrong([new Problem(E("not_one", { total: formatValue(total, ".4f") }), E("not_one_detail"))], theAnswer);
    return wrong([new Problem(E("weights_wrong"), E("weights_wrong_detail"))], theAnswer);
  }

  function check_permuted_rows(answers, g) {
    var order = g.order,
      T = g.T;
    var theAnswer = pyRepr(ints(order));
    var r = numbers(answers[0], text("encoder", "your_positions"), [T]);
    if (r[1]) return malformed(r[1], theAnswer);
    var got = r[0];
    if (!got.every(Number.isInteger))
      return malformed(E("not_whole", { name: text("encoder", "your_positions"), given: got }), theAnswer);
    if (same(got, order)) return right(E("rows_ok", { T: new Int(T), positions: ints(order) }), theAnswer);
    if (same(got, g.inverse)) return wrong([new Problem(E("rows_inverse"), E("rows_inverse_detail"))], theAnswer);
    var firsts = []; // 1..T: every output in place
    for (var j = 1; j <= T; j++) firsts.push(j);
    if (same(got, firsts)) return wrong([new Problem(E("rows_identity"), E("rows_identity_detail"))], theAnswer);
    if (same(got, order.map(function (k) {
      return k - 1;
    })))
      return wrong([new Problem(E("rows_from_zero"), E("rows_from_zero_detail", { T: new Int(T) }))], theAnswer);
    var n = got.filter(function (k, i) {
      return k !== order[i];
    }).length;
    return wrong([new Problem(E("rows_wrong", { n: new Int(n), T: new Int(T) }), E("rows_wrong_detail"))], theAnswer);
  }

  var CHECKS = {
    check_query_focus: check_query_focus,
    check_negation_focus: check_negation_focus,
    check_moved_states: check_moved_states,
    check_moved_halves: check_moved_halves,
    check_stored_floats: check_stored_floats,
    check_context: check_context,
    check_example_read: check_example_read,
    check_peak_state: check_peak_state,
    check_steepest_push: check_steepest_push,
    check_local_m_window: check_local_m_window,
    check_scaled_weights: check_scaled_weights,
    check_permuted_rows: check_permuted_rows,
  };

  // ---------------------------------------------------------------------------------------------------
  // One answer: the texts of a box's fields read, then decided. A text the page cannot read is a form problem
  // of the page's own (site's "empty", "unreadable"), never a try; `slot` names the field it came from.

  function decide(box, texts) {
    var values = [];
    for (var k = 0; k < texts.length; k++) {
      var got;
      try {
        got = read(texts[k]);
      } catch (err) {
        if (!(err instanceof Unreadable)) throw err;
        return { finding: malformed(new Say("site", "unreadable", { given: quoteText(String(texts[k])) })), slot: k };
      }
      if (got.empty) return { finding: malformed(new Say("site", "empty")), slot: k };
      values.push(got.value);
    }
    return { finding: CHECKS[box.check](values, box.given), slot: null };
  }

  // The finding as data (what tests/site compare with the Python check's Finding): keys, values said as text.
  function said(x) {
    if (x === null) return null;
    if (!(x instanceof Say)) return { text: String(x) };
    var values = {};
    Object.keys(x.values).forEach(function (k) {
      var v = x.values[k];
      values[k] = v instanceof Say ? said(v) : v instanceof Int ? Number(v.v) : isFloat(v) ? v : pyStr(v);
    });
    return { book: x.book, key: x.key, values: values };
  }
  function asData(finding) {
    return {
      ok: finding.ok(),
      judged: finding.judged,
      passed: said(finding.passed),
      problems: finding.problems.map(function (p) {
        return { hint: said(p.hint), detail: said(p.detail) };
      }),
      answer: said(finding.answer),
    };
  }

  // ---------------------------------------------------------------------------------------------------
  // The boxes: a form per exercise, its fields labelled, its verdict in an aria-live region that describes the
  // fields; the count of wrong answers in a row kept per box, as the notebook's kernel keeps it per check.

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (attrs[k] !== null && attrs[k] !== undefined) node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) {
      node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return node;
  }

  function build(root, box) {
    var id = root.id || "ae-exercise";
    var verdictId = id + "-verdict";
    var tries = 0;
    var fields = box.slots.map(function (slot, k) {
      var input = el("input", {
        type: "text",
        id: id + "-" + slot.name,
        name: slot.name,
        value: box.start[k],
        spellcheck: "false",
        autocomplete: "off",
        autocapitalize: "off",
        "aria-describedby": id + "-intro " + verdictId, // how to type it, then the verdict
        class: "ae-ex-input",
      });
      var label = el("label", { for: input.id }, [slot.label]);
      return { input: input, row: el("div", { class: "ae-ex-field" }, [label, input]) };
    });
    var check = el("button", { type: "submit", class: "ae-button ae-ex-check" }, [text("site", "check")]);
    var show = el("button", { type: "button", class: "ae-button ae-ex-show" }, [text("site", "show")]);
    var verdict = el("div", { id: verdictId, class: "ae-ex-verdict", role: "status", "aria-live": "polite" });
    var title = el("p", { class: "ae-ex-title" }, [el("strong", {}, [text("site", "title")])]);
    var form = el("form", { class: "ae-ex-form", novalidate: "novalidate" }, [
      title,
      el("p", { class: "ae-ex-intro", id: id + "-intro" }, [text("site", "intro")]),
    ]);
    fields.forEach(function (f) {
      form.appendChild(f.row);
    });
    form.appendChild(el("div", { class: "ae-buttons" }, [check, show]));
    form.appendChild(verdict);

    function answer(showAnswer) {
      var out = decide(
        box,
        fields.map(function (f) {
          return f.input.value;
        })
      );
      var finding = out.finding;
      // base.Attempts.record: a right answer starts the count again, an answer of the wrong kind is not counted
      var n = 0;
      if (finding.ok()) tries = 0;
      else if (finding.judged) n = tries += 1;
      var shown = feedback(finding, n, showAnswer);
      fields.forEach(function (f, k) {
        var bad = !finding.judged && (out.slot === null || out.slot === k);
        if (bad) f.input.setAttribute("aria-invalid", "true");
        else f.input.removeAttribute("aria-invalid");
      });
      render(shown);
      if (!finding.judged) {
        var first = fields[out.slot === null ? 0 : out.slot];
        if (first && document.activeElement !== first.input && out.slot !== null) first.input.focus();
      }
    }
    function render(shown) {
      verdict.textContent = "";
      verdict.className = "ae-ex-verdict " + (shown.ok ? "ae-ex-ok" : "ae-ex-wrong");
      var lead = el("p", {}, [el("strong", {}, [text("base", shown.ok ? "correct" : "not_yet")]), " " + shown.lead]);
      verdict.appendChild(lead);
      if (shown.items.length)
        verdict.appendChild(
          el(
            "ul",
            {},
            shown.items.map(function (item) {
              return el("li", {}, [item]);
            })
          )
        );
      if (shown.note) verdict.appendChild(el("p", { class: "ae-ex-note" }, [shown.note]));
    }
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      answer(false);
    });
    show.addEventListener("click", function () {
      answer(true);
    });
    root.textContent = "";
    root.appendChild(form);
    root.classList.add("ae-ex-ready");
  }

  function start() {
    var roots = document.querySelectorAll(".ae-exercise[data-box]");
    if (!roots.length) return;
    var source = document.getElementById("ae-checks");
    var params = source ? JSON.parse(source.textContent) : null;
    if (!params || params.schema !== 1) return; // the needs-JavaScript line stays
    use(params);
    Array.prototype.forEach.call(roots, function (root) {
      var box = JSON.parse(root.getAttribute("data-box"));
      if (box.schema !== params.schema || !CHECKS[box.check]) return;
      build(root, box);
    });
  }
  // The page's messages and REVEAL_AFTER (attention_core.checks.site.page_parameters).
  function use(params) {
    BOOKS = params.messages;
    REVEAL_AFTER = params.reveal_after;
  }

  // What Node's tests call (tests/site/checks/checks_node.js): the page's functions, and three small views of them.
  function readOrNull(t) {
    try {
      var got = read(t);
      return got.empty ? null : got.value;
    } catch (err) {
      if (err instanceof Unreadable) return undefined;
      throw err;
    }
  }
  var API = {
    use: use,
    read: read,
    checkNames: function () {
      return Object.keys(CHECKS);
    },
    reprOf: function (t) {
      var v = readOrNull(t);
      return v === undefined ? null : pyRepr(v);
    },
    quoteOf: function (t) {
      var v = readOrNull(t);
      return v === undefined ? null : quote(v);
    },
    decide: decide,
    feedback: feedback,
    asData: asData,
    quote: quote,
    fmt: fmt,
    pyFormat: pyFormat,
    pyRepr: pyRepr,
    floatRepr: floatRepr,
    formatValue: formatValue,
    npRound: npRound,
    pyRound: pyRound,
    npSum: npSum,
    Int: Int,
    Tuple: Tuple,
    CHECKS: CHECKS,
  };
  if (typeof module !== "undefined" && module.exports) module.exports = API;
  else scope.AEChecks = API;
  if (typeof document !== "undefined") {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
    else start();
  }
})(typeof self !== "undefined" ? self : this);
