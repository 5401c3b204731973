// Axe's violations inside the element `within` (a selector), run with `options`.
([within, options]) => axe.run(within, options).then((r) => r.violations)
