// Sphinx's search page writes its summary line after the last result: its text once it is there.
() => (document.querySelector('#search-results p.search-summary') || {}).textContent
