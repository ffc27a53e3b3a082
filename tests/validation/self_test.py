#!/usr/bin/python3
"""Shows that run_validation.py fails when a formula is broken on purpose.

    NAPKIN=/path/to/napkin /usr/bin/python3 tests/validation/self_test.py

Runs the harness once as is (must exit 0), then once per sabotage below (must exit 1 and
report a failure of the named check): Napkin numbers broken through perturb_napkin.py, and
the harness's own closed-form activation model broken by dropping one term.
Takes about (1 + number of sabotages) x the harness's runtime.
"""

import contextlib
import functools
import io
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from napkin_cli import napkin_binary  # noqa: E402

# (NAPKIN_PERTURB, a check that must then fail)
NAPKIN_SABOTAGE = [
    ("params.total+1", "params.total"),
    ("params.embedding+64", "params.embedding"),
    ("flops.forward_per_sequence.mlp*1.05", "flops.forward_dense"),
    ("flops.forward_per_sequence.attention_scores*0.9", "flops.forward_attention"),
    ("flops.forward_per_sequence.total*1.02", "flops.forward"),
    ("flops.per_token_detailed*1.011", "flops.training_per_token"),
    ("memory.per_gpu.optimizer_and_master_weights+4", "memory.optimizer"),
    ("memory.activations_detail.per_layer*1.001", "act.korthikanti.full_recompute"),
]


def run_harness(env_extra):
    env = dict(os.environ, **env_extra)
    p = subprocess.run([sys.executable, str(HERE / "run_validation.py")], env=env,
                       capture_output=True, text=True)
    return p.returncode, p.stdout


def run_with_broken_formula():
    """In process: the closed form without RMSNorm's saved x^2 (a real PyTorch-version term)."""
    import activation_model
    import run_validation
    original = run_validation.pytorch_activation_terms
    run_validation.pytorch_activation_terms = functools.partial(original, mean_saves_input=False)
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            rc = run_validation.main([])
    finally:
        run_validation.pytorch_activation_terms = original
    assert activation_model.pytorch_activation_terms is original
    return rc, out.getvalue()


def failed_checks(stdout):
    return {line.split()[1] for line in stdout.splitlines() if line.startswith("FAIL ")}


def main():
    real = napkin_binary()
    ok = True

    rc, out = run_harness({})
    last = out.strip().splitlines()[-1]
    print(f"unmodified:        exit {rc}  {last}")
    ok &= rc == 0

    for spec, check in NAPKIN_SABOTAGE:
        rc, out = run_harness({"NAPKIN": str(HERE / "perturb_napkin.py"), "NAPKIN_REAL": real,
                               "NAPKIN_PERTURB": spec})
        fails = failed_checks(out)
        good = rc == 1 and check in fails
        ok &= good
        print(f"{spec:48} exit {rc}  {out.strip().splitlines()[-1]:22} "
              f"{'caught by ' + check if good else 'NOT CAUGHT'}   (failing: {', '.join(sorted(fails))})")

    rc, out = run_with_broken_formula()
    fails = failed_checks(out)
    good = rc == 1 and "act.formula.per_layer" in fails
    ok &= good
    print(f"{'closed form without RMSNorm x^2 term':48} exit {rc}  {out.strip().splitlines()[-1]:22} "
          f"{'caught' if good else 'NOT CAUGHT'}   (failing: {', '.join(sorted(fails))})")

    print("self-test " + ("passed" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
