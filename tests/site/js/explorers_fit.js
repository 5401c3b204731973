// Each live explorer that did not start, reaches past the screen, or holds content wider than itself: one line each.
() => {
  const vw = document.scrollingElement.clientWidth;
  const bad = [];
  for (const el of document.querySelectorAll(".ae-explorer")) {
    const r = el.getBoundingClientRect(), name = `explorer #${el.id}`;
    if (!el.classList.contains("ae-x-ready")) {
      bad.push(`${name} did not start`);
    } else if (r.left < 0 || r.right > vw + 1) {
      bad.push(`${name} reaches past the screen (right edge ${Math.round(r.right)} px)`);
    } else if (el.scrollWidth > el.clientWidth + 1) {
      bad.push(`${name}: its content is wider than the explorer (${el.scrollWidth} > ${el.clientWidth} px)`);
    }
  }
  return bad;
}
