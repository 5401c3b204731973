// Every live explorer of the page has drawn.
() => [...document.querySelectorAll('.ae-explorer')].every((e) => e.matches('.ae-x-ready'))
