"""Measurements of one real AdamW training step of a models.Decoder.

* matmul FLOPs, counted by a dispatch-level mode (``TorchDispatchMode``, present in
  PyTorch 1.13): every aten.mm / addmm / mv / dot / bmm / baddbmm that reaches the
  dispatcher during forward and backward is charged 2*m*k*n (a multiply and an add per
  product; bias adds and alpha/beta scaling are not matmul FLOPs), times the batch for bmm
  and baddbmm.  A composite matmul op (matmul, linear, einsum) never reaches this level
  (it is decomposed above it); if one ever did, the step refuses rather than undercount;
* bytes of tensors autograd saves for backward (``torch.autograd.graph.saved_tensors_hooks``),
  counted per storage: a storage saved by several ops, or through several views, counts once,
  with its full size (a view keeps its whole storage alive); storages that belong to
  parameters are model state, not activations, and are left out;
* parameter counts from ``model.parameters()`` (tied weights appear once);
* bytes of weights, gradients and optimizer state after ``optimizer.step()``.
"""

from dataclasses import dataclass, field

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from models import batch_for, build

aten = torch.ops.aten


def _mm_flops(a, b):
    return 2 * a.shape[0] * a.shape[1] * b.shape[1]


def _bmm_flops(a, b):
    return 2 * a.shape[0] * a.shape[1] * a.shape[2] * b.shape[2]


_FLOP_RULES = {
    aten.mm: lambda args: _mm_flops(args[0], args[1]),
    aten.addmm: lambda args: _mm_flops(args[1], args[2]),
    aten.bmm: lambda args: _bmm_flops(args[0], args[1]),
    aten.baddbmm: lambda args: _bmm_flops(args[1], args[2]),
    aten.mv: lambda args: 2 * args[0].shape[0] * args[0].shape[1],
    aten.dot: lambda args: 2 * args[0].shape[0],
}


class MatmulFlopCounter(TorchDispatchMode):
    """Sums matmul FLOPs of every op dispatched while active, by phase and op kind."""

    def __init__(self):
        super().__init__()
        self.phase = "forward"
        self.flops = {}      # (phase, op name) -> FLOPs
        self.unhandled = set()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        packet = func.overloadpacket
        rule = _FLOP_RULES.get(packet)
        if rule is not None:
            key = (self.phase, packet.__name__)
            self.flops[key] = self.flops.get(key, 0) + rule(args)
        elif packet.__name__ in ("matmul", "linear", "einsum", "addbmm", "addmv", "conv1d"):
            self.unhandled.add(packet.__name__)   # would be silently uncounted: refuse below
        return func(*args, **(kwargs or {}))

    def total(self, phase=None, ops=None):
        return sum(v for (ph, op), v in self.flops.items()
                   if (phase is None or ph == phase) and (ops is None or op in ops))


class SavedTensorMeter:
    """saved_tensors_hooks that record every storage autograd saves, once per storage."""

    def __init__(self, exclude_storages):
        self.exclude = set(exclude_storages)
        self.storages = {}   # data_ptr -> record
        self.param_saves = 0
        self.region = "model"
        self.shared = set()  # storages every block uses (mask, RoPE tables): model-level
        self.log = []        # (region, shape, dtype, storage bytes, new?) for reading the model

    def trace(self, region, shared=()):
        """Decoder.trace callback: which block the forward is in."""
        self.region = region
        self.shared.update(t.storage().data_ptr() for t in shared)

    def pack(self, t):
        st = t.storage()
        ptr = st.data_ptr()
        if ptr in self.exclude:
            self.param_saves += 1
            return t
        new = ptr not in self.storages
        if new:
            region = "model" if ptr in self.shared else self.region
            self.storages[ptr] = dict(nbytes=st.nbytes(), dtype=t.dtype, shape=tuple(t.shape),
                                      region=region, keep=t)
        self.log.append((self.region, tuple(t.shape), str(t.dtype).replace("torch.", ""),
                         st.nbytes(), new))
        return t

    def bytes_by_region(self):
        out = {}
        for r in self.storages.values():
            out[r["region"]] = out.get(r["region"], 0) + r["nbytes"]
        return out

    @staticmethod
    def unpack(t):
        return t

    def total_bytes(self):
        return sum(r["nbytes"] for r in self.storages.values())

    def __enter__(self):
        self._ctx = torch.autograd.graph.saved_tensors_hooks(self.pack, self.unpack)
        self._ctx.__enter__()
        return self

    def __exit__(self, *exc):
        self._ctx.__exit__(*exc)
        for r in self.storages.values():
            r.pop("keep", None)
        return False


def _storage_ptr(t):
    return t.storage().data_ptr()


def saved_bytes_by_graph_walk(loss, exclude_storages):
    """Second, independent count: walk the autograd graph from `loss` and read every node's
    ``_saved_*`` attributes (and ``saved_tensors`` of custom Functions such as checkpoint),
    once per storage, parameters excluded.  Must equal SavedTensorMeter's total."""
    exclude = set(exclude_storages)
    storages, seen, stack = {}, set(), [loss.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        values = []
        for name in dir(node):
            if name.startswith("_saved_"):
                try:
                    values.append(getattr(node, name))
                except RuntimeError:
                    pass
        if hasattr(node, "saved_tensors"):
            values.extend(node.saved_tensors)
        for v in values:
            for t in v if isinstance(v, (tuple, list)) else (v,):
                if isinstance(t, torch.Tensor):
                    ptr = _storage_ptr(t)
                    if ptr not in exclude:
                        storages[ptr] = t.storage().nbytes()
        stack.extend(fn for fn, _ in node.next_functions)
    return sum(storages.values())


@dataclass
class StepMeasurement:
    params_total: int = 0
    params_embedding: int = 0
    params_lm_head: int = 0
    weight_bytes: int = 0
    grad_bytes: int = 0
    optimizer_moment_bytes: int = 0     # exp_avg + exp_avg_sq (+ fp32 master copy)
    optimizer_step_bytes: int = 0       # AdamW's per-tensor 'step' scalars
    param_tensors: int = 0
    activation_bytes: int = 0
    activation_per_layer: list = field(default_factory=list)   # bytes first saved in block i
    activation_model: int = 0                                   # bytes outside the blocks
    activation_bytes_graph_walk: int = 0                        # same total, read from grad_fns
    saved_log: list = field(default_factory=list)
    flops_forward: int = 0
    flops_backward: int = 0
    flops_forward_bmm: int = 0          # attention: scores and probs x V
    flops_forward_mm: int = 0           # projections, MLP, LM head
    loss: float = 0.0


# Training recipes this harness can run, by Napkin recipe id: model dtype, and whether AdamW
# steps fp32 master copies of bf16 weights (mixed precision, Micikevicius et al. 2018).
RECIPES = {
    "fp32-adamw": (torch.float32, False),
    "bf16-adamw": (torch.bfloat16, False),
    "bf16-mixed-adamw": (torch.bfloat16, True),
}


def measure_step(shape, recipe="fp32-adamw", dropout=0.0, recompute="none", count_flops=True,
                 seed=0):
    """Builds the model, runs forward + backward + AdamW.step once, returns what it saw."""
    dtype, master = RECIPES[recipe]
    model = build(shape, dtype=dtype, dropout=dropout, recompute=recompute, seed=seed)
    ids, targets = batch_for(shape)
    params = list(model.parameters())
    out = StepMeasurement()
    out.param_tensors = len(params)
    out.params_total = sum(p.numel() for p in params)
    out.params_embedding = model.wte.weight.numel() + (model.wpe.numel() if model.wpe is not None else 0)
    out.params_lm_head = model.lm_head.numel() if model.lm_head is not None else 0

    masters = [p.detach().float().requires_grad_() for p in params] if master else params
    opt = torch.optim.AdamW(masters, lr=1e-3, foreach=False)
    meter = SavedTensorMeter(_storage_ptr(p) for p in params)
    model.trace = meter.trace
    counter = MatmulFlopCounter() if count_flops else None
    torch.manual_seed(seed + 7)   # dropout masks
    if counter is not None:
        counter.__enter__()
    try:
        with meter:
            loss = model(ids, targets)
        out.activation_bytes_graph_walk = saved_bytes_by_graph_walk(loss, meter.exclude)
        if counter is not None:
            counter.phase = "backward"
        loss.backward()
    finally:
        if counter is not None:
            counter.__exit__(None, None, None)
    if master:
        for m, p in zip(masters, params):
            m.grad = p.grad.float()
    opt.step()
    if master:
        with torch.no_grad():
            for m, p in zip(masters, params):
                p.copy_(m)

    out.loss = float(loss)
    out.activation_bytes = meter.total_bytes()
    regions = meter.bytes_by_region()
    out.activation_per_layer = [regions.get(i, 0) for i in range(shape.layers)]
    out.activation_model = regions.get("model", 0)
    out.saved_log = meter.log
    out.weight_bytes = sum(p.numel() * p.element_size() for p in params)
    out.grad_bytes = sum(p.grad.numel() * p.grad.element_size() for p in params)
    if master:   # fp32 master weights live in the optimizer, as Napkin's recipe counts them
        out.optimizer_moment_bytes += sum(m.numel() * m.element_size() for m in masters)
    for p in masters:
        for name, t in opt.state[p].items():
            nbytes = t.numel() * t.element_size()
            if name == "step":
                out.optimizer_step_bytes += nbytes
            else:
                out.optimizer_moment_bytes += nbytes
    if counter is not None:
        if counter.unhandled:
            raise RuntimeError(f"matmul-like ops reached the dispatcher uncounted: {counter.unhandled}")
        out.flops_forward = counter.total("forward")
        out.flops_backward = counter.total("backward")
        out.flops_forward_bmm = counter.total("forward", ("bmm", "baddbmm"))
        out.flops_forward_mm = out.flops_forward - out.flops_forward_bmm
    return out
