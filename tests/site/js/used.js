// Every file the page used: the page itself and each resource, those read from the browser's cache included.
() => [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")].map((e) => e.name)
