//! The papers behind the models, each written once (a paper only one model
//! folder takes from may live there instead). A model names the ones
//! it implements, with the equations and figures it takes, in its `INFO`
//! (`ModelInfo::sources`); its FMU's documentation, `docs/models.md` and
//! the README's bibliography (checked by a test) show them.

#![forbid(unsafe_code)]

/// A publication as a modeller cites it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Source {
    pub authors: &'static str,
    pub title: &'static str,
    /// Journal, report series or publisher, with volume and pages.
    pub venue: &'static str,
    /// Year of publication, with a word where our copy does not print it.
    pub year: &'static str,
}

impl Source {
    /// `Authors, "Title", Venue, Year.`
    pub fn citation(&self) -> String {
        format!("{}, \"{}\", {}, {}.", self.authors, self.title, self.venue, self.year)
    }
}

pub const HILL: Source = Source {
    authors: "R. E. Hill",
    title: "A New Algorithm for Modeling Friction in Dynamic Mechanical Systems",
    venue: "TDA Progress Report, Jet Propulsion Laboratory, Pasadena (NASA Technical Reports Server, document \
            19890010963)",
    year: "entered 1989 (our copy prints neither the report's number nor its date)",
};

pub const BORELLO: Source = Source {
    authors: "L. Borello, M. D. L. Dalla Vedova",
    title: "A dry friction model and robust computational algorithm for reversible or irreversible motion \
            transmissions",
    venue: "International Journal of Mechanics and Control 13(2), pp. 37-48",
    year: "2012",
};

pub const NURRE: Source = Source {
    authors: "G. S. Nurre",
    title: "An Analysis of the Dahl Friction Model and its Effect on a CMG Gimbal Rate Controller",
    venue: "NASA TM X-64934, George C. Marshall Space Flight Center",
    year: "November 1974",
};

pub const MAJD_SIMAAN: Source = Source {
    authors: "V. J. Majd, M. A. Simaan",
    title: "A Continuous Friction Model for Servo Systems with Stiction",
    venue: "Proceedings of the 4th IEEE Conference on Control Applications (our copy prints no venue)",
    year: "1995",
};

pub const FRICTION_BLOG: Source = Source {
    authors: "anonymous (WordPress blog; author not named in our copy)",
    title: "Modelling friction in 1d dynamics",
    venue: "blog post with GNU Octave/Matlab code",
    year: "year not printed in our copy",
};

pub const MODELICA: Source = Source {
    authors: "Modelica Association",
    title: "Modelica Standard Library: Modelica.Mechanics.Rotational (Examples.CoupledClutches, Components.Clutch)",
    venue: "Modelica Standard Library 4",
    year: "2020",
};
