"""Linear stability of the motor + shaft-port pair under a Jacobi master,
plain exchange against implicit coupling, from the exact step maps of both
sides (independent of the FMUs: matrix exponentials of the two sides'
equations as the FMUs' documentation states them).

The pair, linearized in the load's sliding phase (a stuck load is a wall:
the motor alone, exact), constant inputs dropped::

    motor:  J_m w_m' = -K_v w_m + tau_m_shaft      (speed loop, shaft torque on it)
    load:   J   w_l' = k (phi_d(t) - phi_l) + d (w_d - w_l) - c w_l

The load (the shaft port) moves its drive end as phi_d + w_d*t over the step
from the drive's outputs at the step's start and returns the mean shaft
torque over the step. The motor, plain: that torque from the last step,
held; implicit: it holds the shaft itself, k (phi_l(t) - phi_m) + d (w_l -
w_m), the load end moving as phi_l + w_l*t from the load's outputs at the
step's start. One step of the master maps the pair's state linearly; the
pair is stable when that map's spectral radius is at most 1 (besides the
rigid rotation, eigenvalue 1).

    python coupling_stability.py table   the issue's motors (k 10, J 1):
                                          radius per step, motor and method
    python coupling_stability.py grid    6,912 combinations of J_m, J, k,
                                          K_v, d and h (c = 0: the load's own
                                          damping only helps): the unstable
                                          ones by the load's step ratio
"""
import itertools
import sys

import numpy as np
from scipy.linalg import expm


def far_end_side(inertia, k, d, own_damping, h, integral=False):
    """Exact map of one side (angle x, rate v) over h under the shaft to a far
    end moving as x_o + v_o*t: rows give (x, v[, integral of the shaft torque
    on this side]) from (x, v, x_o, v_o)."""
    n = 5 if integral else 4
    a = np.zeros((n, n))
    a[0, 1] = 1.0
    a[1, :4] = np.array([-k, -(d + own_damping), k, d]) / inertia
    a[2, 3] = 1.0
    if integral:
        a[4, :4] = [-k, -d, k, d]
    e = expm(a * h)
    return e[[0, 1, 4], :4] if integral else e[:2, :4]


def step_map(jm, kv, j, k, d, c, h, method):
    """The master's step as a matrix on the pair's state."""
    # Load: from (x_l, v_l, x_m, v_m), plus the impulse of the shaft on it.
    load = far_end_side(j, k, d, c, h, integral=True)
    if method == "implicit":
        motor = far_end_side(jm, k, d, kv, h)
        t = np.zeros((4, 4))
        t[0:2, :] = motor  # (x_m, v_m, x_l, v_l) -> motor
        t[2:4, :] = load[0:2][:, [2, 3, 0, 1]]  # the load's columns in the pair's order
        return t
    # Plain: state (x_m, v_m, x_l, v_l, tau), tau the held torque on the motor.
    a = np.zeros((3, 3))
    a[0, 1], a[1, 1], a[1, 2] = 1.0, -kv / jm, 1.0 / jm
    motor = expm(a * h)[:2, :]  # (x_m, v_m, tau) -> (x_m, v_m)
    t = np.zeros((5, 5))
    t[0:2, [0, 1, 4]] = motor
    t[2:4, 0:4] = load[0:2][:, [2, 3, 0, 1]]
    # The motor takes minus the load's mean shaft torque over this step, next step.
    t[4, 0:4] = -load[2][[2, 3, 0, 1]] / h
    return t


def radius(t):
    """Spectral radius without the rigid rotation (one eigenvalue 1, two when
    nothing damps the pair absolutely: the drift's Jordan block, which
    rounding splits by about sqrt(eps))."""
    e = np.sort(np.abs(np.linalg.eigvals(t)))[::-1]
    rest = [x for x in e if abs(x - 1.0) > 1e-6]
    return max(rest, default=1.0)


STEPS = (1e-3, 5e-3, 10e-3, 20e-3, 50e-3)


def table():
    for jm, kv in itertools.product((1e-2, 1e-3), (1.0, 0.1)):
        for h in STEPS:
            plain, implicit = (radius(step_map(jm, kv, 1.0, 10.0, 0.0, 0.0, h, m)) for m in ("plain", "implicit"))
            print(f"table J_motor={jm:g} speed_gain={kv:g} step={h:g} motor_ratio={h * (10.0 / jm) ** 0.5:.4g} "
                  f"plain={plain:.6f} implicit={implicit:.6f}")


def grid():
    """Counts of unstable implicit pairs, by the load's step ratio
    h*max(sqrt(k/J), d/J) and by whether the motor is damped (K_v or d > 0)."""
    rows = []
    for jm, j, k, kv, d, c, h in itertools.product(
        (1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0), (1e-2, 1e-1, 1.0, 10.0), (1.0, 10.0, 100.0, 1e4),
        (0.0, 0.1, 1.0, 1e4), (0.0, 0.1, 10.0), (0.0,), (1e-3, 5e-3, 2e-2, 5e-2, 0.2, 1.0)
    ):
        r = radius(step_map(jm, kv, j, k, d, c, h, "implicit"))
        load_ratio = h * max((k / j) ** 0.5, d / j)
        rows.append((r, load_ratio, kv > 0.0 or d > 0.0, jm, j, k, kv, d, c, h))
    unstable = [x for x in rows if x[0] > 1.0 + 1e-6]
    print(f"grid combinations={len(rows)} unstable={len(unstable)}")
    for bound in (0.1, 0.2, 0.5):
        damped = sum(1 for x in unstable if x[2] and x[1] <= bound + 1e-12)
        undamped = sum(1 for x in unstable if not x[2] and x[1] <= bound + 1e-12)
        print(f"grid load_ratio<={bound} unstable_damped={damped} unstable_undamped={undamped}")
    worst = max((x for x in unstable if x[2] and x[1] <= 0.2 + 1e-12), default=None)
    if worst:
        print(f"grid worst_damped_within_0.2 radius={worst[0]:.6f} J_motor={worst[3]:g} J={worst[4]:g} "
              f"k={worst[5]:g} speed_gain={worst[6]:g} d={worst[7]:g} c={worst[8]:g} step={worst[9]:g}")
    worst = max((x for x in unstable if not x[2]), default=None)
    if worst:
        print(f"grid worst_undamped radius={worst[0]:.6f} J_motor={worst[3]:g} J={worst[4]:g} k={worst[5]:g} "
              f"step={worst[9]:g} load_ratio={worst[1]:.3g}")


if __name__ == "__main__":
    {"table": table, "grid": grid}[sys.argv[1]]()
