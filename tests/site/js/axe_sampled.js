// Axe's colour-contrast rule set to look at the elements `samples` (a selector) selects, and at no others.
(samples) => axe.configure({rules: [{id: 'color-contrast', selector: samples}]})
