// The language switch `a`, once focused: whether it holds the keyboard's focus, its tab index and where it leads.
(a) => [document.activeElement.classList.contains('ae-lang-switch'), a.tabIndex, a.href]
