// The language switch `a`, focused as the keyboard would: whether it then holds the focus, its tab index, where it
// leads, the language it is marked with, and whether it is visible (a box of some size, not visibility: hidden).
(a) => {
  a.focus();
  const box = a.getBoundingClientRect();
  const visible = box.width > 0 && box.height > 0 && getComputedStyle(a).visibility !== "hidden";
  return [document.activeElement === a && a.classList.contains("ae-lang-switch"), a.tabIndex, a.href, a.getAttribute("lang"), visible];
}
