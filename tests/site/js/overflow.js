// Elements whose right edge passes the viewport, unless an ancestor that scrolls or clips (and itself fits)
// contains them (at most 8), and the page's scroll width and client width. Skipped: elements not shown (an empty
// box, hidden) and fixed-position layers such as the theme's closed side drawers, which never widen the page.
() => {
  const vw = document.documentElement.clientWidth;
  const found = [];
  for (const el of document.body.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || r.right <= vw + 1) continue;
    if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
    let fixed = false;
    for (let f = el; f && f !== document.body; f = f.parentElement) {
      if (getComputedStyle(f).position === "fixed") { fixed = true; break; }
    }
    if (fixed) continue;
    let a = el.parentElement, contained = false;
    while (a && a !== document.body) {
      const st = getComputedStyle(a);
      if (/(auto|scroll|hidden|clip)/.test(st.overflowX) && a.getBoundingClientRect().right <= vw + 1) {
        contained = true;
        break;
      }
      a = a.parentElement;
    }
    if (contained) continue;
    const name = el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
      (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : "");
    found.push(`${name} (right edge ${Math.round(r.right)} px)`);
    if (found.length >= 8) break;
  }
  const s = document.scrollingElement;
  return { page: [s.scrollWidth, s.clientWidth], elements: found };
}
