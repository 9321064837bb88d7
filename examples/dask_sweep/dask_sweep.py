"""Parameter sweep of AntennaAzimuthServo on Dask: friction level x step x friction model.

Hill's 70-m azimuth servo answers a 1 mdeg position step. For every friction
level (a factor on Hill's 400/425 psi Coulomb/static pair), every step (the
communication step, and the FMU's internal step set equal to it, as Hill's
fixed-step integration) and both friction algorithms (0 = conventional,
1 = Hill's), one FMPy run (the inertia and the loop gains stay Hill's); each run gives its settle error, how long the axis
was exactly at rest, and how much it chattered. Results: <out>/sweep.csv (one
row per run) and <out>/sweep.png.

Runs go to a dask.distributed cluster: a LocalCluster by default, or the
scheduler at --scheduler ADDRESS (workers need the same Python packages; the
FMU travels to them as bytes through the scheduler, nothing is read from a
shared disk). --serial also runs the sweep in this process and checks the
results are identical, and prints the speed-up.

    python examples/dask_sweep/dask_sweep.py --out out/dask_sweep
    python examples/dask_sweep/dask_sweep.py --out out/sweep --scheduler tcp://10.0.0.5:8786
"""
import argparse
import csv
import hashlib
import math
import os
import shutil
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
COMMAND_MDEG = 1.0  # Hill's 1 mdeg position step
# The FMU's variables are SI (rad, rad/s, Pa); Hill's units are their display units.
MDEG = math.radians(1e-3)  # rad
PSI = 6894.757293168361  # Pa
COLUMNS = ["friction_model", "friction_level", "step", "coulomb_psi", "breakaway_psi", "settle_error_mdeg",
           "final_rate_mdeg_s", "stuck_time_s", "chatter_mdeg_s", "transitions"]

_UNZIPPED = {}  # per worker process: FMU hash -> (unzip dir, model description)


def unzip_dir(fmu_bytes):
    """Where the workers of this machine unzip the FMU: one folder per FMU
    build (its hash), shared by the workers and reused by later sweeps, so
    that worker processes, which a cluster may kill without running exit
    handlers, leave at most this one folder behind."""
    digest = hashlib.sha256(fmu_bytes).hexdigest()[:16]
    return os.path.join(tempfile.gettempdir(), f"dask-sweep-{digest}")


def _fmu_on_this_worker(fmu_bytes):
    """Unzip the FMU once per machine (into a private folder, then renamed
    into place, so that workers unzipping at once never see half an FMU)."""
    from fmpy import extract, read_model_description

    key = hashlib.sha256(fmu_bytes).hexdigest()
    if key not in _UNZIPPED:
        target = unzip_dir(fmu_bytes)
        if not os.path.isdir(target):
            private = tempfile.mkdtemp(prefix="dask-sweep-", dir=os.path.dirname(target))
            path = os.path.join(private, "model.fmu")
            with open(path, "wb") as f:
                f.write(fmu_bytes)
            extract(path, unzipdir=os.path.join(private, "unzipped"))
            try:
                os.rename(private, target)
            except OSError:  # another worker was first: use its copy
                shutil.rmtree(private, ignore_errors=True)
        unzipped = os.path.join(target, "unzipped")
        _UNZIPPED[key] = (unzipped, read_model_description(os.path.join(target, "model.fmu")))
    return _UNZIPPED[key]


def run_one(fmu_bytes, friction_model, level, step, stop_time):
    """One simulation; returns one result row (a dict of plain floats)."""
    import fmpy

    unzipdir, md = _fmu_on_this_worker(fmu_bytes)
    coulomb, static = 400.0 * level, 425.0 * level  # psi
    result = fmpy.simulate_fmu(
        unzipdir, model_description=md, fmi_type="CoSimulation", start_time=0.0, stop_time=stop_time,
        output_interval=step, output=["position", "rate", "motor_pressure", "mode"],
        start_values={"position_command": COMMAND_MDEG * MDEG, "friction_model": friction_model,
                      "coulomb_pressure": coulomb * PSI, "breakaway_pressure": static * PSI, "internal_step": step,
                      # the FMU derives the inertia from F_c/J: keep J, change the friction
                      "friction_to_inertia": 1.77e-3 * level})
    # In Hill's units: mdeg and mdeg/s.
    position, rate, mode = result["position"] / MDEG, result["rate"] / MDEG, result["mode"]
    first_move = next((i for i in range(len(rate)) if rate[i] != 0.0), len(rate))
    last_second = [i for i, t in enumerate(result["time"]) if t >= stop_time - 1.0 - 1e-9]
    return {
        "friction_model": friction_model,
        "friction_level": level,
        "step": step,
        "coulomb_psi": coulomb,
        "breakaway_psi": static,
        "settle_error_mdeg": float(position[-1] - COMMAND_MDEG),
        "final_rate_mdeg_s": float(rate[-1]),
        # samples exactly at rest after the first move, times the step
        "stuck_time_s": float(step * sum(1 for i in range(first_move, len(rate)) if rate[i] == 0.0)),
        "chatter_mdeg_s": float(math.sqrt(sum(rate[i] ** 2 for i in last_second) / len(last_second))),
        "transitions": int(sum(1 for i in range(1, len(mode)) if mode[i] != mode[i - 1])),
    }


def run_batch(fmu_bytes, cases, stop_time):
    """Several runs in one task: a run takes tens of milliseconds, less than
    Dask's per-task overhead, so tasks carry a batch."""
    return [run_one(fmu_bytes, m, lv, s, stop_time) for m, lv, s in cases]


def grid(levels, steps, models):
    return [(m, lv, s) for m in models for lv in levels for s in steps]


def run_on_dask(client, fmu_bytes, cases, stop_time, batch, show_progress):
    from dask.distributed import progress

    # Ship the FMU once to every worker, as data: works on any cluster.
    fmu_future = client.scatter(fmu_bytes, broadcast=True)
    batches = [cases[i:i + batch] for i in range(0, len(cases), batch)]
    futures = [client.submit(run_batch, fmu_future, b, stop_time, pure=False) for b in batches]
    if show_progress:
        progress(futures)
        print()
    return [row for rows in client.gather(futures) for row in rows]


def write_csv(rows, path):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS)
        writer.writeheader()
        for r in rows:
            writer.writerow({k: repr(r[k]) for k in COLUMNS})
    print("wrote", path)


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = {0: "conventional friction model", 1: "Hill's algorithm"}
    steps = sorted({r["step"] for r in rows})
    fig, axes = plt.subplots(2, 2, figsize=(10, 7), sharex=True)
    for col, model in enumerate(sorted({r["friction_model"] for r in rows})):
        for step in steps:
            sel = sorted((r for r in rows if r["friction_model"] == model and r["step"] == step),
                         key=lambda r: r["friction_level"])
            x = [r["friction_level"] for r in sel]
            axes[0][col].plot(x, [r["settle_error_mdeg"] for r in sel], "o-", ms=3, label=f"step {step * 1e3:g} ms")
            axes[1][col].plot(x, [r["chatter_mdeg_s"] for r in sel], "o-", ms=3, label=f"step {step * 1e3:g} ms")
        axes[0][col].set_title(names.get(model, str(model)))
        axes[0][col].set_ylabel("settle error at the end (mdeg)")
        axes[1][col].set_ylabel("rms rate over the last second (mdeg/s)")
        axes[1][col].set_xlabel("friction level (x Hill's 400/425 psi)")
        axes[0][col].legend(fontsize=7)
    fig.suptitle("AntennaAzimuthServo, 1 mdeg step: settle error and chatter vs friction level and step")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print("wrote", path)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fmu", default=os.path.join(ROOT, "target", "fmu", "AntennaAzimuthServo.fmu"))
    parser.add_argument("--out", required=True, help="folder for sweep.csv and sweep.png")
    parser.add_argument("--levels", type=int, default=11, help="friction levels from 0.5 to 1.5")
    parser.add_argument("--steps", default="0.001,0.002,0.005,0.01,0.02", help="steps (s), comma-separated")
    parser.add_argument("--models", default="0,1", help="friction_model values, comma-separated")
    parser.add_argument("--stop-time", type=float, default=5.0)
    parser.add_argument("--scheduler", help="address of a running dask scheduler (default: a LocalCluster)")
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster workers (one thread each)")
    parser.add_argument("--batch", type=int, default=0, help="runs per task (default: 4 tasks per worker)")
    parser.add_argument("--serial", action="store_true", help="also run serially here; check equality")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)

    with open(args.fmu, "rb") as f:
        fmu_bytes = f.read()
    try:
        return sweep(args, fmu_bytes)
    finally:
        if not args.scheduler:  # the LocalCluster's workers were this machine's, and are gone
            for folder in (unzip_dir(fmu_bytes), unzip_dir(fmu_bytes) + "-scratch"):
                shutil.rmtree(folder, ignore_errors=True)


def sweep(args, fmu_bytes):
    import dask
    from dask.distributed import Client, LocalCluster

    levels = [0.5 + i / (args.levels - 1) for i in range(args.levels)] if args.levels > 1 else [1.0]
    cases = grid(levels, [float(s) for s in args.steps.split(",")], [int(m) for m in args.models.split(",")])
    os.makedirs(args.out, exist_ok=True)

    if args.scheduler:
        client = Client(args.scheduler)
        where = f"scheduler {args.scheduler}"
    else:
        # Dask's scratch space in a folder main() removes (else it stays in the temporary folder)
        dask.config.set({"temporary-directory": unzip_dir(fmu_bytes) + "-scratch"})
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
        where = f"LocalCluster of {args.workers} workers"
    workers = len(client.scheduler_info()["workers"])
    batch = args.batch or max(1, math.ceil(len(cases) / (4 * workers)))
    # warm-up: the workers import FMPy before the clock starts
    client.gather(client.map(lambda _: __import__("fmpy") and 0, range(workers), pure=False))
    start = time.perf_counter()
    rows = run_on_dask(client, fmu_bytes, cases, args.stop_time, batch, not args.no_progress)
    parallel = time.perf_counter() - start
    print(f"{len(cases)} runs on {where} ({batch} per task): {parallel:.2f} s, {len(cases) / parallel:.2f} runs/s")
    client.close()
    if not args.scheduler:
        cluster.close()  # its workers gone before main() removes their unzipped FMU

    write_csv(rows, os.path.join(args.out, "sweep.csv"))
    plot(rows, os.path.join(args.out, "sweep.png"))

    if args.serial:
        start = time.perf_counter()
        serial_rows = [run_one(fmu_bytes, m, lv, s, args.stop_time) for m, lv, s in cases]
        serial = time.perf_counter() - start
        print(f"{len(cases)} runs serially in this process: {serial:.2f} s, {len(cases) / serial:.2f} runs/s")
        print(f"speed-up on {where}: {serial / parallel:.2f}")
        write_csv(serial_rows, os.path.join(args.out, "sweep_serial.csv"))
        if serial_rows != rows:
            bad = sum(1 for a, b in zip(serial_rows, rows) if a != b)
            print(f"MISMATCH: {bad} of {len(rows)} runs differ between serial and parallel")
            return 1
        print("serial and parallel results identical")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
