"""The lesson-07 training step in numpy against the same model in PyTorch, one CPU thread each (prints figures).

    .venv/bin/python -m attention_workshop.bench_torch      # or any Python that has torch and attention_core

PyTorch is not a dependency of the book: without it this script says so and exits 0. With it, it builds the
lesson's model in PyTorch with the same sizes (bidirectional GRU encoder 32 + 32, additive scorer 64, GRU
decoder 64 reading [e_tgt(y_{t-1}); c_t], output layer on [s_t; c_t]), takes the same batches, and times a
forward and backward pass (no optimiser step) against ``Seq2Seq.loss_and_grads``, alternating the two,
``--rounds`` times. It prints both medians and the ratio numpy / PyTorch (issue 9's target: <= 0.65).
"""

from __future__ import annotations

import sys
import time

import numpy as np

from attention_workshop.command import OneLineParser, run


def main(argv: list[str] | None = None) -> None:
    parser = OneLineParser(prog="python -m attention_workshop.bench_torch", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating passes over the batches")
    parser.add_argument("--batches", type=int, default=40, help="training batches per pass")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.batches < 1:
        parser.error(f"--rounds and --batches must be at least 1, got {args.rounds} and {args.batches}")
    try:
        import torch
    except ImportError:
        print("  (numpy vs PyTorch: skipped, torch is not installed; it is not a dependency of the book)")
        return
    from threadpoolctl import threadpool_limits

    from attention_core.models import data
    from attention_core.models.seq2seq import ModelConfig, Seq2Seq
    from attention_core.models.train import TrainConfig

    torch.set_num_threads(1)
    cfg, mcfg = TrainConfig(), ModelConfig()
    splits = data.make_splits(cfg.data_seed, cfg.n_train, cfg.n_valid, cfg.n_test)
    batches = data.length_batches(splits.train, cfg.batch_size, np.random.default_rng(0))[: args.batches]

    class TorchSeq2Seq(torch.nn.Module):
        def __init__(self):
            super().__init__()
            d_h = 2 * mcfg.d_enc
            self.src_emb = torch.nn.Embedding(mcfg.src_vocab, mcfg.d_emb)
            self.enc = torch.nn.GRU(mcfg.d_emb, mcfg.d_enc, batch_first=True, bidirectional=True)
            self.init = torch.nn.Linear(d_h, mcfg.d_dec)
            self.tgt_emb = torch.nn.Embedding(mcfg.tgt_vocab, mcfg.d_emb)
            self.dec = torch.nn.GRUCell(mcfg.d_emb + d_h, mcfg.d_dec)
            self.W_s = torch.nn.Linear(mcfg.d_dec, mcfg.d_att, bias=False)
            self.W_h = torch.nn.Linear(d_h, mcfg.d_att)
            self.v = torch.nn.Linear(mcfg.d_att, 1, bias=False)
            self.out = torch.nn.Linear(mcfg.d_dec + d_h, mcfg.tgt_vocab)

        def forward(self, src, tgt_in, tgt_out):
            H, _ = self.enc(self.src_emb(src))  # (N, T, d_h)
            d = H.shape[2] // 2
            m = torch.cat([H[:, -1, :d], H[:, 0, d:]], dim=1)
            s = torch.tanh(self.init(m))
            K = self.W_h(H)  # keys once per sentence, as the numpy model does
            Ye = self.tgt_emb(tgt_in)
            outs = []
            for t in range(tgt_in.shape[1]):
                e = self.v(torch.tanh(self.W_s(s)[:, None, :] + K))[:, :, 0]  # (N, T)
                c = (torch.softmax(e, dim=1)[:, :, None] * H).sum(dim=1)
                s = self.dec(torch.cat([Ye[:, t], c], dim=1), s)
                outs.append(torch.cat([s, c], dim=1))
            logits = self.out(torch.stack(outs, dim=1))
            return torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[2]), tgt_out.reshape(-1))

    net = TorchSeq2Seq()
    tb = [tuple(torch.from_numpy(a) for a in (b.src, b.tgt_in, b.tgt_out)) for b in batches]
    model = Seq2Seq(mcfg, seed=0)

    def torch_pass():
        for src, tgt_in, tgt_out in tb:
            net.zero_grad()
            net(src, tgt_in, tgt_out).backward()

    def numpy_pass():
        for b in batches:
            model.loss_and_grads(b)

    with threadpool_limits(1):
        torch_pass(), numpy_pass()  # warm-up
        t_torch, t_numpy = [], []
        for _ in range(args.rounds):
            for fn, out in ((torch_pass, t_torch), (numpy_pass, t_numpy)):
                start = time.perf_counter()
                fn()
                out.append((time.perf_counter() - start) / len(batches))
    a, b = float(np.median(t_numpy)), float(np.median(t_torch))
    print(f"  training step, numpy (this commit): {a * 1e3:7.2f} ms")
    print(f"  training step, PyTorch {torch.__version__}, 1 thread: {b * 1e3:7.2f} ms")
    print(f"  ratio numpy / PyTorch:              {a / b:7.2f}     (target <= 0.65)")


if __name__ == "__main__":
    sys.exit(run(main, "python -m attention_workshop.bench_torch"))
