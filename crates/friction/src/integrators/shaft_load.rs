//! A load with static + Coulomb friction at the far end of a compliant
//! shaft whose drive end moves as a given polynomial over each step: the
//! "shaft port" (motion in, torque out) of a friction body.
//!
//! ```text
//!  J * dw/dt   = tau_s - tau_f            (load; tau_f: the friction resisting the motion, Hill Eqs. 1, 4)
//!  tau_s       = k*(phi_d - phi) + d*(w_d - w)   (shaft torque on the load)
//!  phi_d(t0+u) = phi_d0 + w_d*u + a*u^2/2         (drive end over the step)
//! ```
//!
//! Between events the load obeys a linear ODE with constant coefficients
//! and polynomial forcing, solved in closed form per mode:
//! - sliding in direction `sigma`: `phi = phi_p + y` with the particular
//!   solution `phi_p(u) = phi_d(u) - (J*a + F_c*sigma)/k` (it moves with the
//!   drive end, so the damper carries nothing) and `J y'' + d y' + k y = 0`
//!   (under-, over- or critically damped, [`exp_cosh_sinh`]);
//! - stuck: `w = 0.0` exactly, and the shaft torque on the load is the
//!   quadratic `k*(phi_d(u) - phi) + d*w_d(u)`; breakaway where its magnitude
//!   reaches `F_s` (closed-form root).
//!
//! A stop is a root of the sliding rate `w(u) = w_d(u) + y'(u)`: bracketed on
//! a grid finer than a quarter of the shaft's period, then bisected to the
//! last bit. At the stop the shaft torque decides: stick (`|tau_s| <= F_s`)
//! or reverse. With `F_s = F_c` this is the exact Coulomb law.
//!
//! The torque the shaft applies to the drive is reported as its mean over
//! the step, computed from the load's momentum balance
//! `int tau_s = J*(w_end - w_0) + int tau_f`, so a drive that takes this
//! torque as held input over the same step sees the exact impulse.

use crate::integrators::inertia::FrictionInertia;
use crate::laws::exact::first_positive_root;
use crate::laws::exact::ExactStaticCoulomb;
use crate::plants::compliant_drive::exp_cosh_sinh;
use crate::vocabulary::{sign, RigidBodyFriction};
use serde::{Deserialize, Serialize};

/// A stop bisected to within this fraction of the end of the remaining
/// interval is taken at the end, with the rate set to exactly 0 (as
/// [`ExactStaticCoulomb`] does).
const END_TOLERANCE: f64 = 1e-12;

/// Phase of the shaft's fastest motion (rad) that [`ShaftLoad`]'s step
/// searches for a stop at a time: about ten periods.
const WINDOW_PHASE: f64 = 64.0;

/// Phase of the shaft's fastest motion (rad) between the points at which
/// [`ShaftLoad`]'s step first looks for a stop; a dip of the rate below
/// zero between two of them is ruled out or found by halving
/// ([`first_crossing`]).
const GRID_PHASE: f64 = 0.5;

/// Motion of the drive end over one step: `phi_d0 + w_d*u + a*u^2/2`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DriveEnd {
    /// Drive-end angle `phi_d0` at the step's start (rad).
    pub angle: f64,
    /// Drive-end rate `w_d` at the step's start (rad/s).
    pub rate: f64,
    /// Drive-end acceleration `a` over the step (rad/s^2); 0 for held inputs.
    pub acceleration: f64,
}

impl DriveEnd {
    /// Angle `u` seconds into the step.
    #[inline]
    pub fn angle_at(&self, u: f64) -> f64 {
        self.angle + self.rate * u + 0.5 * self.acceleration * u * u
    }
    /// Rate `u` seconds into the step.
    #[inline]
    pub fn rate_at(&self, u: f64) -> f64 {
        self.rate + self.acceleration * u
    }

    /// The same motion seen from `u` seconds into the step (where a step
    /// that stopped early at `u` goes on from).
    #[inline]
    pub fn moved_by(&self, u: f64) -> Self {
        Self { angle: self.angle_at(u), rate: self.rate_at(u), acceleration: self.acceleration }
    }
}

/// The span after the end of a step of `dt` that began `earliest` seconds
/// before its first instant that moves the clock (a simulator's early
/// return, FMI 3.0) within which the next step's own `earliest` falls: an
/// event there is one the next step would take at its start without
/// stopping, so the step that ends before it takes it at its end.
pub fn within_round_off(earliest: f64, dt: f64) -> f64 {
    2.0 * (earliest + dt * f64::EPSILON)
}

/// A compliant shaft between a drive end and a body: spring `k` and damper
/// `d` in parallel. The shaft port of a friction law without a closed form
/// (Stribeck's maps, Majd-Simaan, Dahl, Borello's load-dependent law) steps
/// its body through it with [`Shaft::step_body`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Shaft {
    /// Torsional stiffness `k` (N.m/rad), > 0.
    pub stiffness: f64,
    /// Torsional damping `d` (N.m.s/rad), >= 0.
    pub damping: f64,
}

/// A body a torque drives, with its own friction law: what [`Shaft::step_body`] needs.
pub trait TorqueDriven {
    fn angle(&self) -> f64;
    fn rate(&self) -> f64;
    /// Advance by `h` under the applied torque `applied + slope*s`
    /// (`0 <= s <= h`); returns the effective friction torque on the body
    /// over it (`J*(w_end - w_0) = (applied + slope*h/2 + friction)*h` for a
    /// body with no other load).
    fn advance_under(&mut self, applied: f64, slope: f64, h: f64) -> f64;
    /// [`Self::advance_under`] that stops right after a change of the body's
    /// sense of motion inside `h`, at or after `earliest`, where the body's
    /// law locates it: the friction and the time taken. By default (a law
    /// that knows only its interval) the whole `h`.
    fn advance_to_change(&mut self, applied: f64, slope: f64, h: f64, earliest: f64) -> (f64, f64) {
        let _ = earliest;
        (self.advance_under(applied, slope, h), h)
    }
}

/// Most evaluations [`first_crossing`] spends on one interval of a slide's
/// grid: the halvings around a near touch of zero (about 60 levels, each
/// ruling out one side at once); past them the interval counts as free of
/// a crossing unless its end is one.
const DIP_BUDGET: u32 = 200;

/// The first sign change of `g` (the rate in the sense of the slide) in
/// `(lo, hi]`, given `g(lo) >= 0` and `|g''| <= curvature`: a bracket
/// `(a, b)` with `g(a) >= 0 >= g(b)` and no crossing before `a`, or `None`
/// when `g` stays above zero. Where the two ends and the curvature cannot
/// rule out a dip in between, the interval is halved, left half first;
/// one that starts at zero is decided by its end alone.
fn first_crossing(
    g: &dyn Fn(f64) -> f64,
    curvature: f64,
    (lo, g_lo): (f64, f64),
    (hi, g_hi): (f64, f64),
    budget: &mut u32,
) -> Option<(f64, f64)> {
    let width = hi - lo;
    if g_lo.min(g_hi) - curvature * width * width / 8.0 > 0.0 {
        return None;
    }
    let mid = 0.5 * (lo + hi);
    // From rest (g(lo) = 0, not shown to rise) the values near `lo` are
    // round-off: only the end decides, as the plain grid does.
    if g_lo <= 0.0 || *budget == 0 || mid <= lo || mid >= hi {
        return (g_hi <= 0.0).then_some((lo, hi));
    }
    *budget -= 1;
    let g_mid = g(mid);
    if g_mid <= 0.0 {
        return first_crossing(g, curvature, (lo, g_lo), (mid, g_mid), budget).or(Some((lo, mid)));
    }
    first_crossing(g, curvature, (lo, g_lo), (mid, g_mid), budget)
        .or_else(|| first_crossing(g, curvature, (mid, g_mid), (hi, g_hi), budget))
}

/// The two impulses of a step through a shaft.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ShaftStep {
    /// Impulse of the shaft on the body over the step (N.m.s).
    pub shaft_impulse: f64,
    /// Impulse of the friction on the body over the step (N.m.s).
    pub friction_impulse: f64,
}

impl Shaft {
    /// Torque of the shaft on a body at `angle`, `rate`, `u` seconds into a
    /// step over which the drive end moves as `drive`.
    #[inline]
    pub fn torque(&self, drive: &DriveEnd, u: f64, angle: f64, rate: f64) -> f64 {
        self.stiffness * (drive.angle_at(u) - angle) + self.damping * (drive.rate_at(u) - rate)
    }

    /// `h*max(sqrt(k/J), d/J)`: the substep measured against the shaft and
    /// body's fastest motion. [`Shaft::step_body`] asks it to be at most
    /// [`SUBSTEP_LIMIT`].
    pub fn substep_ratio(&self, inertia: f64, h: f64) -> f64 {
        h * (self.stiffness / inertia).sqrt().max(self.damping / inertia)
    }

    /// Advance `body` by `dt` in `n` equal substeps, the drive end moving as
    /// `drive` over `dt`. In each substep the shaft torque is the ramp from
    /// its value at the substep's start with the body's rate held (slope
    /// `k*(w_d - w) + d*a_d`); a law without a closed form applies its mean,
    /// the torque at the body's predicted mid-substep angle. Undamped and
    /// without friction this is a symplectic map (determinant 1): the
    /// shaft's oscillation neither grows nor decays for `h*sqrt(k/J) < 2`,
    /// and its phase error is `(h*sqrt(k/J))^2/24` per radian. The ramp is
    /// exact for a drive end at constant rate (what the ports send); with a
    /// drive acceleration `a` it leaves out the spring's `k*a*u^2/2`, up to
    /// `k*a*h^2/6` in the substep's mean torque.
    ///
    /// With `stop_from = Some(earliest)` it stops right after its first
    /// substep in which the body's sense of motion (the sign of its rate)
    /// changes, at or after `earliest` and short of `dt` (a simulator's
    /// early return at the event): at the instant the body's law locates
    /// inside the substep (the substep taken again to there, and kept if it
    /// reproduces the change: a stop to `w = 0.0`), else at the substep's
    /// end. Returns the impulses and the time taken (`dt` unless it
    /// stopped).
    #[inline]
    pub fn step_body<B: TorqueDriven>(
        &self,
        drive: &DriveEnd,
        dt: f64,
        n: usize,
        body: &mut B,
        stop_from: Option<f64>,
    ) -> (ShaftStep, f64) {
        let h = dt / n as f64;
        let mut impulses = ShaftStep::default();
        for i in 0..n {
            let u = i as f64 * h;
            let (angle, rate) = (body.angle(), body.rate());
            let applied = self.torque(drive, u, angle, rate);
            let slope = self.stiffness * (drive.rate_at(u) - rate) + self.damping * drive.acceleration;
            let (friction, taken) = match stop_from {
                None => (body.advance_under(applied, slope, h), h),
                Some(earliest) => body.advance_to_change(applied, slope, h, (earliest - u).max(f64::MIN_POSITIVE)),
            };
            impulses.shaft_impulse += (applied + 0.5 * slope * taken) * taken;
            impulses.friction_impulse += friction * taken;
            if let Some(earliest) = stop_from {
                let changed = sign(body.rate()) != sign(rate);
                if changed && (i + 1 < n || taken < h) && u + taken >= earliest {
                    return (impulses, u + taken);
                }
            }
        }
        (impulses, dt)
    }
}

/// The largest `h*max(sqrt(k/J), d/J)` a shaft port accepts for its internal
/// step: 0.5 keeps the shaft's phase error at about 1 % per radian (see [`Shaft::step_body`])
/// and the explicit damper well inside its stability bound of 2.
pub const SUBSTEP_LIMIT: f64 = 0.5;

impl<F: RigidBodyFriction + Clone> TorqueDriven for FrictionInertia<F> {
    fn angle(&self) -> f64 {
        self.angle
    }
    fn rate(&self) -> f64 {
        self.rate
    }
    #[inline]
    fn advance_under(&mut self, applied: f64, slope: f64, h: f64) -> f64 {
        self.step_ramp(applied, slope, h);
        self.friction_torque
    }
    /// The interval taken again from its start to the instant the law
    /// locates, kept if it reproduces the change (a stop to `w = 0.0`).
    fn advance_to_change(&mut self, applied: f64, slope: f64, h: f64, earliest: f64) -> (f64, f64) {
        let saved = self.clone();
        let event = self.step_ramp(applied, slope, h);
        let sense = sign(self.rate);
        if let Some(at) = event.filter(|&at| sense != sign(saved.rate) && at >= earliest && at < h) {
            let full = std::mem::replace(self, saved);
            self.step_ramp(applied, slope, at);
            if sign(self.rate) == sense {
                return (self.friction_torque, at);
            }
            *self = full; // round-off at the instant: the whole interval
        }
        (self.friction_torque, h)
    }
}

/// The load `J` with static + Coulomb friction on a shaft `k`, `d`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ShaftLoad {
    /// Load inertia `J` (kg.m2), > 0.
    pub inertia: f64,
    /// Shaft torsional stiffness `k` (N.m/rad), > 0.
    pub stiffness: f64,
    /// Shaft torsional damping `d` (N.m.s/rad), >= 0.
    pub damping: f64,
    /// Load angle `phi` (rad).
    pub angle: f64,
    /// Load rate `w` (rad/s); exactly 0.0 while stuck.
    pub rate: f64,
    /// Torque the shaft applies to the drive, mean over the last step (N.m).
    pub drive_torque: f64,
    /// Friction torque on the load, mean over the last step (N.m).
    pub friction_torque: f64,
    /// Number of stops, breakaways and reversals in the last step.
    pub events: u32,
    /// Static and Coulomb levels (`F_s >= F_c >= 0`).
    pub law: ExactStaticCoulomb,
}

impl ShaftLoad {
    /// Torque of the shaft on the load for a drive end at `drive_angle`, `drive_rate`.
    #[inline]
    pub fn load_torque(&self, drive_angle: f64, drive_rate: f64) -> f64 {
        self.stiffness * (drive_angle - self.angle) + self.damping * (drive_rate - self.rate)
    }

    /// The free motion `slide` follows from a point where the load is at
    /// `phi`, `w`: the shaft's deflection `y` and the rate `v` about the
    /// sliding equilibrium (the drive end less the spring's share of the
    /// drive's acceleration and of the Coulomb level).
    #[inline]
    fn slide_start(&self, drive: &DriveEnd, t: f64, phi: f64, w: f64, direction: f64) -> (f64, f64) {
        let offset = (self.inertia * drive.acceleration + self.law.coulomb_torque * direction) / self.stiffness;
        (phi - (drive.angle_at(t) - offset), w - drive.rate_at(t))
    }

    /// Sliding solution `u` after a point where the load is at `phi`, `w`
    /// with the drive end at `(pd, wd)`: returns `(phi(u), w(u))`.
    #[inline]
    fn slide(&self, drive: &DriveEnd, t: f64, phi: f64, w: f64, direction: f64, u: f64) -> (f64, f64) {
        let (j, k, d) = (self.inertia, self.stiffness, self.damping);
        let offset = (j * drive.acceleration + self.law.coulomb_torque * direction) / k;
        let (y0, v0) = self.slide_start(drive, t, phi, w, direction);
        let s = -d / (2.0 * j);
        let q2 = s * s - k / j;
        let (c, sh) = exp_cosh_sinh(s, q2, u);
        let y = (c - s * sh) * y0 + sh * v0;
        let v = -(k / j) * sh * y0 + (c + s * sh) * v0;
        (drive.angle_at(t + u) - offset + y, drive.rate_at(t + u) + v)
    }

    /// The time between the points at which [`Self::step`] looks for a stop
    /// while the load slides (half a radian of the shaft's fastest motion,
    /// `sqrt(k/J) + d/J`): the step is exact at any length, and its work
    /// grows with `dt / grid_step()`, which a caller may bound.
    pub fn grid_step(&self) -> f64 {
        GRID_PHASE / ((self.stiffness / self.inertia).sqrt() + self.damping / self.inertia)
    }

    /// Advance by `dt` with the drive end moving as `drive` over it.
    pub fn step(&mut self, drive: DriveEnd, dt: f64) {
        self.advance(drive, dt, None);
    }

    /// [`Self::step`] that stops right after its first stop, breakaway or
    /// reversal at or after `earliest` and before `dt` (a simulator's early
    /// return at the event). Returns the first event's instant (s from the
    /// start, also one before `earliest`), the time taken (`dt` unless it
    /// stopped) and the sense of motion from there: 0 stuck, +-1 sliding
    /// (from `w = 0.0` at a breakaway or a reversal).
    ///
    /// `sense`: the sense of motion the step starts in where the load is at
    /// `w = 0.0` (the mode an earlier stop at a breakaway left): while the
    /// shaft torque passes the Coulomb level in that sense, the load slides
    /// on (it accelerates), instead of holding for an instant of rounding
    /// below the static level (new inputs at the breakaway) and breaking
    /// away again.
    pub fn step_to_event(&mut self, drive: DriveEnd, dt: f64, earliest: f64, sense: f64) -> (Option<f64>, f64, f64) {
        self.advance(drive, dt, Some((earliest, sense)))
    }

    /// The step of [`Self::step`]; with `stop_from`, stopping at its first
    /// event at or after that instant ([`Self::step_to_event`]).
    fn advance(&mut self, drive: DriveEnd, dt: f64, stop_from: Option<(f64, f64)>) -> (Option<f64>, f64, f64) {
        let stops = |at: f64| stop_from.is_some_and(|(earliest, _)| at >= earliest && at < dt);
        let mut first_event = None;
        let mut stopped = false;
        let (j, k, d) = (self.inertia, self.stiffness, self.damping);
        let (fs, fc) = (self.law.static_torque, self.law.coulomb_torque);
        let w_start = self.rate;
        let (mut t, mut phi, mut w) = (0.0_f64, self.angle, self.rate);
        let mut direction = sign(w);
        if let Some((_, sense)) = stop_from {
            let level = k * (drive.angle - phi) + d * drive.rate;
            if w == 0.0 && sense != 0.0 && level * sense > fc {
                direction = sense;
            }
        }
        let mut friction_impulse = 0.0;
        let mut events = 0;
        // The shaft's fastest motion, the scale of the search for stops.
        let speed = (k / j).sqrt() + d / j;
        // A slide is searched for its stop one window at a time, so that the
        // grid stays that fine over a step of any length; the phases a step
        // may take grow with its windows (a stick and a slip per shaft period
        // at most, about ten periods per window), so that no step of
        // physical motion ends short of `dt`. The cap only stops round-off
        // chatter; the caller bounds the work by the step's length
        // ([`ShaftLoad::grid_step`]).
        let window = WINDOW_PHASE / speed;
        let phases = ((dt / window).ceil() as u64).saturating_mul(64).saturating_add(256);
        for _ in 0..phases {
            let remaining = dt - t;
            if remaining <= 0.0 {
                break;
            }
            if direction == 0.0 {
                // Stuck: tau_s(t + u) = c0 + c1*u + c2*u^2.
                let c0 = k * (drive.angle_at(t) - phi) + d * drive.rate_at(t);
                let c1 = k * drive.rate_at(t) + d * drive.acceleration;
                let c2 = 0.5 * k * drive.acceleration;
                // At the level and moving outwards (a breakaway that fell
                // on the previous step's end) is a breakaway too.
                let outwards = c1 * sign(c0) > 0.0 || (c1 == 0.0 && c2 * sign(c0) > 0.0);
                if c0.abs() > fs || (c0.abs() == fs && outwards) {
                    direction = sign(c0);
                    events += 1;
                    first_event = first_event.or(Some(t));
                    if stops(t) {
                        stopped = true;
                        break;
                    }
                    continue;
                }
                let up = first_positive_root(c2, c1, c0 - fs, remaining);
                let down = first_positive_root(c2, c1, c0 + fs, remaining);
                let (u, next) = match (up, down) {
                    (Some(x), Some(y)) if y < x => (y, -1.0),
                    (Some(x), _) => (x, 1.0),
                    (None, Some(y)) => (y, -1.0),
                    (None, None) => (remaining, 0.0),
                };
                friction_impulse -= c0 * u + c1 * u * u / 2.0 + c2 * u * u * u / 3.0;
                t += u;
                if let Some((earliest, _)) = stop_from.filter(|_| t >= dt) {
                    // Stuck to the end, where a breakaway at the end, or one
                    // that the next step would find before its own `earliest`
                    // (within round-off of this instant), is one here: a step
                    // that starts at a breakaway does not stop for it.
                    let round_off_time = within_round_off(earliest, dt);
                    let level = k * (drive.angle_at(dt) - phi) + d * drive.rate_at(dt);
                    let rising = (k * drive.rate_at(dt) + d * drive.acceleration) * sign(level);
                    let noise = 4.0 * f64::EPSILON * fs;
                    if next != 0.0 || (rising > 0.0 && fs - level.abs() <= rising * round_off_time + noise) {
                        direction = if next != 0.0 { next } else { sign(level) };
                        events += 1;
                        first_event = first_event.or(Some(dt));
                    }
                }
                if next == 0.0 || t >= dt {
                    break;
                }
                direction = next;
                events += 1;
                first_event = first_event.or(Some(t));
                if stops(t) {
                    stopped = true;
                    break;
                }
                continue;
            }
            // Sliding: find the first u in (0, horizon] with w(u)*direction <= 0.
            // Between two points of the grid the rate may dip below zero and
            // back (a slip that ends just short of a shaft period lasts a
            // sliver below zero in the free solution): the rate's curvature
            // bounds that dip, |w''| <= speed^2*sqrt(E) with E = (k/J)*y^2 + v^2
            // about the sliding equilibrium, which only decreases (margin 2
            // for rounding), and an interval it cannot rule out is halved.
            let horizon = remaining.min(window);
            let (y0, v0) = self.slide_start(&drive, t, phi, w, direction);
            let curvature = 2.0 * speed * speed * ((k / j) * y0 * y0 + v0 * v0).sqrt();
            let g = |u: f64| self.slide(&drive, t, phi, w, direction, u).1 * direction;
            // From rest (a breakaway) the rate leaves zero with the slope
            // `rise` or, at the level itself (F_s = F_c), the curvature `bend`:
            // with |g^(3)| <= speed*curvature/2 it stays above zero up to
            // 4*rise/curvature, or 6*bend/(speed*curvature) (taken at a quarter).
            let mut lo = 0.0;
            if w == 0.0 {
                let rise = direction * (drive.acceleration - (k / j) * y0 - (d / j) * v0);
                let bend = direction * (-(k / j) * v0 + (d / j) * (k / j * y0 + d / j * v0));
                if rise >= 0.0 {
                    let by_rise = rise / curvature;
                    let by_bend = if bend > 0.0 { 1.5 * bend / (speed * curvature) } else { 0.0 };
                    lo = by_rise.max(by_bend).min(horizon);
                }
            }
            let mut g_lo = if lo == 0.0 { w * direction } else { g(lo) };
            // At least four points, each interval with its own budget of halvings.
            let n = (((horizon - lo) * speed / GRID_PHASE).ceil() as usize).max(4);
            let mut bracket = None;
            for i in 1..=n {
                let hi = if i == n { horizon } else { lo + (horizon - lo) / (n + 1 - i) as f64 };
                let g_hi = g(hi);
                bracket = first_crossing(&g, curvature, (lo, g_lo), (hi, g_hi), &mut { DIP_BUDGET });
                if bracket.is_some() {
                    break;
                }
                (lo, g_lo) = (hi, g_hi);
            }
            match bracket {
                None => {
                    // Still sliding at the window's end: on from there.
                    let (p, v) = self.slide(&drive, t, phi, w, direction, horizon);
                    friction_impulse -= fc * direction * horizon;
                    phi = p;
                    w = v;
                    if horizon == remaining {
                        // A stop that the next step would find before its own
                        // `earliest` (within round-off of this instant) is one
                        // here, as a breakaway is above.
                        if let Some((earliest, _)) = stop_from {
                            let round_off_time = within_round_off(earliest, dt);
                            let tau = k * (drive.angle_at(dt) - phi) + d * (drive.rate_at(dt) - w);
                            // (Its curvature's share: a glancing stop; and the
                            // rate's own round-off, against the drive's rate and
                            // the swing's.)
                            let slowing = (fc * direction - tau) / j * direction;
                            let swing = curvature / (2.0 * speed * speed);
                            let noise = 4.0 * f64::EPSILON * (drive.rate_at(dt).abs() + swing);
                            let reach = slowing.max(0.0) * round_off_time + 0.5 * curvature * round_off_time.powi(2);
                            if w * direction <= reach + noise {
                                w = 0.0;
                                events += 1;
                                let level = k * (drive.angle_at(dt) - phi) + d * drive.rate_at(dt);
                                direction = if level.abs() > fs { sign(level) } else { 0.0 };
                                first_event = first_event.or(Some(dt));
                            }
                        }
                        break;
                    }
                    t += horizon;
                }
                Some((mut lo, mut hi)) => {
                    // Bisect to the last bit: g(lo) > 0 >= g(hi).
                    loop {
                        let mid = 0.5 * (lo + hi);
                        if mid <= lo || mid >= hi {
                            break;
                        }
                        if g(mid) <= 0.0 {
                            hi = mid;
                        } else {
                            lo = mid;
                        }
                    }
                    let u = if hi >= remaining * (1.0 - END_TOLERANCE) { remaining } else { hi };
                    phi = self.slide(&drive, t, phi, w, direction, u).0;
                    w = 0.0;
                    friction_impulse -= fc * direction * u;
                    t += u;
                    events += 1;
                    let tau = k * (drive.angle_at(t) - phi) + d * drive.rate_at(t);
                    direction = if tau.abs() > fs { sign(tau) } else { 0.0 };
                    first_event = first_event.or(Some(t));
                    if stops(t) {
                        stopped = true;
                        break;
                    }
                }
            }
        }
        let dt = if stopped { t } else { dt };
        self.angle = phi;
        self.rate = w;
        self.friction_torque = friction_impulse / dt;
        // Momentum: int tau_s = J*(w_end - w_0) - int tau_f (tau_f as a torque on the load).
        self.drive_torque = -(j * (w - w_start) / dt - self.friction_torque);
        self.events = events;
        (first_event, dt, if w != 0.0 { sign(w) } else { direction })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(k: f64, d: f64, fs: f64, fc: f64) -> ShaftLoad {
        ShaftLoad {
            inertia: 1.0,
            stiffness: k,
            damping: d,
            law: ExactStaticCoulomb { static_torque: fs, coulomb_torque: fc },
            ..Default::default()
        }
    }

    /// Undamped, drive end at v from rest: stick F_s/(k v), then a harmonic
    /// slip of `(2 pi - 2 atan(B/v))/omega`, `B = (F_s - F_c) omega/k`, then
    /// a stick of `2 (F_s - F_c)/(k v)` (as `fmu_tests::cosim::Oscillator`).
    #[test]
    fn stick_slip_cycle_matches_the_closed_form_at_any_step() {
        let (k, v, fs, fc): (f64, f64, f64, f64) = (10.0, 0.5, 1.5, 1.0);
        let omega = k.sqrt();
        let b = (fs - fc) * omega / k;
        let first_stick = fs / (k * v);
        let slip = (2.0 * std::f64::consts::PI - 2.0 * (b / v).atan()) / omega;
        let stick = 2.0 * (fs - fc) / (k * v);
        // Closed-form rate while slipping: w = v (1 - cos th) + B sin th.
        let rate = |t: f64| {
            let s = t - first_stick;
            if s < 0.0 || s > slip {
                0.0
            } else {
                let th = omega * s;
                v * (1.0 - th.cos()) + b * th.sin()
            }
        };
        for dt in [1e-3, 0.02, 0.1, 0.13] {
            let mut body = load(k, 0.0, fs, fc);
            // End in the second stick (ceil: after the stop, and dt < stick/2 or it lands before the next breakaway).
            let n = ((first_stick + slip + 0.01) / dt).ceil() as usize;
            assert!((n as f64 * dt) < first_stick + slip + stick, "dt = {dt} skips the stick");
            let mut worst: f64 = 0.0;
            for i in 0..n {
                let t0 = i as f64 * dt;
                body.step(DriveEnd { angle: v * t0, rate: v, acceleration: 0.0 }, dt);
                let t = t0 + dt;
                worst = worst.max((body.rate - rate(t)).abs());
                if t > first_stick + slip + 1e-9 {
                    assert_eq!(body.rate, 0.0, "dt = {dt}, t = {t}");
                }
                if t < first_stick - 1e-12 {
                    assert_eq!(body.rate, 0.0);
                    // Stuck: the shaft holds the friction, mean torque on the drive = -k v (t0 + dt/2).
                    assert!((body.drive_torque + k * v * (t0 + 0.5 * dt)).abs() < 1e-12);
                }
            }
            assert!(worst < 1e-12, "dt = {dt}: rate error {worst}");
            // At the stop the shaft torque is 2 F_c - F_s.
            let tau = body.load_torque(v * n as f64 * dt, v);
            let expected = 2.0 * fc - fs + k * v * (n as f64 * dt - first_stick - slip);
            assert!((tau - expected).abs() < 1e-10, "dt = {dt}: {tau} vs {expected}");
        }
    }

    /// Damped slip with a ramping drive end, compared with the same motion
    /// stepped at 1/1000 of the step: the closed form is step independent.
    #[test]
    fn damped_and_accelerating_drive_is_step_independent() {
        for (k, d) in [(10.0, 0.5), (10.0, 6.32), (10.0, 20.0), (1e4, 3.0)] {
            let drive = DriveEnd { angle: 0.0, rate: 0.3, acceleration: 0.8 };
            let mut coarse = load(k, d, 1.5, 1.0);
            coarse.step(drive, 3.0);
            let mut fine = load(k, d, 1.5, 1.0);
            let (n, h) = (3000, 1e-3);
            let mut impulse = 0.0;
            for i in 0..n {
                let u = i as f64 * h;
                fine.step(
                    DriveEnd { angle: drive.angle_at(u), rate: drive.rate_at(u), acceleration: drive.acceleration },
                    h,
                );
                impulse += fine.drive_torque * h;
            }
            assert!((coarse.angle - fine.angle).abs() < 1e-10, "k {k} d {d}: {} vs {}", coarse.angle, fine.angle);
            assert!((coarse.rate - fine.rate).abs() < 1e-9, "k {k} d {d}: {} vs {}", coarse.rate, fine.rate);
            assert!((coarse.drive_torque * 3.0 - impulse).abs() < 1e-9);
        }
    }

    /// Stuck with a quadratic drive: breakaway where k*a*t^2/2 + d*a*t = F_s.
    #[test]
    fn breakaway_under_an_accelerating_drive_at_the_root() {
        let (k, d, a, fs): (f64, f64, f64, f64) = (10.0, 2.0, 4.0, 1.5);
        let t_break = (-d * a + ((d * a).powi(2) + 2.0 * k * a * fs).sqrt()) / (k * a);
        let mut body = load(k, d, fs, 1.0);
        body.step(DriveEnd { angle: 0.0, rate: 0.0, acceleration: a }, t_break * (1.0 - 1e-9));
        assert_eq!(body.rate, 0.0);
        let mut body = load(k, d, fs, 1.0);
        body.step(DriveEnd { angle: 0.0, rate: 0.0, acceleration: a }, t_break * (1.0 + 1e-6));
        assert!(body.rate > 0.0);
    }

    /// `Shaft::step_body` without friction, the drive end at v from rest:
    /// exact `w = v*(1 - cos(omega*t))`. Neither growth nor decay of the
    /// swing, and a phase error within (h*omega)^2/24 per radian, at any
    /// communication step (the substeps are what counts).
    #[test]
    fn the_substepped_shaft_keeps_the_swing_and_its_phase() {
        let (k, j, v): (f64, f64, f64) = (10.0, 1.0, 0.5);
        let omega = (k / j).sqrt();
        let shaft = Shaft { stiffness: k, damping: 0.0 };
        for (h, dt) in [(0.005_f64, 0.02_f64), (0.0158, 0.0158), (0.0158, 0.158)] {
            let mut body =
                FrictionInertia::new(crate::laws::coulomb::ConventionalCoulomb { coulomb_torque: 0.0 }, j, 0.0, 0.0);
            let n = (dt / h).round() as usize;
            let steps = (10.0 / dt).round() as usize;
            let (mut worst, mut impulse_error) = (0.0_f64, 0.0_f64);
            for i in 0..steps {
                let t0 = i as f64 * dt;
                let w0 = body.rate;
                let (s, _) =
                    shaft.step_body(&DriveEnd { angle: v * t0, rate: v, acceleration: 0.0 }, dt, n, &mut body, None);
                // Momentum: the shaft's impulse is what the body received.
                impulse_error = impulse_error.max((s.shaft_impulse - j * (body.rate - w0)).abs());
                let t = t0 + dt;
                worst = worst.max((body.rate - v * (1.0 - (omega * t).cos())).abs());
                assert!(body.rate <= 2.0 * v * (1.0 + 1e-9) + 1e-12, "h = {h}: the swing grew to {}", body.rate);
            }
            let bound = v * (h * omega).powi(2) / 24.0 * omega * 10.0 * 1.5;
            assert!(worst <= bound, "h = {h}, dt = {dt}: rate error {worst} > {bound}");
            assert!(impulse_error < 1e-12, "{impulse_error}");
        }
    }

    /// The stick-slip cycle of an undamped shaft wound at a constant rate,
    /// in closed form: from rest, breakaway at `F_s/(k*v)`; each slip lasts
    /// `(2*pi - 2*atan((F_s - F_c)*omega/(k*v)))/omega` and ends at the
    /// shaft torque `2*F_c - F_s`; each stick `2*(F_s - F_c)/(k*v)`. During a
    /// slip `w = v*(1 - cos(omega*u)) + (F_s - F_c)/k*omega*sin(omega*u)`.
    fn wound_shaft_rate(k: f64, j: f64, fs: f64, fc: f64, v: f64, t: f64) -> f64 {
        let omega = (k / j).sqrt();
        let slip = (2.0 * std::f64::consts::PI - 2.0 * ((fs - fc) * omega / (k * v)).atan()) / omega;
        let (breakaway, period) = (fs / (k * v), slip + 2.0 * (fs - fc) / (k * v));
        let u = (t - breakaway).rem_euclid(period);
        if t < breakaway || u >= slip {
            0.0
        } else {
            v * (1.0 - (omega * u).cos()) + (fs - fc) / k * omega * (omega * u).sin()
        }
    }

    /// Every step length gives the closed-form cycle, one step of 10 s
    /// (3183 stops and breakaways) as 1e5 steps of 0.1 ms: a stiff shaft
    /// (omega = 1000 rad/s) whose slips end 0.2 ms short of a shaft period,
    /// where the free solution dips below zero for just those 0.2 ms, and a
    /// soft one over 1000 s. Until this test, a step longer than about the
    /// dip stepped over it (0.1 ms steps exact, 1 ms steps 6.5 mrad/s off at
    /// 1 s and 79 mrad/s at 10 s), and a step ended its motion after 256
    /// phases (one 1000 s step of the soft shaft left the load at 128 rad
    /// where 0.1 s steps had it at 500 rad).
    #[test]
    fn every_step_length_gives_the_closed_form_cycle() {
        let (fs, fc, v) = (1.5, 1.0, 0.5);
        for (k, j, horizon, steps) in [
            (1e4, 0.01, 10.0_f64, &[1e-4, 1e-3, 1e-2, 0.1, 1.0, 10.0][..]),
            (10.0, 1.0, 1000.0, &[0.1, 8.0, 1000.0][..]),
        ] {
            for &h in steps {
                let mut body = load(k, 0.0, fs, fc);
                body.inertia = j;
                let n = (horizon / h).round() as usize;
                let mut events = 0;
                for i in 0..n {
                    body.step(DriveEnd { angle: v * h * i as f64, rate: v, acceleration: 0.0 }, h);
                    events += body.events;
                }
                let exact = wound_shaft_rate(k, j, fs, fc, v, horizon);
                assert!(
                    (body.rate - exact).abs() < 1e-8,
                    "k = {k}, {n} steps of {h} s: rate {} at {horizon} s, exactly {exact} ({events} events)",
                    body.rate
                );
                assert!(events > 300, "k = {k}, h = {h}: {events} events");
            }
        }
    }

    /// One step is as exact as the same interval in 200 steps, for drives
    /// that wind, reverse and accelerate hard (up to 1000 rad/s^2), with and
    /// without damping, from rest or moving, with a static level above the
    /// Coulomb one and equal to it: 1600 cases. A plain grid of four points
    /// per step missed 40 stops of these (a load that reverses for a few
    /// milliseconds); the search that halves where a dip is possible found
    /// them, and a first version of it chattered through 320 phases where
    /// F_s = F_c left the rate at round-off after a stop.
    #[test]
    fn one_step_is_as_exact_as_many() {
        for fs in [1.5, 1.0] {
            for case in 0..800_u32 {
                let x = |k: u32| f64::from(case.wrapping_mul(7919).wrapping_add(k * 104_729) % 1000) / 1000.0;
                let drive = DriveEnd {
                    angle: 0.1 * (x(2) - 0.5),
                    rate: 10.0 * (x(3) - 0.5),
                    acceleration: if case % 5 == 0 { 0.0 } else { 2000.0 * (x(4) - 0.5) },
                };
                let h = [0.001, 0.005, 0.02, 0.1][case as usize % 4];
                let mut one = load(100.0, if case % 3 == 0 { 0.0 } else { 5.0 * x(1) }, fs, 1.0);
                one.rate = if case % 2 == 0 { 0.0 } else { 5.0 * (x(5) - 0.5) };
                let mut many = one;
                one.step(drive, h);
                let n = 200;
                for i in 0..n {
                    let u = h * i as f64 / n as f64;
                    let at = DriveEnd { angle: drive.angle_at(u), rate: drive.rate_at(u), ..drive };
                    many.step(at, h / n as f64);
                }
                assert!(
                    (one.rate - many.rate).abs() < 1e-9 && (one.angle - many.angle).abs() < 1e-9 && one.events < 16,
                    "F_s = {fs}, case {case}, {drive:?} over {h} s: one step {} rad, {} rad/s ({} events); \
                     {n} steps {} rad, {} rad/s",
                    one.angle,
                    one.rate,
                    one.events,
                    many.angle,
                    many.rate
                );
            }
        }
    }

    /// Coulomb (F_s = F_c): at rest below F_c it holds; beyond it slides.
    #[test]
    fn coulomb_law_is_the_static_law_with_equal_levels() {
        let mut body = load(10.0, 0.0, 1.0, 1.0);
        body.step(DriveEnd { angle: 0.099, rate: 0.0, acceleration: 0.0 }, 1.0);
        assert_eq!((body.rate, body.angle), (0.0, 0.0));
        assert!((body.friction_torque + 0.99).abs() < 1e-12);
    }

    /// The stick-slip cycle of the test above through `step_to_event` at
    /// 0.7 s steps: each step stops at the breakaway, the stop and the next
    /// breakaway at their closed-form instants, the rate exactly 0.0 at a
    /// stop and the sense of motion from there as the mode.
    #[test]
    fn steps_to_events_stop_at_the_closed_form_instants() {
        let (k, fs, fc, v) = (10.0, 1.5, 1.0, 0.5);
        let omega = (k / 1.0_f64).sqrt();
        let breakaway = fs / (k * v);
        let slip = (2.0 * std::f64::consts::PI - 2.0 * ((fs - fc) * omega / k / v).atan()) / omega;
        let expected = [(breakaway, 1.0), (breakaway + slip, 0.0), (breakaway + slip + 2.0 * (fs - fc) / (k * v), 1.0)];
        let mut body = load(k, 0.0, fs, fc);
        let (mut t, mut sense, mut seen) = (0.0_f64, 0.0, Vec::new());
        while seen.len() < expected.len() && t < 5.0 {
            let drive = DriveEnd { angle: v * t, rate: v, acceleration: 0.0 };
            let (_, taken, new_sense) = body.step_to_event(drive, 0.7, f64::MIN_POSITIVE, sense);
            t += taken;
            if taken < 0.7 {
                seen.push((t, new_sense, body.rate));
            }
            sense = if body.rate != 0.0 { sign(body.rate) } else { new_sense };
        }
        assert_eq!(seen.len(), expected.len(), "{seen:?}");
        for ((t, sense, w), (t_exact, sense_exact)) in seen.iter().zip(expected) {
            assert!((t - t_exact).abs() < 1e-12, "stopped at {t}, exactly {t_exact}");
            assert_eq!((*sense, *w), (sense_exact, 0.0), "at {t}");
        }
    }

    /// A master that brings an FMU back to an early return's instant steps
    /// it again from the step's start to exactly there: that step ends at
    /// the event, not a hair before it (where the next step would meet it at
    /// its very start, before its `earliest`, and take it without a stop).
    /// Every breakaway and stop of 400 stick-slip cycles (drive rates,
    /// levels) is taken again to its instant: the event is at the end, in
    /// the same sense of motion, with the rate exactly 0.0; and to one
    /// rounding of the absolute time short of it (`t + at` as another FMU's
    /// clock reads it, less `t`): there the event is at the step's end,
    /// or the next step stops at it.
    #[test]
    fn a_step_to_an_early_return_instant_ends_at_the_event() {
        let mut checked = 0;
        for i in 0..400 {
            let (k, v) = (10.0 + 0.37 * i as f64, 0.3 + 0.011 * i as f64);
            let (fs, fc) = (1.5, 1.0 - 0.002 * (i % 100) as f64);
            let mut body = load(k, 0.01 * (i % 3) as f64, fs, fc);
            let (mut t, mut sense) = (0.0_f64, 0.0);
            for _ in 0..4 {
                let drive = DriveEnd { angle: v * t, rate: v, acceleration: 0.0 };
                let earliest = (t * f64::EPSILON).max(f64::MIN_POSITIVE);
                let before = body.clone();
                let (_, taken, new_sense) = body.step_to_event(drive, 3.0, earliest, sense);
                if taken < 3.0 {
                    let mut again = before;
                    let (event, to, again_sense) = again.step_to_event(drive, taken, earliest, sense);
                    assert_eq!(to, taken, "case {i} at {t}");
                    assert_eq!(event, Some(taken), "case {i} at {t}: the event is not at the step's end");
                    assert_eq!((again_sense, again.rate), (new_sense, body.rate), "case {i} at {t}");
                    // Just short of it: the event at this step's end, or
                    // stopped at in the next.
                    let short = taken - (t + taken) * f64::EPSILON;
                    let mut again = before;
                    let (event, _, again_sense) = again.step_to_event(drive, short, earliest, sense);
                    if event.is_none() {
                        let earliest = ((t + short) * f64::EPSILON).max(f64::MIN_POSITIVE);
                        let was = if again.rate != 0.0 { sign(again.rate) } else { again_sense };
                        // (A microsecond: no later event in it.)
                        let (event, to, next_sense) = again.step_to_event(drive.moved_by(short), 1e-6, earliest, was);
                        let changed = (if again.rate != 0.0 { sign(again.rate) } else { next_sense }) != was;
                        let stopped = to < 1e-6 && event.is_some_and(|at| at >= earliest);
                        assert!(!changed || stopped, "case {i} at {t}: the next step changed the motion unseen");
                    } else {
                        assert_eq!(event, Some(short), "case {i} at {t}");
                    }
                    checked += 1;
                }
                t += taken;
                sense = if body.rate != 0.0 { sign(body.rate) } else { new_sense };
            }
        }
        assert!(checked > 800, "{checked} events");
    }
}
