// The colour scheme the theme chose (the data-theme attribute of the root element).
() => document.documentElement.dataset.theme
