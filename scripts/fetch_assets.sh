#!/usr/bin/env bash
# Fetch the site's third-party files from the npm registry at pinned versions into _vendor/ (not committed).
# They are used at build time and never served: pages work offline and make no request to a CDN.
#   _vendor/node/mathjax/   the MathJax package, run by Node at build time (src/attention_workshop/ae_math.js) to typeset
#                           every equation into the page as SVG, and again as CommonHTML in its fonts for the PDFs;
#                           never served (pages load no MathJax file or font)
#   _vendor/node/esbuild/   esbuild's executable (for this machine), run at build time (src/attention_workshop/ae_assets.py)
#                           to minify the site's own scripts; never served
#   _vendor/node/wabt/      wabt's wat2wasm (JavaScript and WebAssembly, no dependencies), run by Node only to
#                           regenerate the laboratory's compiled product, book/_assets/lab/wasm.js, from lab/gemm.wat
#                           (python -m attention_workshop.gemm_wasm) and by the test that recompiles it; the build
#                           and the lab's Node tests do not need it; never served
#
#   bash scripts/fetch_assets.sh lighthouse   (run by `make bench`, src/attention_workshop/bench_lighthouse.py)
#   _vendor/lighthouse/     Lighthouse and its dependencies (npm install, pinned), run by Node against the
#                           served site with the tests' headless Chromium; never served, not needed to build
set -euo pipefail
cd "$(dirname "$0")/.."

LIGHTHOUSE=lighthouse@12.8.2   # the benchmark's page audits (performance, accessibility, best practices, SEO)

if [ "${1:-}" = lighthouse ]; then
  stamp="_vendor/lighthouse/.version"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$LIGHTHOUSE" ]; then
    exit 0
  fi
  command -v npm >/dev/null || { echo "fetch_assets: npm is needed to fetch Lighthouse" >&2; exit 1; }
  rm -rf _vendor/lighthouse && mkdir -p _vendor/lighthouse
  npm install --silent --no-audit --no-fund --no-save --prefix _vendor/lighthouse "$LIGHTHOUSE" >/dev/null
  echo "$LIGHTHOUSE" > "$stamp"
  echo "fetch_assets: $LIGHTHOUSE -> _vendor/lighthouse/ ($(du -sh _vendor/lighthouse | cut -f1), not served)"
  exit 0
fi

MATHJAX=mathjax@3.2.2   # typesets the lessons' LaTeX at build time (TeX input, SVG output; MathML input and
                        # CommonHTML output for the PDFs)
ESBUILD=esbuild@0.25.0  # minifies our scripts at build time (one file at a time, no bundling)
WABT=wabt@1.0.37        # compiles the laboratory's WebAssembly text (lab/gemm.wat) into lab/wasm.js (gemm_wasm)

stamp="_vendor/.versions"
want="$MATHJAX $ESBUILD $WABT (build-time, SVG)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
command -v npm >/dev/null || { echo "fetch_assets: npm is needed to fetch MathJax" >&2; exit 1; }
command -v node >/dev/null || { echo "fetch_assets: node is needed to typeset the math at build time" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "$MATHJAX" "$WABT" >/dev/null)
rm -rf _vendor/node _vendor/static && mkdir -p _vendor/node/mathjax _vendor/node/esbuild _vendor/node/wabt "$tmp/x" "$tmp/w"
tar xzf "$tmp"/mathjax-*.tgz -C "$tmp/x"
cp -r "$tmp/x/package/es5" "$tmp/x/package/package.json" "$tmp/x/package/LICENSE" _vendor/node/mathjax/
tar xzf "$tmp"/wabt-*.tgz -C "$tmp/w"
cp "$tmp/w/package/index.js" "$tmp/w/package/package.json" "$tmp/w/package/LICENSE" _vendor/node/wabt/
# esbuild: npm installs the executable of this machine's platform (@esbuild/<os>-<cpu>); only it and the licence
# are kept (no README.md under _vendor/ for the book build to find)
npm install --silent --no-audit --no-fund --no-save --prefix "$tmp/esbuild" "$ESBUILD" >/dev/null
cp "$tmp"/esbuild/node_modules/@esbuild/*/bin/esbuild _vendor/node/esbuild/esbuild
cp "$tmp/esbuild/node_modules/esbuild/LICENSE.md" _vendor/node/esbuild/LICENSE.txt
_vendor/node/esbuild/esbuild --version >/dev/null
echo "$want" > "$stamp"
echo "fetch_assets: $want -> _vendor/node/ (used at build time, not served)"
