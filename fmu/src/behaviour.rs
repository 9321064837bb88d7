//! What a model must show, kept with the model: the claims of its
//! description and its papers as checks on its own default run, and the
//! rules a bad value breaks. Generic tests walk the registry and hold each
//! model to its own [`Behaviour`]; no test names a model to know what to
//! expect of it.
//!
//! Pure data and plain functions over a run's columns: nothing here runs a
//! model (the tests run the built FMUs and hand the result over).

#![forbid(unsafe_code)]

/// A model's expected behaviour (see the module).
#[derive(Clone, Copy, Debug)]
pub struct Behaviour {
    /// What the default experiment's result must show (the shipped
    /// `_ref.csv`: start values, the declared default inputs held over each
    /// communication step): closed forms and the papers' and the
    /// description's numbers, with stated tolerances. Returns the first
    /// claim the run breaks.
    pub default_run: Option<fn(&Run) -> Result<(), String>>,
    /// Values the model refuses when it leaves initialization, each with
    /// words of the reason it gives.
    pub refusals: &'static [Refusal],
    /// Why Model Exchange in a variable-step solver tells another discrete
    /// story than Co-Simulation (the sequence of changes of the discrete
    /// outputs in the default run), when it does: a sign below the
    /// solver's tolerance. `None`: the two interfaces must agree.
    pub stories_differ: Option<&'static str>,
    /// Instants where a discrete output of the default run changes, from a
    /// reference independent of this code (CoupledClutches: the Modelica
    /// Standard Library's published result), by output: what any
    /// importer's run must show within its own resolution.
    pub reference_changes: &'static [(&'static str, &'static [f64])],
    /// Co-Simulation is exact for inputs held over the step (a closed form
    /// per step), so a Model Exchange run of the default experiment ends
    /// where Co-Simulation's does, to the solver's tolerance.
    pub exact_for_held_inputs: bool,
    /// How a Co-Simulation step with early return (FMI 3.0) stops at the
    /// changes of the discrete outputs in the default run; `None` for a
    /// model whose default run changes none.
    pub early_return: Option<EarlyReturn>,
}

/// How a model's Co-Simulation step returns early (FMI 3.0) at a change of
/// its discrete outputs (a stick, a breakaway, a lock, a clutch that slips).
#[derive(Clone, Copy, Debug)]
pub struct EarlyReturn {
    /// Where the step stops.
    pub located: Located,
    /// Instants (s) at which the default run returns, each with its
    /// tolerance, from a closed form or a reference independent of this
    /// code (e.g. `pi/sqrt(10)`); where the model only knows its internal
    /// step, the instant of the change and the internal step's width after
    /// it (see [`EarlyReturn::matches`]).
    pub instants: &'static [(f64, f64)],
    /// The communication step of the check when the default experiment's
    /// events fall on its own grid points (where a step ends at them
    /// without returning early); `None`: the default experiment's.
    pub step: Option<f64>,
}

/// Where a step with early return stops (see [`EarlyReturn`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Located {
    /// At the instant the model's law locates inside its internal step.
    Exactly,
    /// At the end of the internal step in which the change happened (the
    /// law integrates an internal step as a whole).
    AtInternalStep,
}

impl EarlyReturn {
    /// Stops at the located instants, `instants` among them.
    pub const fn located(instants: &'static [(f64, f64)]) -> Self {
        Self { located: Located::Exactly, instants, step: None }
    }

    /// Stops at the end of the internal step of the change, `instants`
    /// among them.
    pub const fn at_internal_step(instants: &'static [(f64, f64)]) -> Self {
        Self { located: Located::AtInternalStep, instants, step: None }
    }

    /// Whether an early return at `t` is the stated `instant`: within
    /// `tolerance` of it where the law locates it, else no earlier and at
    /// most `tolerance` later (the end of the internal step that holds it).
    pub fn matches(&self, (instant, tolerance): (f64, f64), t: f64) -> bool {
        match self.located {
            Located::Exactly => (t - instant).abs() <= tolerance,
            Located::AtInternalStep => t >= instant && t - instant <= tolerance,
        }
    }

    /// Checked at the communication step `step` (see [`EarlyReturn::step`]).
    pub const fn at_step(self, step: f64) -> Self {
        Self { step: Some(step), ..self }
    }

    /// How the step stops, in words for a page.
    pub const fn words(&self) -> &'static str {
        match self.located {
            Located::Exactly => "at the instant its law locates inside the step",
            Located::AtInternalStep => "at the end of the internal step in which the change happens",
        }
    }
}

impl Behaviour {
    /// What FMI 3.0 Co-Simulation's early return does for this model, in
    /// one sentence for its page and `docs/models.md` (plain text).
    pub fn early_return_sentence(&self) -> String {
        let Some(e) = self.early_return else {
            return "Early return (FMI 3.0 Co-Simulation): no discrete output changes in the default run, so no \
                    step of it returns early."
                .into();
        };
        let instants: Vec<String> = e
            .instants
            .iter()
            .map(|&(t, tolerance)| match e.located {
                Located::Exactly => format!("at {} s (within {tolerance:.0e} s)", crate::text::number(t)),
                Located::AtInternalStep => format!("within {tolerance:.0e} s after {} s", crate::text::number(t)),
            })
            .collect();
        let at_step = e.step.map(|h| format!(" at {} s steps", crate::text::number(h))).unwrap_or_default();
        let checked = if instants.is_empty() {
            String::new()
        } else {
            format!("; its default run{at_step} returns {}", instants.join(", "))
        };
        format!(
            "Early return (FMI 3.0 Co-Simulation): a step stops at the first change of a discrete output inside \
             it, {}{checked}.",
            e.words()
        )
    }
}

impl Behaviour {
    /// A model that has stated nothing yet: the registry test refuses it.
    pub const UNSTATED: Self = Self {
        default_run: None,
        refusals: &[],
        stories_differ: None,
        reference_changes: &[],
        exact_for_held_inputs: false,
        early_return: None,
    };

    /// Checks of the default run, and no refusal.
    pub const fn of(default_run: fn(&Run) -> Result<(), String>) -> Self {
        Self { default_run: Some(default_run), ..Self::UNSTATED }
    }

    /// With the rules bad values break (see [`Refusal`]).
    pub const fn refuses(self, refusals: &'static [Refusal]) -> Self {
        Self { refusals, ..self }
    }

    /// With the reason its interfaces tell different discrete stories (see
    /// [`Behaviour::stories_differ`]).
    pub const fn stories_differ(self, why: &'static str) -> Self {
        Self { stories_differ: Some(why), ..self }
    }

    /// With the reference instants of its discrete changes (see
    /// [`Behaviour::reference_changes`]).
    pub const fn changes_as(self, reference_changes: &'static [(&'static str, &'static [f64])]) -> Self {
        Self { reference_changes, ..self }
    }

    /// Co-Simulation exact for held inputs (see
    /// [`Behaviour::exact_for_held_inputs`]).
    pub const fn exact_for_held_inputs(self) -> Self {
        Self { exact_for_held_inputs: true, ..self }
    }

    /// With how its steps return early (see [`EarlyReturn`]).
    pub const fn returns_early(self, early_return: EarlyReturn) -> Self {
        Self { early_return: Some(early_return), ..self }
    }

    /// Holds the default run to the model's claims.
    pub fn check_default_run(&self, run: &Run) -> Result<(), String> {
        match self.default_run {
            Some(check) => check(run),
            None => Err("the model states no expected behaviour (ModelInfo::expects)".into()),
        }
    }
}

/// Parameter values that break one of a model's rules, and words of the
/// message that names the rule.
#[derive(Clone, Copy, Debug)]
pub struct Refusal {
    pub set: &'static [(&'static str, f64)],
    pub because: &'static str,
    /// A rule about Co-Simulation's internal step: Model Exchange, whose
    /// solver the importer chooses, accepts the same values.
    pub co_simulation_only: bool,
}

impl Refusal {
    pub const fn new(set: &'static [(&'static str, f64)], because: &'static str) -> Self {
        Self { set, because, co_simulation_only: false }
    }

    /// A rule of the internal step (see [`Refusal::co_simulation_only`]).
    pub const fn of_internal_step(set: &'static [(&'static str, f64)], because: &'static str) -> Self {
        Self { set, because, co_simulation_only: true }
    }
}

/// The words of the rule every law with a static and a Coulomb level has.
pub const STATIC_BELOW_COULOMB: &str = "static friction must be >= Coulomb friction";

/// A run's result as columns (the header of a `_ref.csv`).
#[derive(Clone, Debug, Default)]
pub struct Run {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<f64>>,
}

impl Run {
    /// Reads a CSV with a header row of (optionally quoted) names.
    pub fn from_csv(text: &str) -> Result<Self, String> {
        let mut lines = text.lines();
        let header = lines.next().ok_or("empty CSV")?;
        let columns = header.split(',').map(|c| c.trim_matches('"').to_string()).collect();
        let rows = lines
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.split(',').map(|x| x.trim().parse::<f64>().map_err(|e| format!("{x}: {e}"))).collect())
            .collect::<Result<_, _>>()?;
        Ok(Self { columns, rows })
    }

    /// The column `name`. A run without it cannot be checked: this panics
    /// with the name (only tests call the checks, never the FMI layer), so
    /// that no claim passes vacuously on a missing column.
    pub fn col(&self, name: &str) -> Vec<f64> {
        match self.columns.iter().position(|c| c == name) {
            Some(i) => self.rows.iter().map(|r| r[i]).collect(),
            None => panic!("the run has no column {name} (columns: {:?})", self.columns),
        }
    }

    /// The `time` column.
    pub fn time(&self) -> Vec<f64> {
        self.col("time")
    }

    /// The row index of the communication point at `t` (within 1e-9 s).
    pub fn index_at(&self, t: f64) -> Result<usize, String> {
        self.time().iter().position(|&x| (x - t).abs() <= 1e-9).ok_or_else(|| format!("no row at t = {t} s"))
    }
}

/// `|a - b| <= tolerance`.
pub fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

/// `Err(message)` unless `condition`: a claim of a check.
#[macro_export]
macro_rules! claim {
    ($condition:expr, $($message:tt)+) => {
        if !$condition {
            return Err(format!($($message)+));
        }
    };
}
