#!/usr/bin/env bash
# Fetch the site's third-party scripts from the npm registry at pinned versions into _vendor/ (not committed).
# The book serves them itself, so pages work offline and make no request to a CDN.
set -euo pipefail
cd "$(dirname "$0")/.."

MATHJAX=mathjax@3.2.2                          # typesets the lessons' LaTeX (MathJax 3, CommonHTML output)
REQUIREJS=requirejs@2.3.7                      # module loader that the widget manager expects
WIDGETS=@jupyter-widgets/html-manager@1.0.15   # renders stored ipywidgets state on static pages (ipywidgets 8)

stamp="_vendor/.versions"
want="$MATHJAX $REQUIREJS $WIDGETS"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
command -v npm >/dev/null || { echo "fetch_assets: npm is needed to fetch MathJax and the widget manager" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "$MATHJAX" "$REQUIREJS" "$WIDGETS" >/dev/null)
rm -rf _vendor && mkdir -p _vendor/mathjax "$tmp/x"
for tgz in "$tmp"/*.tgz; do
  mkdir -p "$tmp/x/$(basename "$tgz" .tgz)" && tar xzf "$tgz" -C "$tmp/x/$(basename "$tgz" .tgz)"
done
mj="$tmp/x/mathjax-3.2.2/package/es5"
cp "$mj/tex-chtml.js" _vendor/mathjax/
cp -r "$mj/input" "$mj/output" "$mj/ui" "$mj/a11y" "$mj/adaptors" _vendor/mathjax/
cp "$tmp/x/requirejs-2.3.7/package/require.js" _vendor/require.min.js
cp "$tmp/x/jupyter-widgets-html-manager-1.0.15/package/dist/"* _vendor/
rm -f _vendor/*.map
echo "$want" > "$stamp"
echo "fetch_assets: $want -> _vendor/ ($(du -sh _vendor | cut -f1))"
