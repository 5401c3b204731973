// Each image's address and alt text (empty when it has none), for the images `els`.
els => els.map(e => [e.src, e.alt || ''])
