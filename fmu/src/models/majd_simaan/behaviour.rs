//! What `MajdSimaanInertia`, `MajdSimaanElement` and `MajdSimaanShaftLoad`'s
//! default runs must show (see [`crate::behaviour`]).

use crate::behaviour::{EarlyReturn, close, Behaviour, Refusal, Run, STATIC_BELOW_COULOMB};
use crate::claim;

/// The torque drops to 0 at 2 s; the body slows on the Coulomb branch and,
/// near 3.8 s, reaches the steep branch at w = 0 (slope 588 N.m.s/rad, time
/// constant J/slope = 1.7 ms): from there the exact rate decays
/// exponentially and never reverses (Co-Simulation's reaches 1e-252 rad/s
/// at 5 s, still positive); CVode's BDF steps, far longer than 1.7 ms,
/// carry it through 0 at -3e-17 rad/s, at every tolerance from 1e-5 to
/// 1e-9. No FMU can keep a variable-step solver's sign below its tolerance;
/// `majd_simaan_stories_are_the_exact_ones` (tests/tests/model_exchange.rs)
/// pins the difference to that.
pub const INERTIA: Behaviour = Behaviour::of(inertia)
    .refuses(&[Refusal::new(&[("tau_static", 0.3)], STATIC_BELOW_COULOMB)])
    .stories_differ("ME's rate crosses 0 at -3e-17 rad/s (solver roundoff) where the exact decay does not")
    .returns_early(EarlyReturn::at_internal_step(&[]));

pub const ELEMENT: Behaviour =
    Behaviour::of(element).refuses(&[Refusal::new(&[("tau_static", 0.3)], STATIC_BELOW_COULOMB)]);

pub const SHAFT: Behaviour = Behaviour::of(shaft)
    .refuses(&[Refusal::new(&[("tau_static", 0.3)], STATIC_BELOW_COULOMB)])
    .returns_early(EarlyReturn::at_internal_step(&[]));

/// The same torque on the maps (J = 1, f_s = 0.95, f_c = 0.5): no motion (Stribeck:
/// its static level holds w at 0.0) or a creep (Majd-Simaan) below f_s, sliding
/// above, then the classical map stops exactly (w == 0.0, mode 0)
/// while Majd-Simaan's continuous law decays without ever reaching 0.0 (as its
/// description says).
fn inertia(r: &Run) -> Result<(), String> {
    let (w, mode) = (r.col("w"), r.col("mode"));
    let k = r.index_at(0.9)?;
    let creep = 5e-3;
    claim!(w[..=k].iter().all(|&x| (0.0..creep).contains(&x)), "more than creep below f_s");
    let k2 = r.index_at(2.0)?;
    claim!(w[k2] > 0.9, "w(2) = {}", w[k2]);
    claim!(w[k2..].windows(2).all(|p| p[1] <= p[0]), "rate must not increase while coasting");
    let last = *w.last().ok_or("no w")?;
    let end_mode = *mode.last().ok_or("no mode")?;
    claim!(last > 0.0 && last < 1e-50 && end_mode == 1.0, "w(end) = {last}");
    Ok(())
}

/// Odd map: half a period later the input is negated, so is the torque;
/// never above f_s + f_w*|w|.
fn element(r: &Run) -> Result<(), String> {
    let (t, tau) = (r.time(), r.col("tau_friction"));
    let half = t.iter().position(|&x| close(x, 0.5, 1e-12)).ok_or("no row at t = 0.5 s")?;
    for k in 1..half {
        claim!(close(tau[k + half], -tau[k], 1e-9), "not odd at {}", t[k]);
        claim!(tau[k].abs() <= 0.95 + 0.05 * 0.05 + 1e-12, "|tau| above f_s");
    }
    Ok(())
}

/// The law ports' default run: the drive end winds at 0.5 rad/s (k = 10, J = 1).
/// tests/tests/law_ports.rs checks the same run against an independent solve_ivp
/// reference; here the numbers their descriptions give.
fn shaft(r: &Run) -> Result<(), String> {
    let w = r.col("w");
    let slow = |a: f64, b: f64| -> Result<bool, String> {
        Ok(w[r.index_at(a)?..=r.index_at(b)?].iter().all(|x| x.abs() < 1e-2))
    };
    let peak = w.iter().cloned().fold(f64::MIN, f64::max);
    let creep = w[r.index_at(0.18)?];
    claim!(creep > 1e-3 && creep < 5e-3, "creep {creep}");
    claim!(close(peak, 1.03, 5e-3) && slow(1.98, 2.23)?, "peak {peak}, no slowing near 2 s");
    claim!(w[1..].iter().all(|&x| x != 0.0), "the continuous law stuck exactly");
    Ok(())
}
