// What dragging does: set the native range input's value to `v` and fire 'input'.
(el, v) => { el.value = String(v); el.dispatchEvent(new Event('input', {bubbles: true})) }
