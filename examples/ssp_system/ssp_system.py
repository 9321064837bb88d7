"""Simulate the SSP system ShaftDriveHillFriction with FMPy.

The system (written by `cargo xtask fmu` to target/fmu/ShaftDriveHillFriction.ssp)
couples the CompliantDrive plant FMU (motor + compliant shaft, no friction) to
the HillFrictionInertia FMU (the load with Hill's static + Coulomb friction):

    Drive.tau_shaft -> Load.tau      Load.phi -> Drive.phi_load      Load.w -> Drive.w_load

The motor's torque command keeps its start value, 0.9 N.m: below both friction
levels, yet the shaft's overshoot (1.47 N.m) breaks the load away, which then
sticks again for good. This script validates SystemStructure.ssd and the
parameter set against the SSP 1.0 schemas shipped with FMPy, simulates with
`fmpy.ssp` (its fixed-step master: every FMU steps with the inputs of the
step's start) and writes <out>/ssp_system.csv and <out>/ssp_system.png.

    python examples/ssp_system/ssp_system.py --out out/ssp_system
"""
import argparse
import csv
import io
import os
import sys
import zipfile

import fmpy.ssp
from fmpy.ssp.simulation import simulate_ssp
from fmpy.ssp.ssd import read_ssd
from lxml import etree

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCHEMA_DIR = os.path.join(os.path.dirname(fmpy.ssp.__file__), "schema")


def validate(ssp):
    """Validate every SSP file in the archive against FMPy's SSP 1.0 schemas."""
    schemas = {
        ".ssd": "SystemStructureDescription.xsd",
        ".ssv": "SystemStructureParameterValues.xsd",
    }
    checked = []
    with zipfile.ZipFile(ssp) as archive:
        for name in archive.namelist():
            ext = os.path.splitext(name)[1]
            if ext not in schemas:
                continue
            schema = etree.XMLSchema(etree.parse(os.path.join(SCHEMA_DIR, schemas[ext])))
            document = etree.fromstring(archive.read(name))
            if not schema.validate(document):
                errors = "\n".join(f"  line {e.line}: {e.message}" for e in schema.error_log)
                raise SystemExit(f"{name} is not valid SSP 1.0 ({schemas[ext]}):\n{errors}")
            checked.append(f"{name} ({schemas[ext]})")
    if not any(c.startswith("SystemStructure.ssd") for c in checked):
        raise SystemExit(f"{ssp} has no SystemStructure.ssd")
    return checked


def default_experiment(ssp):
    """Stop time of the .ssd's DefaultExperiment and the step of OMSimulator's
    fixed-step master annotation (fmpy.ssp reads neither)."""
    with zipfile.ZipFile(ssp) as archive:
        root = etree.fromstring(archive.read("SystemStructure.ssd"))
    ns = {"ssd": "http://ssp-standard.org/SSP1/SystemStructureDescription"}
    steps = [float(e.get("stepSize")) for e in root.iter() if e.get("stepSize")]
    return float(root.find("ssd:DefaultExperiment", ns).get("stopTime")), steps[0]


def start_value(ssp, component, name):
    """Start value of a component's variable, from its FMU's modelDescription.xml."""
    with zipfile.ZipFile(ssp) as archive:
        ssd = etree.fromstring(archive.read("SystemStructure.ssd"))
        source = next(e.get("source") for e in ssd.iter() if e.get("name") == component and e.get("source"))
        with zipfile.ZipFile(io.BytesIO(archive.read(source))) as fmu:
            md = etree.fromstring(fmu.read("modelDescription.xml"))
    variable = next(v for v in md.iter("ScalarVariable") if v.get("name") == name)
    return float(variable[0].get("start"))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ssp", default=os.path.join(ROOT, "target", "fmu", "ShaftDriveHillFriction.ssp"))
    parser.add_argument("--out", required=True, help="folder for the CSV and the PNG")
    parser.add_argument("--step", type=float, default=None, help="communication step (s); default: the system's")
    parser.add_argument("--stop-time", type=float, default=None, help="default: the system's DefaultExperiment")
    args = parser.parse_args(argv)

    for line in validate(args.ssp):
        print("valid:", line)
    ssd = read_ssd(args.ssp)  # FMPy validates the .ssd again itself
    parameters = ssd.system.parameterBindings[0].parameterValues[0]
    values = {p.name: float(p.value) for p in parameters.parameters}
    stop, step = default_experiment(args.ssp)
    stop = args.stop_time if args.stop_time is not None else stop
    h = args.step if args.step is not None else step
    command = values["Drive.tau_motor"] if "Drive.tau_motor" in values else start_value(args.ssp, "Drive", "tau_motor")

    result = simulate_ssp(args.ssp, stop_time=stop, step_size=h, parameter_set=parameters)

    # fmpy.ssp records each row after the step from `time` to `time + h`
    # and after passing the outputs on: outputs are those at time + h, and
    # `Load.tau` is the torque for the NEXT step. Re-time both.
    os.makedirs(args.out, exist_ok=True)
    rows = []
    applied = 0.0  # connectors start at 0: the first step sees no torque
    for r in result:
        t_end = float(r["time"]) + h
        rows.append({
            "time": t_end,
            "tau_motor": command,
            "tau_applied": applied,  # shaft torque on the load over this step
            "w": float(r["Load.w"]),
            "phi": float(r["Load.phi"]),
            "tau_friction": float(r["Load.tau_friction"]),
            "mode": int(r["Load.mode"]),
            "w_motor": float(r["Drive.w_motor"]),
            "tau_shaft": float(r["Drive.tau_shaft"]),
        })
        applied = float(r["Load.tau"])
    path = os.path.join(args.out, "ssp_system.csv")
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        for row in rows:
            writer.writerow({k: repr(v) for k, v in row.items()})
    print("wrote", path)

    static, coulomb = values["Load.tau_static"], values["Load.tau_coulomb"]
    moving = [r for r in rows if r["w"] != 0.0]
    if moving:
        first = moving[0]
        print(f"motor torque {command} N.m; breakaway: step ending at {first['time']:.3f} s under "
              f"{first['tau_applied']:.4f} N.m (static level {static} N.m)")
        print(f"fastest: w = {max(r['w'] for r in rows):.4f} rad/s; shaft torque peak "
              f"{max(r['tau_applied'] for r in rows):.4f} N.m")
    restuck = [r for r in rows if moving and r["time"] > moving[0]["time"] and r["w"] == 0.0]
    if restuck:
        print(f"stuck again at {restuck[0]['time']:.3f} s, w == 0.0 exactly to the end: "
              f"{all(r['w'] == 0.0 for r in rows if r['time'] >= restuck[0]['time'])}")
    plot(rows, static, coulomb, os.path.join(args.out, "ssp_system.png"))
    return 0


def plot(rows, static, coulomb, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = [r["time"] for r in rows]
    fig, (ax1, ax2) = plt.subplots(2, 1, sharex=True, figsize=(8, 6))
    ax1.plot(t, [r["tau_motor"] for r in rows], label="motor torque command")
    ax1.step(t, [r["tau_applied"] for r in rows], where="pre", label="shaft torque on the load (held over the step)")
    ax1.plot(t, [-r["tau_friction"] for r in rows], label="friction torque on the load (sign flipped)")
    ax1.axhline(static, color="k", ls="--", lw=0.8, label=f"static level {static} N.m")
    ax1.axhline(coulomb, color="gray", ls=":", lw=0.8, label=f"Coulomb level {coulomb} N.m")
    ax1.set_ylabel("torque (N.m)")
    ax1.legend(fontsize=7)
    ax1.set_title("ShaftDriveHillFriction.ssp in fmpy.ssp: the overshoot breaks the load away", fontsize=10)
    ax2.plot(t, [r["w"] for r in rows], label="load rate w (Load.w)")
    motor = ax2.twinx()
    motor.plot(t, [r["w_motor"] for r in rows], lw=0.8, color="C1", label="motor rate (Drive.w_motor)")
    motor.set_ylabel("motor rate (rad/s)")
    motor.legend(fontsize=7, loc="upper right")
    stuck = [r["w"] == 0.0 for r in rows]
    ax2.fill_between(t, 0, 1, where=stuck, transform=ax2.get_xaxis_transform(), color="C2", alpha=0.15,
                     label="w == 0.0 exactly")
    ax2.set_xlabel("time (s)")
    ax2.set_ylabel("load rate (rad/s)")
    ax2.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print("wrote", path)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
