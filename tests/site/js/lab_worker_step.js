// The step the laboratory's training Worker is at (the lab found by the selector given), asked with a message that
// the Worker answers in turn ("watch": a progress message with no losses). Every message it sent before is in by
// then, and a Worker that went on training after a pause would be past the step the pause reported: an absence
// checked by a round trip instead of a window of fixed length.
(selector) =>
  new Promise((done) => {
    const lab = document.querySelector(selector).aeLab;
    const worker = lab.worker;
    const answer = (event) => {
      if (event.data.type === "progress" && event.data.losses.length === 0) {
        worker.removeEventListener("message", answer);
        done(event.data.step);
      }
    };
    worker.addEventListener("message", answer);
    lab.sendWatch();
  })
