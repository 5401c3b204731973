// The address of every image of the page, lazy ones below the fold included.
() => [...document.images].map((i) => i.src)
