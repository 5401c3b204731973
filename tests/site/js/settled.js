// The page has settled: a frame is drawn (the first layout requests the fonts it uses), those fonts have loaded,
// the CSS transitions and animations that end by themselves are taken to their end, and two more frames are drawn.
// Not taken to their end: animations driven by scrolling and endless ones. A tab that draws no frames (a background
// one) settles after `limit` milliseconds.
async (limit) => {
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
  const settle = async () => {
    await frame();
    await document.fonts.ready;
    for (const a of document.getAnimations()) {
      const timing = a.effect && a.effect.getTiming();
      if (a.playState === "running" && a.timeline === document.timeline && timing && timing.iterations !== Infinity) {
        a.finish();
      }
    }
    await frame();
    await frame();
  };
  await Promise.race([settle(), new Promise((done) => setTimeout(done, limit))]);
}
