// Forget what the last test left in the page's storage.
() => { localStorage.clear(); sessionStorage.clear(); }
