//! The 70-m antenna azimuth position servo of R. E. Hill's report (Section
//! IV, Figs. 3-4), with the flexible structure replaced by rigid-body
//! equivalents: the setting in which Hill compared his friction algorithm
//! with the conventional model.
//!
//! Hill gives the friction (400 psi Coulomb, 425 psi static), the
//! friction-to-inertia ratio (1.77 mrad/s^2), the 7.0 Hz gear-actuator mode,
//! the order of the model (eighth), the excitation (1.0 mdeg position step)
//! and the integration (10 ms, Euler); not the loop design. The loop here is
//! a conventional cascade for such a drive, sized by bandwidths:
//!
//! ```text
//! position_command -> PI position loop -> rate command -> PI rate loop (motor tachometer)
//!   -> pressure command (saturated) -> servovalve lag -> pressure lag -> motor torque [psi]
//!   -> motor inertia -- gear spring (7 Hz mode) -- antenna inertia + axis friction
//! ```
//!
//! States (eight): antenna angle and rate, motor angle and rate, pressure,
//! valve, and the two loop integrators.
//!
//! Our choices, where Hill is silent: half of the inertia on the motor side
//! (hydraulic motors and reducers reflected through a large gear ratio are
//! comparable to the structure; with much less, the motor-tachometer rate
//! loop sees only the motor inertia while the axis sticks and its crossover
//! rises towards the 7 Hz mode); 5% damping on that mode; a 1 Hz rate loop
//! and a 0.3 Hz position loop, each with integral action (integral times
//! 0.3 s and 3 s), the bandwidth ordering of large-antenna servos; 5 ms
//! valve and 10 ms pressure lags; the pressure limit of 2000 psi. With these
//! the 1 mdeg step of Hill's Section IV behaves as he describes: the
//! pressure ramps for about 2 s while the axis sticks, breaks away above
//! 425 psi, slides, overshoots and sticks again with the pressure changing
//! slowly, all within the 5 s run. Torques are in psi of hydraulic
//! differential pressure, as Hill measures them, so inertias are in
//! psi.s^2/rad; `J_total = F_c / (friction-to-inertia ratio)`.

use crate::laws::coulomb::ConventionalCoulomb;
use crate::laws::hill::HillFriction;
use crate::vocabulary::{sign, Advance, RigidBodyFriction};
use serde::{Deserialize, Serialize};
use std::f64::consts::PI;

/// Which friction law acts on the azimuth axis.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum AxisFriction {
    /// Hill's Fig. 1: `-F_c*sign(w)`, explicit Euler.
    Conventional,
    /// Hill's predictive static/Coulomb algorithm (Eqs. 1-6).
    #[default]
    Hill,
}

/// The servo's design values (see the module documentation for the sources).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct AntennaServoDesign {
    pub friction: AxisFriction,
    /// `F_c` (psi): Hill, "the 400 psi friction threshold".
    pub coulomb_torque: f64,
    /// `F_s` (psi): Hill, "the static friction levels (425 psi)".
    pub static_torque: f64,
    /// `F_c / J_total` (rad/s^2): Hill, "1.77 milliradians/sec^2" (azimuth).
    pub friction_to_inertia: f64,
    /// Share of the total inertia on the motor side of the gear spring.
    pub motor_inertia_fraction: f64,
    /// Frequency of the motor-gear-antenna mode (Hz): Hill's "7.0-Hz mode of
    /// the gear actuator stiffness".
    pub gear_mode_frequency: f64,
    /// Damping ratio of that mode.
    pub gear_damping_ratio: f64,
    /// Rate-loop crossover (Hz): proportional gain `K_r = 2*pi*f*J_total`.
    pub rate_loop_bandwidth: f64,
    /// Rate-loop integral time (s): `K_r/T_r` on the integrated rate error.
    pub rate_integral_time: f64,
    /// Position-loop crossover (Hz): gain `K_p = 2*pi*f` (1/s).
    pub position_loop_bandwidth: f64,
    /// Position-loop integral time (s).
    pub position_integral_time: f64,
    /// Servovalve spool lag (s).
    pub valve_time_constant: f64,
    /// Pressure build-up lag of the oil column (s).
    pub pressure_time_constant: f64,
    /// Pressure command limit (psi): Hill's friction "equals roughly 20
    /// percent of the maximum available control effort", 400/0.2.
    pub max_pressure: f64,
}

impl Default for AntennaServoDesign {
    fn default() -> Self {
        Self {
            friction: AxisFriction::Hill,
            coulomb_torque: 400.0,
            static_torque: 425.0,
            friction_to_inertia: 1.77e-3,
            motor_inertia_fraction: 0.5,
            gear_mode_frequency: 7.0,
            gear_damping_ratio: 0.05,
            rate_loop_bandwidth: 1.0,
            rate_integral_time: 0.3,
            position_loop_bandwidth: 0.3,
            position_integral_time: 3.0,
            valve_time_constant: 0.005,
            pressure_time_constant: 0.01,
            max_pressure: 2000.0,
        }
    }
}

impl AntennaServoDesign {
    /// `J_total = F_c / ratio` (psi.s^2/rad).
    pub fn total_inertia(&self) -> f64 {
        self.coulomb_torque / self.friction_to_inertia
    }
    pub fn motor_inertia(&self) -> f64 {
        self.motor_inertia_fraction * self.total_inertia()
    }
    pub fn antenna_inertia(&self) -> f64 {
        (1.0 - self.motor_inertia_fraction) * self.total_inertia()
    }
    /// Two inertias on a spring: `omega^2 = K*(1/J_m + 1/J_a)`.
    fn reduced_inertia(&self) -> f64 {
        self.motor_inertia() * self.antenna_inertia() / self.total_inertia()
    }
    /// Gear stiffness (psi/rad) placing the free mode at `gear_mode_frequency`.
    pub fn gear_stiffness(&self) -> f64 {
        (2.0 * PI * self.gear_mode_frequency).powi(2) * self.reduced_inertia()
    }
    /// Gear damping (psi.s/rad) for `gear_damping_ratio` on that mode.
    pub fn gear_damping(&self) -> f64 {
        2.0 * self.gear_damping_ratio * 2.0 * PI * self.gear_mode_frequency * self.reduced_inertia()
    }
    /// Rate-loop proportional gain (psi per rad/s).
    pub fn rate_gain(&self) -> f64 {
        2.0 * PI * self.rate_loop_bandwidth * self.total_inertia()
    }
    /// Position-loop gain (1/s).
    pub fn position_gain(&self) -> f64 {
        2.0 * PI * self.position_loop_bandwidth
    }
}

/// The servo's state. The design is not part of it: each step takes it, so
/// that a model holding its design once steps with exactly that.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AntennaServo {
    /// Antenna (axis) angle and rate (rad, rad/s).
    pub antenna_angle: f64,
    pub antenna_rate: f64,
    /// Motor angle and rate, referred to the axis (rad, rad/s).
    pub motor_angle: f64,
    pub motor_rate: f64,
    /// Motor torque as differential pressure (psi).
    pub pressure: f64,
    /// Servovalve output, the pressure it demands (psi).
    pub valve: f64,
    /// Integral parts of the rate loop (psi) and position loop (rad/s).
    pub rate_integral: f64,
    pub position_integral: f64,
    /// Gear torque on the antenna over the last step (psi).
    pub gear_torque: f64,
    /// Effective axis friction over the last step (psi).
    pub friction_torque: f64,
    /// Pressure command after the limit (psi).
    pub pressure_command: f64,
}

impl AntennaServo {
    /// At rest at `angle` (rad), no torque.
    pub fn new(angle: f64) -> Self {
        Self { antenna_angle: angle, motor_angle: angle, ..Self::default() }
    }

    /// Advance by `dt` with the position command `command` (rad) held, with
    /// the axis friction of the design (see [`AntennaServo::step_with`]).
    #[inline]
    pub fn step(&mut self, design: &AntennaServoDesign, command: f64, dt: f64) {
        let d = design;
        match d.friction {
            AxisFriction::Conventional => {
                self.step_with(d, &mut ConventionalCoulomb { coulomb_torque: d.coulomb_torque }, command, dt)
            }
            AxisFriction::Hill => self.step_with(
                d,
                &mut HillFriction { static_torque: d.static_torque, coulomb_torque: d.coulomb_torque },
                command,
                dt,
            ),
        }
    }

    /// Advance by `dt` with the position command `command` (rad) held and
    /// any friction law on the axis: one Euler step of the whole loop, as
    /// Hill's simulation integrates it, with the friction law predicting
    /// over the same interval. The linear lags are advanced exactly (their
    /// inputs held), the two bodies by symplectic Euler (rates first, then
    /// angles from the new rates), which keeps the 7 Hz mode stable at 10 ms.
    #[inline]
    pub fn step_with(&mut self, design: &AntennaServoDesign, law: &mut impl RigidBodyFriction, command: f64, dt: f64) {
        let d = design;
        // Position loop -> rate command (rad/s).
        let position_error = command - self.antenna_angle;
        let rate_command = d.position_gain() * position_error + self.position_integral;
        // Rate loop on the motor tachometer -> pressure command (psi).
        let rate_error = rate_command - self.motor_rate;
        let demand = d.rate_gain() * rate_error + self.rate_integral;
        let limit = d.max_pressure;
        self.pressure_command = demand.clamp(-limit, limit);
        self.position_integral += dt * d.position_gain() / d.position_integral_time * position_error;
        // Anti-windup: the rate integrator holds while the limit is reached in its direction.
        let saturated = demand.abs() > limit && demand * rate_error > 0.0;
        if !saturated {
            self.rate_integral += dt * d.rate_gain() / d.rate_integral_time * rate_error;
        }
        // Torques at the start of the interval (Euler).
        let gear = d.gear_stiffness() * (self.motor_angle - self.antenna_angle)
            + d.gear_damping() * (self.motor_rate - self.antenna_rate);
        let motor_torque = self.pressure;
        // Lags: valve, then the pressure driven by the mean valve output.
        let valve_before = self.valve;
        self.valve = lag(self.valve, self.pressure_command, d.valve_time_constant, dt);
        self.pressure = lag(self.pressure, 0.5 * (valve_before + self.valve), d.pressure_time_constant, dt);
        // Bodies.
        self.motor_rate += dt * (motor_torque - gear) / d.motor_inertia();
        let Advance { rate, friction } = law.advance(gear, self.antenna_rate, d.antenna_inertia(), dt);
        self.antenna_rate = rate;
        self.motor_angle += dt * self.motor_rate;
        self.antenna_angle += dt * self.antenna_rate;
        self.gear_torque = gear;
        self.friction_torque = friction;
    }

    /// Where a step of `dt` with Hill's law on the axis stops the sliding
    /// antenna (s from its start), if it does: the gear torque is held over
    /// the Euler step, so the rate reaches 0 at `J*w/(F_c*sign(w) - T_gear)`
    /// (Hill Eq. 3), and sticks there if `|T_gear| <= F_s`. The instant is
    /// rounded up by a few ulps, so that a step of that length, taken again,
    /// ends stuck (Hill's test `t_c/dt <= 1` holds at it).
    pub fn stop_instant(&self, design: &AntennaServoDesign, dt: f64) -> Option<f64> {
        let d = design;
        let w = self.antenna_rate;
        if d.friction != AxisFriction::Hill || w == 0.0 {
            return None;
        }
        let gear = d.gear_stiffness() * (self.motor_angle - self.antenna_angle)
            + d.gear_damping() * (self.motor_rate - self.antenna_rate);
        let decelerating = d.coulomb_torque * sign(w) - gear;
        let at = d.antenna_inertia() * w / decelerating * (1.0 + 4.0 * f64::EPSILON);
        (decelerating * sign(w) > 0.0 && at <= dt && gear.abs() <= d.static_torque).then_some(at)
    }
}

/// First-order lag `tau*y' = u - y` over `dt` with `u` held (exact).
#[inline]
fn lag(y: f64, u: f64, tau: f64, dt: f64) -> f64 {
    u + (y - u) * (-dt / tau).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    const MDEG: f64 = 1e-3 * PI / 180.0;

    fn run(friction: AxisFriction, dt: f64, seconds: f64) -> Vec<(f64, AntennaServo)> {
        let design = AntennaServoDesign { friction, ..Default::default() };
        let mut s = AntennaServo::new(0.0);
        let n = (seconds / dt).round() as usize;
        (1..=n)
            .map(|k| {
                s.step(&design, MDEG, dt);
                (k as f64 * dt, s)
            })
            .collect()
    }

    #[test]
    fn design_values_follow_hills_numbers() {
        let d = AntennaServoDesign::default();
        assert!((d.coulomb_torque / d.total_inertia() - 1.77e-3).abs() < 1e-15);
        let k = d.gear_stiffness();
        let omega = (k * (1.0 / d.motor_inertia() + 1.0 / d.antenna_inertia())).sqrt();
        assert!((omega / (2.0 * PI) - 7.0).abs() < 1e-12);
    }

    #[test]
    fn hill_keeps_the_axis_exactly_still_below_static_friction() {
        for (t, s) in run(AxisFriction::Hill, 0.01, 5.0) {
            if s.gear_torque.abs() <= 425.0 && s.antenna_rate != 0.0 {
                // Moving below breakaway is only allowed while decelerating from a slide.
                assert!(s.friction_torque * s.antenna_rate < 0.0, "t = {t}");
            }
        }
    }
}
