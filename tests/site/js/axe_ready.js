// Axe is already in the page.
() => typeof window.axe !== 'undefined'
