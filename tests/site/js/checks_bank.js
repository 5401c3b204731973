// The website's checker (AEChecks, ae-checks.js on this page) on a list of answers, each decided with the box and
// the messages of the page that holds its exercise, as that page has them: the pages are fetched (same site) and
// read, not loaded. Its argument: {pages: [address, ...], tasks: [{page, check, texts}, ...]}; it returns each
// page's boxes and, per task, the finding as data and the verdicts at the 1st, 2nd and 3rd wrong answer in a row
// and on request (tests/site/test_site_checks.py). The page's own messages are put back afterwards.
async ({ pages, tasks }) => {
  const C = self.AEChecks;
  const found = {};
  for (const address of pages) {
    const doc = new DOMParser().parseFromString(await (await fetch(address)).text(), "text/html");
    const params = JSON.parse(doc.getElementById("ae-checks").textContent);
    const boxes = [...doc.querySelectorAll(".ae-exercise[data-box]")].map((e) => JSON.parse(e.dataset.box));
    found[address] = { params, boxes };
  }
  const results = tasks.map(({ page, check, texts }) => {
    C.use(found[page].params);
    const box = found[page].boxes.find((b) => b.check === check);
    if (!box) return { error: `no box of ${check} on ${page}` };
    const finding = C.decide(box, texts).finding;
    const counted = finding.judged && !finding.ok();
    return {
      data: C.asData(finding),
      verdicts: [1, 2, 3].map((n) => C.feedback(finding, counted ? n : 0, false)),
      shown: C.feedback(finding, counted ? 1 : 0, true),
    };
  });
  C.use(JSON.parse(document.getElementById("ae-checks").textContent));
  const boxes = {};
  for (const address of pages) boxes[address] = found[address].boxes;
  return { boxes, results };
}
