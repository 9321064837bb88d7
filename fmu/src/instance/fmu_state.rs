//! FMU states: saved, restored, freed and serialized, each one owned by the
//! instance that made it. A state's handle is the address of its box; the
//! instance only compares handles it is given with those it holds, and never
//! reads through one, so a foreign or stale handle is refused, not used.

#![forbid(unsafe_code)]

use super::log::Status;
use super::machine::{Instance, Interface, Outcome};
use super::phase::Phase;
use super::snapshot::{Handle, Snapshot};
use super::step::Clock;

/// Leading bytes and version of a serialized FMU state.
const SERIAL_MAGIC: &[u8; 8] = b"FRICFMU\x02";
/// Version 2: the experiment's stopTime is part of the state (a state
/// restored into a fresh instance keeps its experiment).
const SERIAL_VERSION: u32 = 2;

impl Instance {
    fn snapshot(&self) -> Snapshot {
        Snapshot {
            phase: self.phase,
            clock: self.clock,
            start_time: self.start_time,
            stale: self.stale,
            model: self.model.boxed_clone(),
        }
    }

    /// A call-sequence state only the other interface has.
    fn foreign_phase(&self, phase: Phase) -> bool {
        match self.interface {
            // FMI 3.0 Co-Simulation has an event mode where the importer asked for it.
            Interface::CoSimulation => {
                phase == Phase::ContinuousTimeMode
                    || (phase == Phase::EventMode && !self.co_simulation_events.event_mode)
            }
            Interface::ModelExchange => matches!(phase, Phase::StepComplete | Phase::StepFailed),
        }
    }

    /// Index of the live state `handle` in this instance's list.
    fn find(&self, handle: Handle) -> Option<usize> {
        self.snapshots.iter().position(|s| std::ptr::eq(&**s, handle))
    }

    fn keep(&mut self, snapshot: Snapshot) -> Handle {
        let mut boxed = Box::new(snapshot);
        let handle: Handle = &mut *boxed;
        self.snapshots.push(boxed);
        handle
    }

    /// `GetFMUstate`: a new state, or overwrite `existing` if it is ours.
    pub fn get_state(&mut self, existing: Handle) -> Result<Handle, String> {
        if existing.is_null() {
            return Ok(self.keep(self.snapshot()));
        }
        let Some(i) = self.find(existing) else {
            return Err("*FMUstate is neither NULL nor a state of this instance".into());
        };
        let s = &mut self.snapshots[i];
        s.phase = self.phase;
        s.clock = self.clock;
        s.start_time = self.start_time;
        s.stale = self.stale;
        if !s.model.assign(self.model.as_ref()) {
            s.model = self.model.boxed_clone();
        }
        Ok(existing)
    }

    /// `SetFMUstate`: the instance becomes what it was when the state was
    /// saved, its call-sequence state included (as the Reference FMUs do):
    /// a state saved after a step restores into a fresh instance right
    /// after instantiation (a warm start, the Kalman/MPC pattern), one saved
    /// before initialization takes an initialized instance back there. A
    /// state saved while failed lifts the instance out of the failure.
    pub fn set_state(&mut self, handle: Handle) -> Outcome {
        let Some(i) = self.find(handle) else {
            return Err("FMUstate is not a live state of this instance".into());
        };
        let s = &self.snapshots[i];
        if self.foreign_phase(s.phase) {
            return Err(format!(
                "FMUstate was saved in state {} of the other interface: this instance runs {:?}",
                s.phase.name(),
                self.interface
            ));
        }
        if !self.model.assign(s.model.as_ref()) {
            return Err("FMUstate belongs to another model".into());
        }
        self.phase = match (s.phase, self.interface) {
            (Phase::Error | Phase::Fatal | Phase::StepFailed, Interface::CoSimulation) => Phase::StepComplete,
            (Phase::Error | Phase::Fatal, Interface::ModelExchange) => Phase::EventMode,
            (saved, _) => saved,
        };
        self.dirty = true;
        self.event_passes = 0;
        self.clock = s.clock;
        self.start_time = s.start_time;
        self.stale = s.stale;
        self.commit(self.clock.time);
        Ok(Status::Ok)
    }

    pub fn free_state(&mut self, handle: Handle) -> Outcome {
        if handle.is_null() {
            return Ok(Status::Ok); // freeing NULL is a no-op, as free(NULL)
        }
        let Some(i) = self.find(handle) else {
            return Err("FMUstate is not a live state of this instance (already freed?)".into());
        };
        self.snapshots.swap_remove(i);
        Ok(Status::Ok)
    }

    /// Byte form of a state: magic, format version, GUID, framing, model.
    pub fn serialize(&self, handle: Handle) -> Result<Vec<u8>, String> {
        let Some(i) = self.find(handle) else {
            return Err("FMUstate is not a live state of this instance".into());
        };
        let s = &self.snapshots[i];
        let model = s.model.to_bytes();
        let mut out = Vec::with_capacity(64 + self.guid.len() + model.len());
        out.extend_from_slice(SERIAL_MAGIC);
        out.extend_from_slice(&SERIAL_VERSION.to_le_bytes());
        out.extend_from_slice(&(self.guid.len() as u32).to_le_bytes());
        out.extend_from_slice(self.guid.as_bytes());
        out.push(s.phase as u8);
        out.extend_from_slice(&s.clock.time.to_le_bytes());
        out.extend_from_slice(&s.start_time.to_le_bytes());
        // stopTime: NaN when none is defined.
        out.extend_from_slice(&s.clock.stop_time().unwrap_or(f64::NAN).to_le_bytes());
        out.extend_from_slice(&s.clock.substeps.to_le_bytes());
        out.push(s.stale as u8);
        out.extend_from_slice(&(model.len() as u32).to_le_bytes());
        out.extend_from_slice(&model);
        Ok(out)
    }

    /// Decode a serialized state into `existing` if it is one of ours (as
    /// getting a state overwrites), else into a new state.
    pub fn deserialize(&mut self, bytes: &[u8], existing: Handle) -> Result<Handle, String> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(8)? != SERIAL_MAGIC {
            return Err("not a serialized FMU state of this project (bad magic)".into());
        }
        let version = r.u32()?;
        if version != SERIAL_VERSION {
            return Err(format!("serialized FMU state has format version {version}, this FMU reads {SERIAL_VERSION}"));
        }
        let guid_len = r.u32()? as usize;
        let guid = r.take(guid_len)?;
        if guid != self.guid.as_bytes() {
            return Err(format!(
                "serialized FMU state is for GUID {}, this FMU is {}",
                String::from_utf8_lossy(guid),
                self.guid
            ));
        }
        let phase = Phase::from_u8(r.u8()?).ok_or("serialized FMU state has an invalid phase")?;
        let time = r.f64()?;
        let start_time = r.f64()?;
        let stop_time = r.f64()?;
        let substeps = r.u64()?;
        let stale = match r.u8()? {
            0 => false,
            1 => true,
            _ => return Err("serialized FMU state has an invalid flag".into()),
        };
        let model_len = r.u32()? as usize;
        let model = self.model.decode(r.take(model_len)?)?;
        if r.at != bytes.len() {
            return Err(format!("{} trailing bytes after the serialized FMU state", bytes.len() - r.at));
        }
        if !time.is_finite() || !start_time.is_finite() || stop_time.is_infinite() || phase == Phase::Fatal {
            return Err("serialized FMU state holds a non-finite time or a fatal phase".into());
        }
        if self.foreign_phase(phase) {
            return Err(format!(
                "serialized FMU state was saved in state {} of the other interface: this instance runs {:?}",
                phase.name(),
                self.interface
            ));
        }
        model.check_finite().map_err(|e| format!("serialized FMU state is not finite: {e}"))?;
        model
            .check_all(self.interface == Interface::CoSimulation)
            .map_err(|e| format!("serialized FMU state breaks a rule: {e}"))?;
        let mut clock = Clock::default();
        (clock.time, clock.substeps) = (time, substeps);
        clock.set_stop_time(Some(stop_time).filter(|t| !t.is_nan()));
        let snapshot = Snapshot { phase, clock, start_time, stale, model };
        if let Some(i) = self.find(existing) {
            *self.snapshots[i] = snapshot;
            return Ok(existing);
        }
        if !existing.is_null() {
            return Err("*FMUstate is neither NULL nor a state of this instance".into());
        }
        Ok(self.keep(snapshot))
    }
}

/// Bounds-checked reading of a serialized state.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or_else(|| {
            format!("serialized FMU state is truncated: {} bytes, needed {} at offset {}", self.bytes.len(), n, self.at)
        })?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }
    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }
    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }
    fn f64(&mut self) -> Result<f64, String> {
        Ok(f64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }
}
