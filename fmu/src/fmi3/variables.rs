//! Values by value reference as FMI 3.0 types and numbers them, over the
//! core's FMI-2.0-shaped access: value references are FMI 2.0's plus one
//! ([`Layout`]), `time` and the event indicators are variables, Integers
//! are Int32, enumerations Int64, and every variable is a scalar
//! (`nValues` must equal `nValueReferences`). Each value reference is
//! checked here, in FMI 3.0's numbering and names, before the core sees
//! it; the core then checks ranges, causality and phase.

#![forbid(unsafe_code)]

use crate::instance::{Instance, Kind, Outcome, Status};
use crate::xml3::Layout;

/// The value-reference layout of the instance's model.
pub fn layout(comp: &Instance) -> Layout {
    let (states, indicators) = comp.hybrid_sizes().unwrap_or((0, 0));
    Layout { variables: comp.variable_count(), states, indicators }
}

/// Every variable is a scalar: one value per value reference.
pub fn scalars(n_vrs: usize, n_values: usize) -> Result<(), String> {
    if n_values != n_vrs {
        return Err(format!(
            "nValues = {n_values} rejected: must equal nValueReferences = {n_vrs} (every variable is a scalar)"
        ));
    }
    Ok(())
}

/// What FMI 3.0 value reference `vr` names.
enum Named {
    /// A declared variable or a derivative, with the core's reference.
    Core(u32, Kind),
    Time,
    Indicator(usize),
}

fn named(comp: &Instance, layout: &Layout, vr: u32) -> Result<Named, String> {
    if let Some(core) = layout.core_of(vr) {
        let kind = comp.kind(core).expect("a core reference of the layout names a variable or a derivative");
        return Ok(Named::Core(core, kind));
    }
    if vr == layout.time() {
        return Ok(Named::Time);
    }
    if let Some(k) = layout.indicator_of(vr) {
        return Ok(Named::Indicator(k));
    }
    Err(format!("value reference {vr} does not exist in this FMU (valid: 1..={})", layout.time()))
}

/// `vr`'s name and FMI 3.0 type, for messages.
fn describe(comp: &Instance, layout: &Layout, vr: u32) -> String {
    match named(comp, layout, vr) {
        Ok(Named::Core(core, kind)) => {
            let name = comp
                .variable_name(core)
                .map_or_else(|| format!("der(state {})", core as usize - layout.variables + 1), str::to_string);
            let type_name = match kind {
                Kind::Real | Kind::Derivative => "a Float64",
                Kind::Integer => "an Int32",
                Kind::Enumeration => "an Enumeration (read and written as Int64)",
                Kind::Boolean => "a Boolean",
            };
            format!("{name} (value reference {vr}) is {type_name}")
        }
        Ok(Named::Time) => format!("time (value reference {vr}) is the independent variable, a Float64"),
        Ok(Named::Indicator(k)) => format!("{} (value reference {vr}) is a Float64", Layout::indicator_name(k)),
        Err(e) => e,
    }
}

/// The core's references of `vrs`, each of one of `kinds` (else refused,
/// in FMI 3.0's words: `wanted` names the call's type).
fn core_refs(comp: &Instance, vrs: &[u32], kinds: &[Kind], wanted: &str) -> Result<Vec<u32>, String> {
    let layout = layout(comp);
    vrs.iter()
        .map(|&vr| match named(comp, &layout, vr)? {
            Named::Core(core, kind) if kinds.contains(&kind) => Ok(core),
            _ => Err(format!("{}, not {wanted}", describe(comp, &layout, vr))),
        })
        .collect()
}

/// In Instantiated only start values may be read (FMI 3.0, 2.3.2): not a
/// calculated variable (an output, a derivative, an event indicator).
fn start_values_only(comp: &Instance, layout: &Layout, vrs: &[u32]) -> Result<(), String> {
    if comp.phase != crate::instance::Phase::Instantiated {
        return Ok(());
    }
    for &vr in vrs {
        let calculated = match named(comp, layout, vr)? {
            Named::Core(core, Kind::Derivative) => Some(core),
            Named::Core(core, _) if comp.is_output(core) => Some(core),
            Named::Indicator(_) => Some(vr),
            _ => None,
        };
        if calculated.is_some() {
            return Err(format!(
                "{} rejected in state instantiated: calculated by the FMU, it has a value only from initialization \
                 mode on (only start values can be read before)",
                describe(comp, layout, vr)
            ));
        }
    }
    Ok(())
}

/// `fmi3GetOutputDerivatives`: the core's, by FMI 3.0's references.
pub fn get_output_derivatives(comp: &mut Instance, vrs: &[u32], orders: &[i32], out: &mut [f64]) -> Outcome {
    let cores = core_refs(comp, vrs, &[Kind::Real], "a Float64 output")?;
    comp.get_output_derivatives(&cores, orders, out)
}

pub fn get_float64(comp: &mut Instance, vrs: &[u32], out: &mut [f64]) -> Outcome {
    let layout = layout(comp);
    start_values_only(comp, &layout, vrs)?;
    let mut indicators: Option<Vec<f64>> = None;
    let mut values = vec![0.0; vrs.len()];
    let mut direct: Vec<(usize, u32)> = Vec::with_capacity(vrs.len());
    for (i, &vr) in vrs.iter().enumerate() {
        match named(comp, &layout, vr)? {
            Named::Core(core, Kind::Real | Kind::Derivative) => direct.push((i, core)),
            Named::Core(..) => return Err(format!("{}, not a Float64", describe(comp, &layout, vr))),
            Named::Time => values[i] = comp.time(),
            Named::Indicator(k) => {
                if indicators.is_none() {
                    let mut z = vec![0.0; layout.indicators];
                    comp.get_event_indicators(&mut z)?;
                    indicators = Some(z);
                }
                values[i] = indicators.as_ref().map_or(0.0, |z| z[k]);
            }
        }
    }
    let cores: Vec<u32> = direct.iter().map(|d| d.1).collect();
    let mut read = vec![0.0; cores.len()];
    comp.get_real(&cores, &mut read)?;
    for ((i, _), x) in direct.iter().zip(read) {
        values[*i] = x;
    }
    out.copy_from_slice(&values);
    Ok(Status::Ok)
}

pub fn set_float64(comp: &mut Instance, vrs: &[u32], values: &[f64]) -> Outcome {
    let layout = layout(comp);
    for &vr in vrs {
        match named(comp, &layout, vr)? {
            Named::Core(_, Kind::Real) => {}
            Named::Core(_, Kind::Derivative) | Named::Indicator(_) => {
                return Err(format!("{}: calculated by the FMU, it cannot be set", describe(comp, &layout, vr)))
            }
            Named::Time => {
                return Err(format!(
                    "time (value reference {vr}) rejected: the independent variable cannot be set \
                     (fmi3EnterInitializationMode sets the start time, fmi3SetTime the time in Model Exchange)"
                ))
            }
            Named::Core(..) => return Err(format!("{}, not a Float64", describe(comp, &layout, vr))),
        }
    }
    let cores = core_refs(comp, vrs, &[Kind::Real], "a Float64")?;
    comp.set_real(&cores, values)
}

pub fn get_int32(comp: &mut Instance, vrs: &[u32], out: &mut [i32]) -> Outcome {
    start_values_only(comp, &layout(comp), vrs)?;
    let cores = core_refs(comp, vrs, &[Kind::Integer], "an Int32")?;
    comp.get_integer(&cores, out)
}

pub fn set_int32(comp: &mut Instance, vrs: &[u32], values: &[i32]) -> Outcome {
    let cores = core_refs(comp, vrs, &[Kind::Integer], "an Int32")?;
    comp.set_integer(&cores, values)
}

/// The only Int64 variables are the enumerations.
pub fn get_int64(comp: &mut Instance, vrs: &[u32], out: &mut [i64]) -> Outcome {
    let cores = core_refs(comp, vrs, &[Kind::Enumeration], "an Int64 (an Enumeration)")?;
    let mut values = vec![0; vrs.len()];
    let status = comp.get_integer(&cores, &mut values)?;
    for (o, v) in out.iter_mut().zip(values) {
        *o = v.into();
    }
    Ok(status)
}

pub fn set_int64(comp: &mut Instance, vrs: &[u32], values: &[i64]) -> Outcome {
    let cores = core_refs(comp, vrs, &[Kind::Enumeration], "an Int64 (an Enumeration)")?;
    let mut narrow = Vec::with_capacity(values.len());
    for (&core, &v) in cores.iter().zip(values) {
        // Out of i32's range is no item of any enumeration.
        let name = comp.variable_name(core).unwrap_or("?");
        narrow.push(i32::try_from(v).map_err(|_| format!("{name} = {v} rejected: not an item of its Enumeration"))?);
    }
    comp.set_integer(&cores, &narrow)
}

pub fn get_boolean(comp: &mut Instance, vrs: &[u32], out: &mut [u8]) -> Outcome {
    start_values_only(comp, &layout(comp), vrs)?;
    let cores = core_refs(comp, vrs, &[Kind::Boolean], "a Boolean")?;
    let mut values = vec![false; vrs.len()];
    let status = comp.get_boolean(&cores, &mut values)?;
    for (o, v) in out.iter_mut().zip(values) {
        *o = v.into();
    }
    Ok(status)
}

pub fn set_boolean(comp: &mut Instance, vrs: &[u32], values: &[u8]) -> Outcome {
    let cores = core_refs(comp, vrs, &[Kind::Boolean], "a Boolean")?;
    let values: Vec<bool> = values.iter().map(|&b| b != 0).collect();
    comp.set_boolean(&cores, &values)
}

/// "a Float32", "an Int8".
fn article(type_name: &str) -> String {
    let vowel = type_name.starts_with(['A', 'E', 'I', 'O', 'U']);
    format!("{} {type_name}", if vowel { "an" } else { "a" })
}

/// A type the FMUs declare no variable of (Float32, Int8 to UInt64, String,
/// Binary, Clock): every value reference is refused, with what it is.
pub fn none_of_type(comp: &Instance, vrs: &[u32], type_name: &str) -> Outcome {
    match vrs.first() {
        Some(&vr) => Err(format!(
            "{}, not {}: no variable of this FMU is one",
            describe(comp, &layout(comp), vr),
            article(type_name)
        )),
        None => Ok(Status::Ok),
    }
}
