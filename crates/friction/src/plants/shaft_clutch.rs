//! A friction clutch between two shafts: two plates (small inertias), each
//! on a compliant shaft whose far end another FMU moves (the drive end and
//! the load end), and the exact clutch of [`TwoInertiaClutch`] between
//! them.
//!
//! ```text
//!  drive end --k1,d1-- plate J1 |clutch| plate J2 --k2,d2-- load end
//! ```

use crate::integrators::shaft_load::{DriveEnd, Shaft};
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
#[allow(clippy::too_many_arguments)]
pub fn step_between_shafts(
    clutch: &mut TwoInertiaClutch,
    drive_shaft: &Shaft,
    drive: &DriveEnd,
    load_shaft: &Shaft,
    load: &DriveEnd,
    capacity: f64,
    dt: f64,
    n: usize,
) -> ClutchImpulses {
    let h = dt / n as f64;
    let mut impulses = ClutchImpulses::default();
    for i in 0..n {
        let u = i as f64 * h;
        let (t1, t2) = (
            drive_shaft.torque(drive, u, clutch.angle1, clutch.rate1),
            load_shaft.torque(load, u, clutch.angle2, clutch.rate2),
        );
        let slope1 =
            drive_shaft.stiffness * (drive.rate_at(u) - clutch.rate1) + drive_shaft.damping * drive.acceleration;
        let slope2 = load_shaft.stiffness * (load.rate_at(u) - clutch.rate2) + load_shaft.damping * load.acceleration;
        clutch.step_ramp(t1, t2, slope1, slope2, capacity, h);
        impulses.drive += (t1 + 0.5 * slope1 * h) * h;
        impulses.load += (t2 + 0.5 * slope2 * h) * h;
        impulses.clutch += clutch.clutch_torque * h;
    }
    impulses
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
            step_between_shafts(&mut c, &s1, &drive, &s2, &load, capacity, dt, 10);
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
}
