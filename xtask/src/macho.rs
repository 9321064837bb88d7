//! What a universal (fat) Mach-O dylib holds, read with the `object` crate:
//! per slice the architecture, file type, minimum macOS, linked libraries
//! and exported symbols. The darwin64 binaries cannot run on Linux, so this
//! is how they are checked.

use crate::util::Result;
use object::macho;
use object::read::macho::{FatArch, LoadCommandVariant, MachHeader, MachOFatFile32, MachOFile64};
use object::Object;

pub struct Slice {
    /// "x86_64" or "arm64".
    pub arch: &'static str,
    /// "dylib" for MH_DYLIB.
    pub file_type: &'static str,
    /// Minimum macOS, "11.0" (from LC_BUILD_VERSION or LC_VERSION_MIN_MACOSX).
    pub min_os: String,
    /// LC_LOAD_DYLIB paths.
    pub libraries: Vec<String>,
    /// LC_ID_DYLIB: the name importers record when they link it.
    pub install_name: String,
    /// Exported symbol names as stored (with the leading underscore).
    pub exports: Vec<String>,
    /// The slice's size in bytes.
    pub bytes: usize,
}

/// `xxxx.yy.zz` nibble-packed version, without a zero patch.
fn version(v: u32) -> String {
    let (major, minor, patch) = (v >> 16, (v >> 8) & 0xff, v & 0xff);
    if patch == 0 {
        format!("{major}.{minor}")
    } else {
        format!("{major}.{minor}.{patch}")
    }
}

pub fn universal(data: &[u8]) -> Result<Vec<Slice>> {
    let fat = MachOFatFile32::parse(data).map_err(|e| format!("not a universal Mach-O: {e}"))?;
    let mut slices = Vec::new();
    for arch in fat.arches() {
        let bytes = arch.data(data).map_err(|e| e.to_string())?;
        let arch_name = match arch.cputype() {
            macho::CPU_TYPE_X86_64 => "x86_64",
            macho::CPU_TYPE_ARM64 => "arm64",
            other => return Err(format!("unexpected CPU type {other:#x}")),
        };
        slices.push(slice(arch_name, bytes)?);
    }
    Ok(slices)
}

fn slice(arch: &'static str, bytes: &[u8]) -> Result<Slice> {
    let file = MachOFile64::<object::Endianness>::parse(bytes).map_err(|e| format!("{arch}: {e}"))?;
    let endian = file.endian();
    let header = file.macho_header();
    let cpu_ok = match arch {
        "x86_64" => header.cputype(endian) == macho::CPU_TYPE_X86_64,
        _ => header.cputype(endian) == macho::CPU_TYPE_ARM64,
    };
    if !cpu_ok {
        return Err(format!("{arch}: the slice's own header names another CPU"));
    }
    let file_type = if header.filetype(endian) == macho::MH_DYLIB { "dylib" } else { "not a dylib" };
    let (mut min_os, mut libraries, mut install_name) = (String::new(), Vec::new(), String::new());
    let mut commands = file.macho_load_commands().map_err(|e| e.to_string())?;
    while let Some(command) = commands.next().map_err(|e| e.to_string())? {
        match command.variant().map_err(|e| e.to_string())? {
            LoadCommandVariant::BuildVersion(b) if b.platform.get(endian) == macho::PLATFORM_MACOS => {
                min_os = version(b.minos.get(endian))
            }
            LoadCommandVariant::VersionMin(v) if command.cmd() == macho::LC_VERSION_MIN_MACOSX => {
                min_os = version(v.version.get(endian))
            }
            LoadCommandVariant::Dylib(d) => {
                let name = command.string(endian, d.dylib.name).map_err(|e| e.to_string())?;
                libraries.push(String::from_utf8_lossy(name).into_owned());
            }
            LoadCommandVariant::IdDylib(d) => {
                let name = command.string(endian, d.dylib.name).map_err(|e| e.to_string())?;
                install_name = String::from_utf8_lossy(name).into_owned();
            }
            _ => {}
        }
    }
    let exports = file
        .exports()
        .map_err(|e| e.to_string())?
        .iter()
        .map(|e| String::from_utf8_lossy(e.name()).into_owned())
        .collect();
    Ok(Slice { arch, file_type, min_os, libraries, install_name, exports, bytes: bytes.len() })
}
