//! What `StribeckInertia`, `StribeckElement` and `StribeckShaftLoad`'s default
//! runs must show (see [`crate::behaviour`]).

use crate::behaviour::{EarlyReturn, close, Behaviour, Refusal, Run, STATIC_BELOW_COULOMB};
use crate::claim;

pub const INERTIA: Behaviour = Behaviour::of(inertia)
    .refuses(&[Refusal::new(&[("tau_static", 0.3)], STATIC_BELOW_COULOMB)])
    .returns_early(EarlyReturn::at_internal_step(&[]));

pub const ELEMENT: Behaviour =
    Behaviour::of(element).refuses(&[Refusal::new(&[("tau_static", 0.3)], STATIC_BELOW_COULOMB)]);

pub const SHAFT: Behaviour = Behaviour::of(shaft).refuses(&[
    Refusal::new(&[("tau_static", 0.3)], STATIC_BELOW_COULOMB),
    Refusal::of_internal_step(&[("k_shaft", 1e4), ("J", 0.01)], "h*max(sqrt(k_shaft/J), d_shaft/J)"),
])
.returns_early(EarlyReturn::at_internal_step(&[]));

/// The same torque on the maps (J = 1, f_s = 0.95, f_c = 0.5): no motion (Stribeck:
/// its static level holds w at 0.0) or a creep (Majd-Simaan) below f_s, sliding
/// above, then the classical map stops exactly (w == 0.0, mode 0)
/// while Majd-Simaan's continuous law decays without ever reaching 0.0 (as its
/// description says).
fn inertia(r: &Run) -> Result<(), String> {
    let (t, w, mode) = (r.time(), r.col("w"), r.col("mode"));
    let k = r.index_at(0.9)?;
    let creep = 1e-20;
    claim!(w[..=k].iter().all(|&x| (0.0..creep).contains(&x)), "more than creep below f_s");
    let k2 = r.index_at(2.0)?;
    claim!(w[k2] > 0.9, "w(2) = {}", w[k2]);
    claim!(w[k2..].windows(2).all(|p| p[1] <= p[0]), "rate must not increase while coasting");
    let last = *w.last().ok_or("no w")?;
    let moving = w.iter().rposition(|&x| x != 0.0).ok_or("never moves")?;
    let stop = *t.get(moving + 1).ok_or("moving at the end")?;
    claim!(close(stop, 3.79, 1e-9), "at rest from {stop} s");
    let end_mode = *mode.last().ok_or("no mode")?;
    claim!(last == 0.0 && end_mode == 0.0, "w(end) = {last}");
    Ok(())
}

/// Exponential Stribeck (Eq. 4), f_c = 0.5, f_s = 0.95, w_c = 0.019, f_w = 0.05,
/// at the input held over the step that ends at the row.
fn element(r: &Run) -> Result<(), String> {
    let pi2 = 2.0 * std::f64::consts::PI;
    let (t, tau) = (r.time(), r.col("tau_friction"));
    for k in 1..t.len() {
        let w = 0.05 * (pi2 * t[k - 1]).sin();
        let f = w.signum() * (0.5 + 0.45 * (-w.abs() / 0.019).exp()) + 0.05 * w;
        let expected = if w == 0.0 { 0.0 } else { -f };
        claim!(close(tau[k], expected, 1e-12), "tau({}) = {} vs Eq. (4) {expected}", t[k], tau[k]);
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
    claim!(w[..=r.index_at(0.18)?].iter().all(|x| x.abs() < 1e-19), "more than creep before f_s");
    claim!(close(peak, 1.03, 5e-3) && slow(1.99, 2.23)?, "peak {peak}, no rest near 2 s");
    Ok(())
}
