//! What the LuGre FMUs' default runs must show (see [`crate::behaviour`]):
//! the paper's closed forms (the presliding curve from the bristle
//! stiffness sigma0, the steady state Eq. 7) and the damped swing of the
//! load behind a winding shaft, with the paper's parameters.

use crate::behaviour::{EarlyReturn, close, Behaviour, Refusal, Run, STATIC_BELOW_COULOMB};
use crate::claim;

const REFUSALS: &[Refusal] = &[Refusal::new(&[("tau_static", 0.5)], STATIC_BELOW_COULOMB)];

/// After its stop the body rings on its bristles (damping ratio 0.5 at
/// sqrt(sigma0/J) = 316 rad/s), w changing sign each 10 ms half period as it
/// decays: Co-Simulation follows it down to `friction::lugre::REST_RATE`
/// (1e-12 rad/s, 11 changes of mode in all), CVode to its tolerance and
/// below, where the sign is the solver's: the stories agree to the stop
/// and alternate alike after it, with another count.
pub const INERTIA: Behaviour = Behaviour::of(inertia).refuses(REFUSALS).stories_differ(
    "the ringing on the bristles after the stop changes w's sign down to 1e-12 rad/s in Co-Simulation, below the \
     solver's tolerance in Model Exchange",
)
.returns_early(EarlyReturn::at_internal_step(&[]));
pub const ELEMENT: Behaviour = Behaviour::of(element).refuses(REFUSALS);
pub const SHAFT: Behaviour =
    Behaviour::of(shaft).refuses(REFUSALS).returns_early(EarlyReturn::at_internal_step(&[]));

/// The numbers `LuGreInertia`'s description quotes, as it prints them; the
/// checks below read them.
pub mod inertia_quotes {
    /// phi at 1 s (0.99 N.m held), rad.
    pub const PRESLIDING_ANGLE: &str = "1.62e-5";
    /// The first row above 1e-3 rad/s, s, and the torque held over its step, N.m.
    pub const BREAKAWAY: &str = "1.47";
    pub const BREAKAWAY_TORQUE: &str = "1.46";
    /// w at 2 s, rad/s.
    pub const RATE_AT_2S: &str = "0.355";
    /// The closed-form stop from w(2 s), s.
    pub const STOP: &str = "2.33";
    /// w = 0.0 and mode 0 from here, s.
    pub const REST: &str = "2.46";
}

/// The numbers `LuGreShaftLoad`'s description quotes (see [`inertia_quotes`]).
pub mod shaft_quotes {
    pub const BREAKAWAY: &str = "0.28";
    pub const BREAKAWAY_TORQUE: &str = "1.4";
    pub const PEAK_1: &str = "0.92";
    pub const PEAK_1_AT: &str = "1.2";
    pub const TROUGH: &str = "0.15";
    pub const TROUGH_AT: &str = "2.19";
    pub const PEAK_2: &str = "0.78";
    pub const PEAK_2_AT: &str = "3.19";
    pub const DECAY: &str = "0.82";
}

/// A quoted number.
fn quoted(text: &str) -> f64 {
    text.parse().unwrap_or_else(|_| panic!("{text} is no number"))
}

/// The paper's parameters (the FMUs' start values).
const SIGMA0: f64 = 1e5;
const SIGMA2: f64 = 0.4;
const COULOMB: f64 = 1.0;
const STATIC: f64 = 1.5;
const STRIBECK_RATE: f64 = 1e-3;

/// Eq. (7): the friction at a constant rate, F_ss(w) = g(w)*sign(w) + sigma2*w.
fn steady_state(w: f64) -> f64 {
    (COULOMB + (STATIC - COULOMB) * (-(w / STRIBECK_RATE).powi(2)).exp()) * w.signum() + SIGMA2 * w
}

/// Presliding from rest under a slowly rising torque: with w far below the
/// Stribeck rate, Eq. 3 is dz/dphi = 1 - sigma0*z/F_s, so the bristles carry
/// sigma0*z = tau at the angle -(F_s/sigma0)*ln(1 - tau/F_s) (stiffness
/// sigma0 at the origin).
fn presliding_angle(tau: f64) -> f64 {
    -(STATIC / SIGMA0) * (1.0 - tau / STATIC).ln()
}

/// The body (J = 1) at rest, tau = 0.01*k over the step from 0.01*k s up to
/// 2 s, then 0 (the 1-DOF bodies' ramp, held over each 10 ms step).
/// Presliding within 1 % of the closed form (the ringing each 0.01 N.m step
/// starts decays to 20 % in a step: about 0.2 % left); a creep under 1e-3
/// rad/s up to 1.46 s, above it from 1.47 s under 1.46 N.m (LuGre breaks
/// away below F_s when the torque rises slowly: the creep speeds up as the
/// bristles near g), sliding above 1e-2 rad/s from 1.49 s;
/// on the steady-state curve within 2e-3 N.m while sliding (the output is
/// the last 1 ms internal step's effective friction); stopped where
/// J*dw/dt = -F_c - sigma2*w from w(2 s) says, 2 + ln(1 + sigma2*w(2)/F_c)/sigma2,
/// within 10 ms; then at rest on the bristles (no drift beyond F_s/sigma0),
/// w = 0.0 and mode 0 from 2.46 s (the ringing below
/// `friction::lugre::REST_RATE`, 1e-12 rad/s).
fn inertia(r: &Run) -> Result<(), String> {
    let (t, phi, w, friction) = (r.time(), r.col("phi"), r.col("w"), r.col("tau_friction"));
    claim!(!t.is_empty() && phi.len() == t.len() && friction.len() == t.len(), "columns missing");
    for k in 1..t.len() {
        let tau = ((t[k] - 0.01) * 100.0).round() * 0.01;
        if t[k] >= 0.1 - 1e-9 && t[k] <= 1.0 + 1e-9 {
            let exact = presliding_angle(tau);
            claim!(close(phi[k], exact, 1e-2 * exact), "phi({}) = {} vs presliding {exact}", t[k], phi[k]);
        }
        if t[k] <= 1.46 + 1e-9 {
            claim!(w[k].abs() < 1e-3, "moving at {} rad/s at {} s, below F_s", w[k], t[k]);
        }
        if (t[k] >= 1.49 - 1e-9 && t[k] <= 2.0 + 1e-9) || (t[k] > 2.0 && w[k] > 0.05) {
            claim!(w[k] > 1e-2, "not sliding at {} s", t[k]);
            let expected = -steady_state(w[k]);
            claim!(close(friction[k], expected, 2e-3), "tau_friction({}) = {} vs -F_ss = {expected}", t[k], friction[k]);
        }
    }
    use inertia_quotes::*;
    let at1 = phi[r.index_at(1.0)?];
    claim!(close(at1, quoted(PRESLIDING_ANGLE), 5e-3 * at1), "phi(1 s) = {at1}, quoted {PRESLIDING_ANGLE}");
    // Near the origin the stiffness is sigma0 itself: 0.09 N.m over 0.1 s.
    let k = r.index_at(0.1)?;
    claim!(close(0.09 / phi[k], SIGMA0, 0.05 * SIGMA0), "presliding stiffness {} N.m/rad", 0.09 / phi[k]);
    let w2 = w[r.index_at(2.0)?];
    claim!(close(w2, quoted(RATE_AT_2S), 5e-4), "w(2 s) = {w2}, quoted {RATE_AT_2S}");
    let stop = 2.0 + (1.0 + SIGMA2 * w2 / COULOMB).ln() / SIGMA2;
    claim!(close(stop, quoted(STOP), 5e-3), "the closed-form stop {stop} s, quoted {STOP}");
    let slow = t.iter().zip(&w).position(|(&tk, x)| tk > 2.0 && x.abs() < 1e-2).ok_or("never stops")?;
    claim!(close(t[slow], stop, 1e-2), "stops at {} s, closed form {stop} s", t[slow]);
    let breakaway = t.iter().zip(&w).position(|(_, x)| x.abs() >= 1e-3).ok_or("never breaks away")?;
    claim!(close(t[breakaway], quoted(BREAKAWAY), 1e-9), "breaks away at {} s", t[breakaway]);
    let held = ((t[breakaway] - 0.01) * 100.0).round() * 0.01;
    claim!(close(held, quoted(BREAKAWAY_TORQUE), 1e-9), "breaks away under {held} N.m");
    let (mode, rest) = (r.col("mode"), *phi.last().ok_or("no rows")?);
    for k in 0..t.len() {
        if t[k] >= stop + 0.1 {
            claim!(w[k].abs() < 1e-6, "not at rest at {} s: {} rad/s", t[k], w[k]);
            claim!((phi[k] - rest).abs() < STATIC / SIGMA0, "drifts at {} s", t[k]);
        }
        if t[k] >= quoted(REST) - 1e-9 {
            claim!(w[k] == 0.0 && mode[k] == 0.0, "w = {}, mode {} at {} s", w[k], mode[k], t[k]);
        }
    }
    Ok(())
}

/// w_rel = 0.05*sin(2*pi*t) held over each 10 ms step: wherever the held
/// rate is above 0.01 rad/s the bristles have settled within the step
/// (relaxation g/(sigma0*|w|) under 1.5 ms), so the torque is -F_ss(w_rel)
/// within 1e-6 N.m; the bristles never carry more than F_s; and there the
/// run is odd: half a period later the torque is negated (within 1e-9 N.m;
/// near the reversals the bristles remember the other half, which started
/// from z = 0).
fn element(r: &Run) -> Result<(), String> {
    let (t, tau, z) = (r.time(), r.col("tau_friction"), r.col("z"));
    claim!(tau.len() == t.len() && z.len() == t.len(), "columns missing");
    for k in 1..t.len() {
        let w = 0.05 * (2.0 * std::f64::consts::PI * t[k - 1]).sin();
        if w.abs() > 0.01 {
            claim!(close(tau[k], -steady_state(w), 1e-6), "tau({}) = {} vs -F_ss = {}", t[k], tau[k], -steady_state(w));
        }
        claim!(SIGMA0 * z[k].abs() <= STATIC, "the bristles carry {} N.m at {} s", SIGMA0 * z[k], t[k]);
    }
    let half = r.index_at(0.5)?;
    for k in 1..half {
        if (0.05 * (2.0 * std::f64::consts::PI * t[k - 1]).sin()).abs() > 0.01 {
            claim!(close(tau[k + half], -tau[k], 1e-9), "not odd at {} s", t[k]);
        }
    }
    Ok(())
}

/// The drive end winds the shaft (k = 10, J = 1) at v = 0.5 rad/s from
/// rest. Presliding first: the load under 1e-3 rad/s until 0.26 s, the
/// bristles carrying the shaft torque k*(v*t - phi) less their damping's
/// share (within 0.03 N.m); breakaway at 0.28 s, before the static law's
/// F_s/(k*v) = 0.3 s (as LuGreInertia's, below F_s). The first peak of w,
/// 0.92 rad/s at 1.2 s. Then, far above the Stribeck rate, the steady-state friction
/// F_c + sigma2*w (within 3e-3 N.m) makes the load a damped oscillator
/// about the drive's rate: its rate's extremes a half period
/// pi/sqrt(k/J - (sigma2/2J)^2) = 0.9955 s apart (within one 10 ms step),
/// each excursion from v the last one times exp(-sigma2/(2J)*0.9955) =
/// 0.8195 (within 1 %): the viscous term damps the stick-slip out (the
/// physics crate checks the cycle with sigma2 = 0 against the static +
/// Coulomb law's closed form).
fn shaft(r: &Run) -> Result<(), String> {
    let (t, phi, w, friction, z) = (r.time(), r.col("phi"), r.col("w"), r.col("tau_friction"), r.col("z"));
    claim!(w.len() == t.len() && z.len() == t.len() && friction.len() == t.len(), "columns missing");
    let v = 0.5;
    for k in 0..t.len() {
        if t[k] <= 0.26 + 1e-9 {
            claim!(w[k].abs() < 1e-3, "moving at {} s", t[k]);
            let spring = 10.0 * (v * t[k] - phi[k]);
            claim!(close(SIGMA0 * z[k], spring, 3e-2), "bristles {} vs shaft {spring} at {} s", SIGMA0 * z[k], t[k]);
        }
        if t[k] >= 0.5 {
            claim!(w[k] > 0.05, "slowed to {} rad/s at {} s", w[k], t[k]);
            claim!(close(friction[k], -steady_state(w[k]), 3e-3), "tau_friction({}) = {}", t[k], friction[k]);
        }
    }
    let moving = t.iter().zip(&w).position(|(_, x)| x.abs() >= 1e-3).ok_or("never breaks away")?;
    use shaft_quotes::*;
    claim!(close(t[moving], quoted(BREAKAWAY), 1e-9), "breaks away at {} s", t[moving]);
    let shaft_torque = 10.0 * (v * t[moving] - phi[moving]);
    claim!(close(shaft_torque, quoted(BREAKAWAY_TORQUE), 5e-3), "breaks away under {shaft_torque} N.m");
    let extremes: Vec<usize> =
        (moving + 1..t.len() - 1).filter(|&k| (w[k] - w[k - 1]) * (w[k + 1] - w[k]) < 0.0).collect();
    claim!(extremes.len() >= 3, "extremes of the swing: {extremes:?}");
    for (k, (value, at)) in [(PEAK_1, PEAK_1_AT), (TROUGH, TROUGH_AT), (PEAK_2, PEAK_2_AT)].into_iter().enumerate() {
        let e = extremes[k];
        claim!(
            close(t[e], quoted(at), 1e-9) && close(w[e], quoted(value), 5e-3),
            "extreme {} at {} s, quoted {value} at {at}",
            w[e],
            t[e]
        );
    }
    let half_period = std::f64::consts::PI / (10.0 - (SIGMA2 / 2.0).powi(2)).sqrt();
    let decay = (-SIGMA2 / 2.0 * half_period).exp();
    claim!(close(decay, quoted(DECAY), 5e-3), "decay {decay}, quoted {DECAY}");
    for pair in extremes.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        claim!(close(t[b] - t[a], half_period, 1e-2 + 1e-9), "extremes at {} and {} s", t[a], t[b]);
        let ratio = (w[b] - v).abs() / (w[a] - v).abs();
        claim!(close(ratio, decay, 1e-2 * decay), "decay {ratio} vs {decay} from {} s", t[a]);
    }
    Ok(())
}
