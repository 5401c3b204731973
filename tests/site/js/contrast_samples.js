// One element of each kind of text not yet judged, marked for axe's colour contrast (the attribute
// data-ae-contrast-sample; marks of an earlier call are removed), and the kinds it marked (short hashes).
// `seen`: the kinds already judged; `within`: a selector of the element to look inside. A kind is everything axe's
// verdict reads from the element and its ancestors: the text's colour, size, weight and shadow, and along the
// ancestors each background (colour, image, the ::before/::after boxes), opacity, filter, blend mode, transform
// and positioning.
([seen, within]) => {
  const hash = (text) => {  // cyrb53: a 53-bit string hash, as hex
    let h1 = 0xdeadbeef, h2 = 0x41c6ce57;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16);
  };
  const below = new Map();  // element -> what its ancestors and itself put behind text
  const behind = (el) => {
    if (!el) return "";
    if (below.has(el)) return below.get(el);
    const s = getComputedStyle(el);
    let own = [s.backgroundColor, s.backgroundImage, s.opacity, s.filter, s.mixBlendMode, s.transform,
               s.position, s.zIndex].join(",");
    for (const pseudo of ["::before", "::after"]) {
      const p = getComputedStyle(el, pseudo);
      if (p.content !== "none" && p.content !== "normal") own += pseudo + p.backgroundColor + p.backgroundImage;
    }
    const value = behind(el.parentElement) + "|" + own;
    below.set(el, value);
    return value;
  };
  const mark = "data-ae-contrast-sample";
  for (const old of document.querySelectorAll(`[${mark}]`)) old.removeAttribute(mark);
  const seenNow = new Set(seen), fresh = [];
  for (const el of document.querySelector(within).querySelectorAll("*")) {
    const text = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    if (!text || !el.getClientRects().length) continue;
    const s = getComputedStyle(el);
    const key = hash([el.namespaceURI, s.color, s.fill, s.fontSize, s.fontWeight, s.textShadow,
                      s.webkitTextStrokeWidth, s.visibility, el.matches(":disabled, [aria-disabled=true]"),
                      behind(el)].join(";"));
    if (seenNow.has(key)) continue;
    seenNow.add(key);
    fresh.push(key);
    el.setAttribute(mark, "");
  }
  return fresh;
}
