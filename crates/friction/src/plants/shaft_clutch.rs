//! A friction clutch between two shafts: two plates (small inertias), each
//! on a compliant shaft whose far end another FMU moves (the drive end and
//! the load end), and the exact clutch of [`TwoInertiaClutch`] between
//! them.
//!
//! ```text
//!  drive end --k1,d1-- plate J1 |clutch| plate J2 --k2,d2-- load end
//! ```

use crate::integrators::shaft_load::{within_round_off, DriveEnd, Shaft};
use crate::plants::clutch::TwoInertiaClutch;

/// What a step of [`step_between_shafts`] transmitted (N.m.s).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClutchImpulses {
    /// Impulse of the drive shaft on plate 1 (the drive end feels minus it).
    pub drive: f64,
    /// Impulse of the load shaft on plate 2 (the load end feels minus it).
    pub load: f64,
    /// Impulse of the clutch from plate 1 to plate 2.
    pub clutch: f64,
}

/// Advance the plates of `clutch` by `dt` in `n` equal substeps: plate 1 on
/// `drive_shaft`, whose far end moves as `drive`, plate 2 on `load_shaft`,
/// whose far end moves as `load`, the clutch between them carrying at most
/// `capacity`. In each substep each shaft's torque is the ramp of
/// [`Shaft::step_body`] (its value at the substep's start with the plate's
/// rate held, slope `k*(w_end - w) + d*a_end`: symplectic for the undamped
/// shaft), and the clutch locks, breaks loose or reverses at its exact
/// instant under those ramps ([`TwoInertiaClutch::step_ramp`]): the lock of
/// `TwoInertiaClutch`, `w1 == w2` exactly, without a velocity band.
///
/// With `stop_from = Some(earliest)` the step stops right after the
/// clutch's first lock or break (inside a substep, or at a substep's end
/// where the shafts' torques from there break the lock) at or after
/// `earliest` and before `dt` (a simulator's early return at the event).
/// Returns the impulses, the first event's instant and the time taken
/// (`dt` unless it stopped).
pub fn step_between_shafts(
    clutch: &mut TwoInertiaClutch,
    (drive_shaft, drive): (&Shaft, &DriveEnd),
    (load_shaft, load): (&Shaft, &DriveEnd),
    capacity: f64,
    dt: f64,
    n: usize,
    stop_from: Option<f64>,
) -> (ClutchImpulses, Option<f64>, f64) {
    let h = dt / n as f64;
    let mut impulses = ClutchImpulses::default();
    let mut first_event = None;
    // The flag the outputs show: a stop changes it.
    let shown = clutch.locked;
    for i in 0..n {
        let u = i as f64 * h;
        let ((t1, t2), (slope1, slope2)) = shaft_ramps(clutch, (drive_shaft, drive), (load_shaft, load), u);
        let (event, taken, stopped) = match stop_from {
            None => (clutch.step_ramp(t1, t2, slope1, slope2, capacity, h), h, false),
            // The substeps of the plain step (the same results where none
            // stops); a stop in the last one must fall short of dt.
            Some(earliest) => {
                let from = (earliest - u).max(f64::MIN_POSITIVE);
                let (event, taken) =
                    clutch.step_ramps_to_event((t1, t2), (slope1, slope2), (capacity, 0.0), h, from, shown);
                (event, taken, taken < h && u + taken < dt)
            }
        };
        first_event = first_event.or(event.map(|e| u + e));
        impulses.drive += (t1 + 0.5 * slope1 * taken) * taken;
        impulses.load += (t2 + 0.5 * slope2 * taken) * taken;
        impulses.clutch += clutch.clutch_torque * taken;
        if stopped {
            return (impulses, first_event, u + taken);
        }
        // The lock's change that the shafts' torques from here (the ends
        // moving as the step's inputs say) make at once, or within round-off
        // of this instant (where the next step, before its own `earliest`,
        // would not stop for it), is made here: at this instant, the step's
        // end too.
        if let Some(earliest) = stop_from {
            let next = if i + 1 == n { dt } else { u + h };
            let horizon = within_round_off(earliest, dt);
            if settle_lock(clutch, (drive_shaft, drive), (load_shaft, load), capacity, next, horizon)
                && clutch.locked != shown
            {
                return (impulses, first_event.or(Some(next)), next);
            }
        }
    }
    (impulses, first_event, dt)
}

/// The shafts' torques on the plates `u` seconds into the step, and their
/// slopes with the plates' rates held (the ramps of a substep from there).
fn shaft_ramps(
    clutch: &TwoInertiaClutch,
    (drive_shaft, drive): (&Shaft, &DriveEnd),
    (load_shaft, load): (&Shaft, &DriveEnd),
    u: f64,
) -> ((f64, f64), (f64, f64)) {
    let torques = (
        drive_shaft.torque(drive, u, clutch.angle1, clutch.rate1),
        load_shaft.torque(load, u, clutch.angle2, clutch.rate2),
    );
    let slope1 = drive_shaft.stiffness * (drive.rate_at(u) - clutch.rate1) + drive_shaft.damping * drive.acceleration;
    let slope2 = load_shaft.stiffness * (load.rate_at(u) - clutch.rate2) + load_shaft.damping * load.acceleration;
    (torques, (slope1, slope2))
}

/// The clutch's lock as a substep from `u` would find it at its start, or
/// within `horizon` seconds of it, under the shafts' torques there, made
/// at `u`: a lock they break (or break within `horizon` as they ramp) is
/// released, the plates' rates staying equal; a slip that closes within
/// `horizon` closes, the plates joining at the rate that conserves their
/// momentum, and locks if the clutch holds the sticking torque. Whether
/// `locked` changed.
pub fn settle_lock(
    clutch: &mut TwoInertiaClutch,
    (drive_shaft, drive): (&Shaft, &DriveEnd),
    (load_shaft, load): (&Shaft, &DriveEnd),
    capacity: f64,
    u: f64,
    horizon: f64,
) -> bool {
    let slip = clutch.rate1 - clutch.rate2;
    if !clutch.locked && slip == 0.0 {
        return false;
    }
    let ((t1, t2), (slope1, slope2)) = shaft_ramps(clutch, (drive_shaft, drive), (load_shaft, load), u);
    let sticking = clutch.sticking_torque(t1, t2);
    if clutch.locked {
        // The sticking torque's slope outwards (locked: both plates at one rate).
        let outwards = clutch.sticking_torque(slope1, slope2) * sticking.signum();
        let breaks = sticking.abs() > capacity || (outwards > 0.0 && capacity - sticking.abs() <= outwards * horizon);
        clutch.locked = !breaks;
        return breaks;
    }
    let (j1, j2) = (clutch.inertia1, clutch.inertia2);
    let sliding = capacity * slip.signum();
    let closing = -((t1 - sliding) / j1 - (t2 + sliding) / j2) * slip.signum();
    if closing <= 0.0 || slip.abs() > closing * horizon {
        return false;
    }
    let joined = (j1 * clutch.rate1 + j2 * clutch.rate2) / (j1 + j2);
    (clutch.rate1, clutch.rate2) = (joined, joined);
    clutch.locked = sticking.abs() <= capacity;
    (clutch.acceleration1, clutch.acceleration2) = clutch.accelerations(t1, t2, capacity);
    clutch.locked
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(capacity: f64, drive_angle: f64, t_end: f64) -> TwoInertiaClutch {
        let mut c = TwoInertiaClutch::new(0.1, 0.3, 0.0, 0.0);
        c.locked = true;
        let (s1, s2) = (Shaft { stiffness: 10.0, damping: 0.0 }, Shaft { stiffness: 30.0, damping: 0.0 });
        let drive = DriveEnd { angle: drive_angle, ..Default::default() };
        let load = DriveEnd::default();
        let dt = 1e-3;
        for _ in 0..(t_end / dt).round() as usize {
            step_between_shafts(&mut c, (&s1, &drive), (&s2, &load), capacity, dt, 10, None);
        }
        c
    }

    /// Open (capacity 0): plate 1 swings on its shaft about the drive end,
    /// `phi1 = a*(1 - cos(sqrt(k1/J1) t))`, plate 2 stays at rest.
    #[test]
    fn an_open_clutch_leaves_each_plate_on_its_shaft() {
        let c = run(0.0, 0.1, 0.5);
        let exact = 0.1 * (1.0 - (10.0_f64 * 0.5).cos());
        assert!((c.angle1 - exact).abs() < 1e-5, "{} vs {exact}", c.angle1);
        // (It starts locked: the break at t = 0 leaves plate 2 rounding's share.)
        assert!(c.angle2.abs() < 1e-15 && c.rate2.abs() < 1e-15, "{c:?}");
    }

    /// Locked (ample capacity): the plates swing as one body J1 + J2 between
    /// the two shafts, about `a*k1/(k1 + k2)`, with w1 == w2 exactly.
    #[test]
    fn a_locked_clutch_swings_both_plates_as_one() {
        let c = run(100.0, 0.1, 0.5);
        let (k, j) = (40.0_f64, 0.4_f64);
        let rest = 0.1 * 10.0 / 40.0;
        let exact = rest * (1.0 - ((k / j).sqrt() * 0.5).cos());
        assert!(c.locked && c.rate1 == c.rate2, "{c:?}");
        assert!((c.angle1 - exact).abs() < 1e-5, "{} vs {exact}", c.angle1);
    }

    /// A master that brings an FMU back to an early return's instant steps
    /// it again from the step's start to exactly there: that step ends at
    /// the lock or break, not a hair before it (where the next step would
    /// meet it at its very start, before its `earliest`, and take it
    /// without a stop). 400 breaks of a lock under a turning drive end and
    /// 400 locks of slipping plates, 1000 s into a run, each taken again to
    /// its instant and to just short of it, by 0.9 of the next step's
    /// `earliest` (the instant as another FMU's clock reads it): there the
    /// event is at the step's end, or the next step stops at it.
    #[test]
    fn a_step_to_an_early_return_instant_ends_at_the_event() {
        let (s1, s2) = (Shaft { stiffness: 10.0, damping: 0.0 }, Shaft { stiffness: 30.0, damping: 0.05 });
        let load = DriveEnd::default();
        let mut checked = 0;
        for i in 0..800 {
            let x = (i % 400) as f64;
            let mut c = TwoInertiaClutch::new(0.1 + 0.001 * x, 0.3, 0.0, 0.0);
            // (One substep, as long as the shafts allow: the step taken again
            // meets the same ramps.)
            let (drive, capacity, dt) = if i < 400 {
                c.locked = true;
                (DriveEnd { angle: 0.0, rate: 0.5 + 0.013 * x, acceleration: 0.0 }, 1.0, 2.0)
            } else {
                (c.rate1, c.rate2) = (0.5 + 0.002 * x, -0.2);
                (DriveEnd::default(), 3.0, 0.2)
            };
            let t0 = 1000.0 + x;
            let earliest = (t0 * f64::EPSILON).max(f64::MIN_POSITIVE);
            let before = c.clone();
            let ends = ((&s1, &drive), (&s2, &load));
            let (_, _, taken) = step_between_shafts(&mut c, ends.0, ends.1, capacity, dt, 1, Some(earliest));
            assert!(taken < dt && c.locked == (i >= 400), "case {i}: {c:?}");
            let mut again = before.clone();
            let (_, event, to) = step_between_shafts(&mut again, ends.0, ends.1, capacity, taken, 1, Some(earliest));
            assert_eq!((to, event), (taken, Some(taken)), "case {i}: the event is not at the step's end");
            assert_eq!(again.locked, c.locked, "case {i}");
            // Just short of it: the event at this step's end, or stopped at
            // in the next.
            let short = taken - 0.9 * (t0 + taken) * f64::EPSILON;
            let mut again = before;
            let (_, event, _) = step_between_shafts(&mut again, ends.0, ends.1, capacity, short, 1, Some(earliest));
            if again.locked == before.locked {
                assert_eq!(event, None, "case {i}");
                let earliest = ((t0 + short) * f64::EPSILON).max(f64::MIN_POSITIVE);
                let (drive, load) = (drive.moved_by(short), load.moved_by(short));
                let ends = ((&s1, &drive), (&s2, &load));
                // (A microsecond: no later event in it.)
                let (_, event, to) = step_between_shafts(&mut again, ends.0, ends.1, capacity, 1e-6, 1, Some(earliest));
                let stopped = to < 1e-6 && event.is_some_and(|at| at >= earliest);
                assert!(again.locked == before.locked || stopped, "case {i}: the next step changed the lock unseen");
            } else {
                assert_eq!(event, Some(short), "case {i}");
            }
            checked += 1;
        }
        assert_eq!(checked, 800);
    }
}
