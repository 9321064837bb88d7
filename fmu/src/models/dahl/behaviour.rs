//! What `DahlInertia`, `DahlElement` and `DahlShaftLoad`'s default runs must
//! show (see [`crate::behaviour`]).

use crate::behaviour::{EarlyReturn, close, Behaviour, Refusal, Run};
use crate::claim;

pub const INERTIA: Behaviour = Behaviour::of(inertia)
    .refuses(&[Refusal::of_internal_step(&[("internal_step", 1.0)], "needs internal_step <=")])
    .returns_early(EarlyReturn::at_internal_step(&[]));

pub const ELEMENT: Behaviour = Behaviour::of(element);

/// The shaft's substep rule: 0.2 s * sqrt(10/1) = 0.63 > 0.5.
pub const SHAFT: Behaviour = Behaviour::of(shaft).refuses(&[Refusal::of_internal_step(
    &[("internal_step", 0.2)],
    "h*max(sqrt(k_shaft/J), d_shaft/J) = 0.632",
)])
.returns_early(EarlyReturn::at_internal_step(&[]));

/// Nurre Fig. 5: I = 5, Tf0 = 0.0424, w0 = 0.002; the body starts in steady sliding
/// (Tf = -Tf0), and the presliding spring keeps |Tf| <= Tf0 throughout.
fn inertia(r: &Run) -> Result<(), String> {
    let (t, w, tau) = (r.time(), r.col("w"), r.col("tau_friction"));
    claim!(close(tau[0], -0.0424, 1e-12) && close(w[0], 0.002, 0.0), "start: Tf = {}, w = {}", tau[0], w[0]);
    claim!(tau.iter().all(|x| x.abs() <= 0.0424 + 1e-12), "|Tf| above Tf0");
    // Sliding at Tf0 decelerates at Tf0/I: the rate first reaches 0 near w0*I/Tf0 = 0.236 s.
    let stop = t[w.iter().position(|&x| x <= 0.0).ok_or("the rate never reaches 0")?];
    claim!((0.2..0.3).contains(&stop), "first stop at {stop} s");
    // As the description says: it rings on the presliding spring and never sticks.
    let mode = r.col("mode");
    claim!(mode.iter().all(|&m| m != 0.0), "Dahl's law reported an exact stop");
    let last = w.last().ok_or("no w")?.abs();
    claim!(last > 0.0 && last < 1e-4, "w(20) = {last}");
    Ok(())
}

/// Dahl (Nurre Eqs. 2-4): |Tf| <= Tf0 = 0.0424, and a hysteresis loop:
/// at the same w_rel the torque differs on the way out and back.
fn element(r: &Run) -> Result<(), String> {
    let tau = r.col("tau_friction");
    claim!(tau.iter().all(|x| x.abs() <= 0.0424), "|Tf| above Tf0");
    let (quarter, three_quarters) = (25, 75); // w_rel = +-0.05 peaks at 0.25 and 0.75 s (0.01 s steps)
    claim!(tau[quarter + 1] < -0.03 && tau[three_quarters + 1] > 0.03, "sliding torque opposes w_rel");
    // w_rel is 0.05*sin(2*pi*0.1) at t = 0.1 and t = 0.4: rising vs falling branch.
    let (a, b) = (tau[11], tau[41]);
    claim!((a - b).abs() > 0.005, "no hysteresis ({a} vs {b})");
    Ok(())
}

/// The law ports' default run: the drive end winds at 0.5 rad/s (k = 10, J = 1).
/// tests/tests/law_ports.rs checks the same run against an independent solve_ivp
/// reference; here the numbers their descriptions give.
fn shaft(r: &Run) -> Result<(), String> {
    let (t, w, friction) = (r.time(), r.col("w"), r.col("tau_friction"));
    let slow = |a: f64, b: f64| -> Result<bool, String> {
        Ok(w[r.index_at(a)?..=r.index_at(b)?].iter().all(|x| x.abs() < 1e-2))
    };
    let peak = w.iter().cloned().fold(f64::MIN, f64::max);
    let peak_time = t[w.iter().position(|&x| x == peak).ok_or("no peak of w")?];
    claim!(close(peak, 0.99, 5e-3) && close(peak_time, 1.0, 1e-9), "peak {peak} at {peak_time} s");
    claim!(slow(1.96, 2.03)? && w.iter().all(|&x| x >= 0.0), "not the swing behind the drive");
    for (i, &x) in w.iter().enumerate().skip(1) {
        if x > 0.1 && t[i] >= 0.5 {
            claim!(close(friction[i], -0.0424, 0.002), "friction {} at {}", friction[i], t[i]);
        }
    }
    Ok(())
}
