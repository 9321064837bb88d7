//! A chain of inertias coupled by friction clutches, locking and sliding in
//! any combination (the 1-D blog's open question; the configuration of the
//! Modelica Standard Library's CoupledClutches example).

use crate::vocabulary::sign;
use serde::{Deserialize, Serialize};

/// Clutch state: the `mode` output's codes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClutchMode {
    Backward,
    Locked,
    Forward,
    #[default]
    Free,
}

impl ClutchMode {
    /// -1 sliding backward, 0 locked, +1 sliding forward, 2 free.
    pub fn code(self) -> i32 {
        match self {
            ClutchMode::Backward => -1,
            ClutchMode::Locked => 0,
            ClutchMode::Forward => 1,
            ClutchMode::Free => 2,
        }
    }
}

/// `N` inertias in a chain, clutch `k` between bodies `k` and `k + 1`.
///
/// Each fixed step, with torques and clutch capacities held, is integrated
/// event by event:
/// 1. Clutches whose bodies turn at exactly the same speed are candidates to
///    stick. Every combination of them is tried (at most 2^(N-1)): locked
///    clutches merge bodies into rigid groups; the others slide with their
///    sliding capacity in the sense in which the group dynamics would move
///    them apart. A combination is consistent when every locked clutch's
///    torque is within its static capacity and every released candidate does
///    separate the way it is assumed to; the consistent combination with the
///    most locked clutches is taken (so a clutch that can hold, holds).
/// 2. Under that combination every body's acceleration is constant, so each
///    sliding clutch's relative speed is linear in time: the first zero
///    crossing inside the step is a closed-form instant. Every body is
///    integrated exactly (rate AND angle) to it; the two sides of the
///    clutch take the speed that conserves their momentum (bit-identical);
///    step 1 then decides at that instant whether it locks or slides the
///    other way, and the step goes on to its end.
///
/// Angles are exact to rounding through any number of locks and reversals
/// inside a step (the former end-of-step lock integrated them with the
/// trapezoid rule, off by up to `|a_rel|*dt^2/8` per lock).
///
/// The state lives in fixed-size arrays (first `bodies` entries used), so a
/// chain is `Copy`: stepping and saving it (an FMU keeps a copy per step to
/// roll back a failed one) allocate nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ClutchChain {
    /// Number of bodies, 2 ..= [`MAX_BODIES`].
    pub bodies: usize,
    pub inertia: [f64; MAX_BODIES],
    pub angle: [f64; MAX_BODIES],
    pub rate: [f64; MAX_BODIES],
    /// Torque transmitted by clutch k from body k to body k+1, averaged over the last step.
    pub clutch_torque: [f64; MAX_BODIES],
    pub mode: [ClutchMode; MAX_BODIES],
}

/// Longest chain: the step works on fixed-size arrays of this length, so it
/// allocates nothing (2^(MAX_BODIES - 1) lock combinations at worst).
pub const MAX_BODIES: usize = 16;

type Bodies = [f64; MAX_BODIES];

/// Torques on each body from external torques and the given clutch torques.
fn body_torques(external: &[f64], clutch: &[f64]) -> Bodies {
    let mut t = [0.0; MAX_BODIES];
    t[..external.len()].copy_from_slice(external);
    for (k, &c) in clutch.iter().enumerate() {
        t[k] -= c;
        t[k + 1] += c;
    }
    t
}

/// The lock combination chosen at an instant: which clutches are locked,
/// the clutch torques and the body accelerations.
struct Combination {
    locked_count: usize,
    locked: [bool; MAX_BODIES],
    torque: Bodies,
    acceleration: Bodies,
}

/// Most events (locks, reversals) located inside one step; past it the
/// step's remainder runs under the last combination (degenerate data only:
/// every clutch locks or reverses at most a few times per step).
const MAX_EVENTS: usize = 4 * MAX_BODIES;

impl ClutchChain {
    /// A chain of `inertia.len()` bodies (2 ..= [`MAX_BODIES`]) at angle 0,
    /// clutches free.
    pub fn new(inertia: &[f64], rate: &[f64]) -> Self {
        let n = inertia.len();
        assert!((2..=MAX_BODIES).contains(&n) && rate.len() == n, "a chain has 2 to {MAX_BODIES} bodies");
        let mut chain = Self { bodies: n, ..Self::default() };
        chain.inertia[..n].copy_from_slice(inertia);
        chain.rate[..n].copy_from_slice(rate);
        chain
    }

    /// Accelerations and locked-clutch torques for a given locked set, with
    /// the given torques on the non-locked clutches.
    fn solve(&self, external: &[f64], locked: &[bool], sliding: &[f64]) -> (Bodies, Bodies) {
        let n = self.bodies;
        let mut free_torques = [0.0; MAX_BODIES];
        for (k, torque) in free_torques.iter_mut().enumerate().take(n - 1) {
            *torque = if locked[k] { 0.0 } else { sliding[k] };
        }
        let t = body_torques(external, &free_torques[..n - 1]);
        let mut acceleration = [0.0; MAX_BODIES];
        let mut torque = free_torques;
        let mut start = 0;
        while start < n {
            let mut end = start;
            while end < n - 1 && locked[end] {
                end += 1;
            }
            let j: f64 = self.inertia[start..=end].iter().sum();
            let a = t[start..=end].iter().sum::<f64>() / j;
            acceleration[start..=end].iter_mut().for_each(|x| *x = a);
            // Locked clutch k inside the group carries what bodies start..=k need beyond their own torques.
            let (mut tsum, mut jsum) = (0.0, 0.0);
            for k in start..end {
                tsum += t[k];
                jsum += self.inertia[k];
                torque[k] = tsum - jsum * a;
            }
            start = end + 1;
        }
        (acceleration, torque)
    }

    /// The combination of locked and sliding clutches at the present
    /// speeds (step 1 of the type's description).
    fn combination(&self, external: &[f64], sliding_capacity: &[f64], static_capacity: &[f64]) -> Combination {
        let m = self.bodies - 1;
        let engaged = |k: usize| sliding_capacity[k] > 0.0;
        let relative = |k: usize| self.rate[k] - self.rate[k + 1];
        let mut candidates = [0usize; MAX_BODIES];
        let mut candidate_count = 0;
        for k in (0..m).filter(|&k| relative(k) == 0.0 && engaged(k)) {
            candidates[candidate_count] = k;
            candidate_count += 1;
        }
        let candidates = &candidates[..candidate_count];
        // Torques of clutches that are already sliding.
        let mut base = [0.0; MAX_BODIES];
        for k in (0..m).filter(|&k| engaged(k)) {
            base[k] = sliding_capacity[k] * sign(relative(k));
        }
        let mut best: Option<Combination> = None;
        for mask in 0..(1u32 << candidates.len()) {
            let locked_count = mask.count_ones() as usize;
            if best.as_ref().is_some_and(|b| locked_count <= b.locked_count) {
                continue;
            }
            let mut locked = [false; MAX_BODIES];
            for (i, &k) in candidates.iter().enumerate() {
                locked[k] = mask & (1 << i) != 0;
            }
            // Released candidates: slide in the sense the motion would take
            // them with that clutch carrying no torque, then check the sense holds.
            let mut sliding = base;
            let (a0, _) = self.solve(external, &locked, &sliding);
            let mut consistent = true;
            for &k in candidates {
                if !locked[k] {
                    sliding[k] = sliding_capacity[k] * sign(a0[k] - a0[k + 1]);
                }
            }
            let (acceleration, torque) = self.solve(external, &locked, &sliding);
            for &k in candidates {
                if locked[k] {
                    consistent &= torque[k].abs() <= static_capacity[k];
                } else {
                    let s = sign(acceleration[k] - acceleration[k + 1]);
                    consistent &= s != 0.0 && s == sign(sliding[k]);
                }
            }
            if consistent {
                best = Some(Combination { locked_count, locked, torque, acceleration });
            }
        }
        best.unwrap_or_else(|| {
            // No consistent combination (degenerate data): let every candidate slide.
            let locked = [false; MAX_BODIES];
            let (acceleration, torque) = self.solve(external, &locked, &base);
            Combination { locked_count: 0, locked, torque, acceleration }
        })
    }

    /// Advance by `dt` with external torques on each body, sliding
    /// capacities and static capacities per clutch (all held over the step),
    /// event by event (see the type's description). Allocation-free.
    pub fn step(&mut self, external: &[f64], sliding_capacity: &[f64], static_capacity: &[f64], dt: f64) {
        self.advance(external, sliding_capacity, static_capacity, dt, None);
    }

    /// [`Self::step`] that stops right after the first zero crossing of a
    /// sliding clutch's relative speed (a lock or a reversal) at or after
    /// `earliest` and short of `dt` (a simulator's early return at the
    /// event). Returns the time taken (`dt` unless it stopped). A clutch
    /// breaks loose only at a step's start (its torques are held over a
    /// step), so crossings are the events inside a step.
    pub fn step_to_event(
        &mut self,
        external: &[f64],
        sliding_capacity: &[f64],
        static_capacity: &[f64],
        dt: f64,
        earliest: f64,
    ) -> f64 {
        self.advance(external, sliding_capacity, static_capacity, dt, Some(earliest))
    }

    /// The step of [`Self::step`]; with `stop_from`, stopping at its first
    /// crossing at or after that instant.
    fn advance(
        &mut self,
        external: &[f64],
        sliding_capacity: &[f64],
        static_capacity: &[f64],
        dt: f64,
        stop_from: Option<f64>,
    ) -> f64 {
        let n = self.bodies;
        let m = n - 1;
        let engaged = |k: usize| sliding_capacity[k] > 0.0;
        let mut elapsed = 0.0;
        // Clutch torques integrated over the step, and the torques themselves
        // while one combination covers the whole step.
        let mut torque_impulse = [0.0; MAX_BODIES];
        let mut whole_step: Option<Bodies> = None;
        let mut last;
        let mut events = 0;
        let mut stopped = false;
        loop {
            let remaining = dt - elapsed;
            last = self.combination(external, sliding_capacity, static_capacity);
            if remaining <= 0.0 {
                break;
            }
            let Combination { locked, torque, acceleration: a, .. } = &last;
            // First zero crossing of a sliding clutch's relative speed; a
            // crossing a rounding error past the end is one at the end.
            let mut u = remaining;
            let mut event = None;
            if events < MAX_EVENTS {
                for k in (0..m).filter(|&k| engaged(k) && !locked[k]) {
                    let v = self.rate[k] - self.rate[k + 1];
                    if let Some(c) = crate::laws::exact::first_positive_root(0.0, a[k] - a[k + 1], v, u) {
                        (u, event) = (c, Some(k));
                    }
                }
            }
            if elapsed == 0.0 && event.is_none() {
                whole_step = Some(*torque);
            }
            let before = self.rate;
            for ((angle, rate), a) in self.angle.iter_mut().zip(&mut self.rate).zip(a).take(n) {
                *angle += *rate * u + 0.5 * a * u * u;
                *rate += a * u;
            }
            for (impulse, torque) in torque_impulse.iter_mut().zip(torque).take(m) {
                *impulse += torque * u;
            }
            elapsed += u;
            // The clutch of the event, and every sliding clutch whose
            // relative speed reached zero too (several may, at one instant):
            // its two sides, through clutches locked now, take the speed that
            // conserves their momentum.
            let mut joined = *locked;
            for k in 0..m {
                let (v0, v1) = (before[k] - before[k + 1], self.rate[k] - self.rate[k + 1]);
                let crossed = event == Some(k) || (engaged(k) && v0 != 0.0 && v0 * v1 <= 0.0);
                if !joined[k] && crossed {
                    self.join(&mut joined, k);
                }
            }
            if event.is_none() {
                break;
            }
            events += 1;
            if stop_from.is_some_and(|earliest| elapsed >= earliest && elapsed < dt) {
                last = self.combination(external, sliding_capacity, static_capacity);
                stopped = true;
                break;
            }
        }
        let dt = if stopped { elapsed } else { dt };
        let torque = match whole_step {
            Some(torque) => torque,
            None => torque_impulse.map(|x| x / dt),
        };
        self.clutch_torque[..m].copy_from_slice(&torque[..m]);
        self.set_modes(&last, sliding_capacity);
        dt
    }

    /// The modes a step from now would start in (the combination that holds
    /// for the torques and capacities now), applied now: a locked clutch
    /// whose torque passes its static capacity slides from here. Whether any
    /// mode changed.
    pub fn settle_modes(&mut self, external: &[f64], sliding_capacity: &[f64], static_capacity: &[f64]) -> bool {
        let before = self.mode;
        let now = self.combination(external, sliding_capacity, static_capacity);
        self.set_modes(&now, sliding_capacity);
        before != self.mode
    }

    /// The modes a combination leaves: free where not engaged, locked, or
    /// sliding in the sense of the relative speed (of the torque at equal speeds).
    fn set_modes(&mut self, last: &Combination, sliding_capacity: &[f64]) {
        for k in 0..self.bodies - 1 {
            self.mode[k] = if sliding_capacity[k] <= 0.0 {
                ClutchMode::Free
            } else if last.locked[k] && self.rate[k] == self.rate[k + 1] {
                ClutchMode::Locked
            } else if self.rate[k] > self.rate[k + 1] || (self.rate[k] == self.rate[k + 1] && last.torque[k] > 0.0) {
                ClutchMode::Forward
            } else {
                ClutchMode::Backward
            };
        }
    }

    /// Clutch `k`'s two sides, through the clutches `joined` already
    /// holds, take the speed that conserves their momentum (bit-identical).
    fn join(&mut self, joined: &mut [bool; MAX_BODIES], k: usize) {
        let m = self.bodies - 1;
        joined[k] = true;
        let (mut left, mut right) = (k, k + 1);
        while left > 0 && joined[left - 1] {
            left -= 1;
        }
        while right < m && joined[right] {
            right += 1;
        }
        let range = left..=right;
        let momentum: f64 = self.inertia[range.clone()].iter().zip(&self.rate[range.clone()]).map(|(j, w)| j * w).sum();
        let common = momentum / self.inertia[range.clone()].iter().sum::<f64>();
        self.rate[range].iter_mut().for_each(|w| *w = common);
    }

    /// Model Exchange, between events: the accelerations and clutch torques
    /// under the present `mode`s (locked groups rigid, sliding clutches at
    /// their sliding capacity in their mode's sense, free ones carrying
    /// nothing), whatever the rates do until the next event.
    pub fn accelerations_in_modes(&self, external: &[f64], sliding_capacity: &[f64]) -> (Bodies, Bodies) {
        let m = self.bodies - 1;
        let mut locked = [false; MAX_BODIES];
        let mut sliding = [0.0; MAX_BODIES];
        for k in 0..m {
            match self.mode[k] {
                ClutchMode::Locked => locked[k] = true,
                ClutchMode::Forward => sliding[k] = sliding_capacity[k].max(0.0),
                ClutchMode::Backward => sliding[k] = -sliding_capacity[k].max(0.0),
                ClutchMode::Free => {}
            }
        }
        self.solve(external, &locked, &sliding)
    }

    /// Model Exchange, at an event: a sliding clutch whose relative speed
    /// has reached 0 against its mode's sense joins its two sides (momentum
    /// conserved); then the modes are decided as a step decides them at its
    /// start, over every combination of the clutches at equal speeds.
    pub fn settle(&mut self, external: &[f64], sliding_capacity: &[f64], static_capacity: &[f64]) {
        let m = self.bodies - 1;
        let mut joined = [false; MAX_BODIES];
        for k in 0..m {
            joined[k] = self.mode[k] == ClutchMode::Locked && sliding_capacity[k] > 0.0;
        }
        for k in 0..m {
            let v = self.rate[k] - self.rate[k + 1];
            let stopped = match self.mode[k] {
                ClutchMode::Forward => v <= 0.0,
                ClutchMode::Backward => v >= 0.0,
                _ => false,
            };
            // (A locked group the solver let drift apart by rounding is
            // joined again too.)
            let drifted = joined[k] && v != 0.0;
            if (stopped && sliding_capacity[k] > 0.0 && !joined[k]) || drifted {
                self.join(&mut joined, k);
            }
        }
        let last = self.combination(external, sliding_capacity, static_capacity);
        self.set_modes(&last, sliding_capacity);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_bodies_behave_like_the_two_inertia_clutch() {
        let mut chain = ClutchChain::new(&[1.0, 1.0], &[1.0, 0.0]);
        let mut pair = crate::plants::clutch::TwoInertiaClutch::new(1.0, 1.0, 1.0, 0.0);
        for _ in 0..200 {
            chain.step(&[0.0, 0.0], &[10.0], &[11.0], 0.01);
            pair.step(0.0, 0.0, 10.0, 0.01);
            assert!((chain.rate[0] - pair.rate1).abs() < 1e-12 && (chain.rate[1] - pair.rate2).abs() < 1e-12);
        }
        assert_eq!(chain.mode[0], ClutchMode::Locked);
        assert_eq!(chain.rate[0], chain.rate[1]);
    }

    #[test]
    fn a_locked_group_moves_as_one_body_within_capacity() {
        // Three bodies at rest, all clutches able to hold: a drive torque of
        // 3 N.m on body 0 accelerates all three together at 1 rad/s^2.
        let mut chain = ClutchChain::new(&[1.0, 1.0, 1.0], &[0.0; 3]);
        chain.step(&[3.0, 0.0, 0.0], &[10.0, 10.0], &[11.0, 11.0], 0.01);
        assert_eq!(chain.mode[..2], [ClutchMode::Locked, ClutchMode::Locked]);
        assert!(chain.rate[..3].iter().all(|&w| w == chain.rate[0]));
        assert!((chain.rate[0] - 0.01).abs() < 1e-15);
        assert!((chain.clutch_torque[0] - 2.0).abs() < 1e-12 && (chain.clutch_torque[1] - 1.0).abs() < 1e-12);
        // 30 N.m: clutch 0 would need 20 N.m > 11: it slips, clutch 1 (10 N.m needed... 5) holds.
        let mut chain = ClutchChain::new(&[1.0, 1.0, 1.0], &[0.0; 3]);
        chain.step(&[30.0, 0.0, 0.0], &[10.0, 10.0], &[11.0, 11.0], 0.01);
        assert_eq!(chain.mode[..2], [ClutchMode::Forward, ClutchMode::Locked]);
        assert_eq!(chain.clutch_torque[0], 10.0);
        assert!((chain.clutch_torque[1] - 5.0).abs() < 1e-12);
    }

    /// Closed form of [`two_locks_in_sequence`]: rates and angles at `t`.
    fn two_locks_exact(t: f64) -> ([f64; 4], [f64; 4]) {
        // 0 <= t <= 0.6: clutch 1 slides body 1 down at -10, clutch 3 body 4
        // up at +10, bodies 2-3 held (net torque 0). Clutch 3 locks at 0.6
        // (w4 = 0); bodies 2-4 then gain 10/3 rad/s^2 until clutch 1 locks
        // at 0.9 s at the common speed 4/4 = 1 rad/s.
        if t <= 0.6 {
            ([10.0 - 10.0 * t, 0.0, 0.0, -6.0 + 10.0 * t], [10.0 * t - 5.0 * t * t, 0.0, 0.0, -6.0 * t + 5.0 * t * t])
        } else if t <= 0.9 {
            let s = t - 0.6;
            let (w, phi) = (10.0 / 3.0 * s, 5.0 / 3.0 * s * s);
            ([4.0 - 10.0 * s, w, w, w], [4.2 + 4.0 * s - 5.0 * s * s, phi, phi, -1.8 + phi])
        } else {
            let s = t - 0.9;
            ([1.0; 4], [4.95 + s, 0.15 + s, 0.15 + s, -1.65 + s])
        }
    }

    #[test]
    fn two_locks_in_sequence_are_exact_in_rate_and_angle_at_any_step() {
        // J = 1 each, w = (10, 0, 0, -6), every clutch sliding at 10 N.m,
        // holding 11: events at 0.6 s and 0.9 s, inside steps of 0.7, 0.25,
        // 1 (both in one step) and 0.4 s, at step ends for 0.3 s.
        for dt in [0.3, 0.7, 0.25, 1.0, 0.4, 1e-3] {
            let mut chain = ClutchChain::new(&[1.0; 4], &[10.0, 0.0, 0.0, -6.0]);
            let steps = (2.0 / dt) as usize;
            let mut worst: f64 = 0.0;
            for k in 1..=steps {
                chain.step(&[0.0; 4], &[10.0; 3], &[11.0; 3], dt);
                let (w, phi) = two_locks_exact(k as f64 * dt);
                for i in 0..4 {
                    worst = worst.max((chain.rate[i] - w[i]).abs()).max((chain.angle[i] - phi[i]).abs());
                }
                // No external torque: the momentum stays 4 within rounding
                // (each body's w + a*u rounds on its own: ~eps*|w| per body
                // and step, accumulating).
                let momentum: f64 = chain.rate[..4].iter().sum();
                assert!((momentum - 4.0).abs() <= 4.0 * k as f64 * f64::EPSILON * 10.0, "dt = {dt}: {momentum}");
            }
            eprintln!("dt = {dt}: worst rate/angle error {worst:e}");
            // Rounding of the angle sums accumulates over the steps.
            assert!(worst <= 1e-12 + steps as f64 * 2e-15, "dt = {dt}: worst {worst:e}");
            assert_eq!(chain.mode[..3], [ClutchMode::Locked; 3], "dt = {dt}");
            assert!(chain.rate[..4].iter().all(|&w| w == chain.rate[0]), "dt = {dt}: one speed, bit-identical");
        }
    }
}
