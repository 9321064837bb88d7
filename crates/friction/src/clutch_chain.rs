//! A chain of inertias coupled by friction clutches, locking and sliding in
//! any combination (the 1-D blog's open question; the configuration of the
//! Modelica Standard Library's CoupledClutches example).

use crate::sign;
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
/// Each fixed step, with torques and clutch capacities held:
/// 1. Clutches whose bodies turn at exactly the same speed are candidates to
///    stick. Every combination of them is tried (at most 2^(N-1)): locked
///    clutches merge bodies into rigid groups; the others slide with their
///    sliding capacity in the sense in which the group dynamics would move
///    them apart. A combination is consistent when every locked clutch's
///    torque is within its static capacity and every released candidate does
///    separate the way it is assumed to; the consistent combination with the
///    most locked clutches is taken (so a clutch that can hold, holds).
/// 2. A sliding clutch whose relative speed would cross zero within the
///    step locks at the end of the step if it can hold the bodies together
///    (the two sides then take the speed that conserves their momentum:
///    exact and bit-identical); otherwise it reverses, with the averaged
///    torque of Hill's Eq. (6).
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

/// The lock combination chosen for a step: which clutches are locked, the
/// clutch torques and the body accelerations.
struct Combination {
    locked_count: usize,
    locked: [bool; MAX_BODIES],
    torque: Bodies,
}

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
        for k in 0..n - 1 {
            free_torques[k] = if locked[k] { 0.0 } else { sliding[k] };
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

    /// Advance by `dt` with external torques on each body, sliding
    /// capacities and static capacities per clutch (all held over the step).
    /// Allocation-free.
    pub fn step(&mut self, external: &[f64], sliding_capacity: &[f64], static_capacity: &[f64], dt: f64) {
        let n = self.bodies;
        let m = n - 1;
        let mut v = [0.0; MAX_BODIES];
        for k in 0..m {
            v[k] = self.rate[k] - self.rate[k + 1];
        }
        let engaged = |k: usize| sliding_capacity[k] > 0.0;
        let mut candidates = [0usize; MAX_BODIES];
        let mut candidate_count = 0;
        for k in (0..m).filter(|&k| v[k] == 0.0 && engaged(k)) {
            candidates[candidate_count] = k;
            candidate_count += 1;
        }
        let candidates = &candidates[..candidate_count];
        // Torques of clutches that are already sliding.
        let mut base = [0.0; MAX_BODIES];
        for k in (0..m).filter(|&k| engaged(k)) {
            base[k] = sliding_capacity[k] * sign(v[k]);
        }
        let mut best: Option<Combination> = None;
        for mask in 0..(1u32 << candidates.len()) {
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
            let (a, torque) = self.solve(external, &locked, &sliding);
            for &k in candidates {
                if locked[k] {
                    consistent &= torque[k].abs() <= static_capacity[k];
                } else {
                    let s = sign(a[k] - a[k + 1]);
                    consistent &= s != 0.0 && s == sign(sliding[k]);
                }
            }
            let locked_count = mask.count_ones() as usize;
            if consistent && best.as_ref().is_none_or(|b| locked_count > b.locked_count) {
                best = Some(Combination { locked_count, locked, torque });
            }
        }
        let Combination { mut locked, mut torque, .. } = best.unwrap_or_else(|| {
            // No consistent combination (degenerate data): let every candidate slide.
            let locked = [false; MAX_BODIES];
            let (_, torque) = self.solve(external, &locked, &base);
            Combination { locked_count: 0, locked, torque }
        });
        // Tentative new speeds with these torques held over the step.
        let t = body_torques(external, &torque[..m]);
        let mut w = [0.0; MAX_BODIES];
        for i in 0..n {
            w[i] = self.rate[i] + dt * t[i] / self.inertia[i];
        }
        for k in 0..m {
            if locked[k] {
                w[k + 1] = w[k]; // the same group: make it bit-identical
            }
        }
        // Sliding clutches whose relative speed crosses zero within the step.
        for k in 0..m {
            if locked[k] || !engaged(k) || v[k] == 0.0 {
                continue;
            }
            let v_end = w[k] - w[k + 1];
            if sign(v_end) == sign(v[k]) {
                continue;
            }
            // Segments on each side (through locked clutches).
            let mut left = k;
            while left > 0 && locked[left - 1] {
                left -= 1;
            }
            let mut right = k + 1;
            while right < m && locked[right] {
                right += 1;
            }
            let j_left: f64 = self.inertia[left..=k].iter().sum();
            let j_right: f64 = self.inertia[k + 1..=right].iter().sum();
            // Can it hold once locked? The torque it would carry with the
            // two segments joined (the blog's sticking torque, generalised).
            let mut joined = locked;
            joined[k] = true;
            let needed = self.solve(external, &joined, &torque).1[k];
            // Momentum-conserving common speed, and the torque that, averaged
            // over the step, brings both sides to it.
            let common = (j_left * w[k] + j_right * w[k + 1]) / (j_left + j_right);
            let holding = torque[k] + j_left * (w[k] - common) / dt;
            if needed.abs() <= static_capacity[k] {
                for x in &mut w[left..=right] {
                    *x = common;
                }
                locked[k] = true;
                torque[k] = holding;
            } else {
                // Reversal: the torque flips at the crossing (Hill Eq. 6 average).
                let a_rel = (v_end - v[k]) / dt;
                let fraction = -v[k] / (a_rel * dt);
                let averaged = torque[k] * (2.0 * fraction - 1.0);
                let delta = averaged - torque[k];
                for x in &mut w[left..=k] {
                    *x -= dt * delta / j_left;
                }
                for x in &mut w[k + 1..=right] {
                    *x += dt * delta / j_right;
                }
                torque[k] = averaged;
            }
        }
        for i in 0..n {
            self.angle[i] += 0.5 * dt * (self.rate[i] + w[i]);
        }
        self.rate[..n].copy_from_slice(&w[..n]);
        self.clutch_torque[..m].copy_from_slice(&torque[..m]);
        for k in 0..m {
            self.mode[k] = if !engaged(k) {
                ClutchMode::Free
            } else if locked[k] && self.rate[k] == self.rate[k + 1] {
                ClutchMode::Locked
            } else if self.rate[k] > self.rate[k + 1] {
                ClutchMode::Forward
            } else {
                ClutchMode::Backward
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_bodies_behave_like_the_two_inertia_clutch() {
        let mut chain = ClutchChain::new(&[1.0, 1.0], &[1.0, 0.0]);
        let mut pair = crate::TwoInertiaClutch::new(1.0, 1.0, 1.0, 0.0);
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
}
