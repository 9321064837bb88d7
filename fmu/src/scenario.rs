//! What a scenario is: parameter values, input signals, a communication
//! grid and the traces of its figure, for one FMU. Plain data at the bottom
//! of the crate: it knows no model, no declaration and no FMI; the list of
//! scenarios and the cross-check files made from it are in
//! [`crate::scenarios`], above the models.

#![forbid(unsafe_code)]

/// An input signal of time.
#[derive(Clone, Copy, Debug)]
pub enum Signal {
    Constant(f64),
    /// Piecewise linear through `(time, value)` points (times non-decreasing;
    /// a repeated time is a jump, the later value holding from that time),
    /// constant before the first and after the last point.
    Points(&'static [(f64, f64)]),
    /// `offset + amplitude * sin(2*pi*frequency*t + phase)`.
    Sine {
        offset: f64,
        amplitude: f64,
        frequency: f64,
        phase: f64,
    },
}

impl Signal {
    /// A step from `before` to `after` at `time`.
    pub const fn step(time: f64, before: f64, after: f64) -> [(f64, f64); 2] {
        [(time, before), (time, after)]
    }

    /// The value at `t` (right-continuous at jumps).
    pub fn value(&self, t: f64) -> f64 {
        match *self {
            Signal::Constant(x) => x,
            Signal::Sine { offset, amplitude, frequency, phase } => {
                offset + amplitude * (2.0 * std::f64::consts::PI * frequency * t + phase).sin()
            }
            Signal::Points(points) => {
                let Some(&(t0, x0)) = points.first() else { return 0.0 };
                if t < t0 {
                    return x0;
                }
                // The last point at or before t decides (the later of a jump's pair).
                let k = points.iter().rposition(|&(tk, _)| tk <= t).unwrap_or(0);
                match points.get(k + 1) {
                    Some(&(t1, x1)) if t1 > points[k].0 => {
                        let (tk, xk) = points[k];
                        xk + (x1 - xk) * (t - tk) / (t1 - tk)
                    }
                    _ => points[k].1,
                }
            }
        }
    }

    /// The value a master holds over the communication step `[t, t + h)`:
    /// the signal at the middle of the step, which is the step average for
    /// linear pieces and picks the new value of a jump on the grid at `t`.
    pub fn hold_value(&self, t: f64, h: f64) -> f64 {
        self.value(t + 0.5 * h)
    }
}

/// One curve of a figure panel: `scale * variable`, labelled.
#[derive(Clone, Copy, Debug)]
pub struct Trace {
    pub variable: &'static str,
    pub scale: f64,
    /// Axis label with unit, e.g. "rate (mdeg/s)".
    pub label: &'static str,
}

impl Trace {
    pub const fn new(variable: &'static str, scale: f64, label: &'static str) -> Self {
        Self { variable, scale, label }
    }
}

/// One experiment of a paper, run through one FMU.
#[derive(Clone, Copy, Debug)]
pub struct Scenario {
    /// File-name stem, unique: `hill_fig3_conventional`.
    pub name: &'static str,
    /// Model identifier of the FMU.
    pub model: &'static str,
    /// Figure file stem; scenarios sharing it are drawn side by side, in the
    /// order declared (e.g. Hill's Figs. 3 and 4).
    pub figure: &'static str,
    /// Column title: what the paper's figure shows.
    pub title: &'static str,
    /// Start values of parameters (and initial inputs) that differ from the
    /// model's defaults, by variable name. Integer parameters as whole numbers.
    pub parameters: &'static [(&'static str, f64)],
    /// Input signals by input name; inputs not named keep their start values.
    pub inputs: &'static [(&'static str, Signal)],
    pub stop_time: f64,
    /// Communication step size.
    pub step_size: f64,
    /// The panels of its column, top to bottom; traces with the same label
    /// share a panel.
    pub traces: &'static [Trace],
}

impl Scenario {
    /// Communication points `0, h, 2h, ...` up to and including the stop time
    /// (the last step shortened if the stop time is off the grid).
    pub fn points(&self) -> Vec<f64> {
        let n = (self.stop_time / self.step_size - 1e-9).ceil() as usize;
        (0..=n).map(|k| if k == n { self.stop_time } else { k as f64 * self.step_size }).collect()
    }

    /// The inputs over `[t, t + h)`, by name.
    pub fn inputs_at(&self, t: f64, h: f64) -> Vec<(&'static str, f64)> {
        self.inputs.iter().map(|&(name, s)| (name, s.hold_value(t, h))).collect()
    }

    /// FMI cross-check `<Model>_ref.opt`.
    pub fn ref_opt(&self) -> String {
        format!("StartTime, 0.0\nStopTime, {:?}\nStepSize, {:?}\nRelTol, 1e-6\n", self.stop_time, self.step_size)
    }

    /// `start_values.csv`: the parameters the scenario sets, `name,value`.
    pub fn start_values_csv(&self) -> String {
        let mut out = String::from("\"name\",\"value\"\n");
        for (name, v) in self.parameters {
            out.push_str(&format!("\"{name}\",{v:?}\n"));
        }
        out
    }
}
