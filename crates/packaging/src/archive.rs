//! The FMU archives: one `<ModelIdentifier>.fmu` per model and standard
//! from the binaries the xtask built (`target/fmu/`, `target/fmu/fmi3/`, the
//! aarch64 Linux set in `target/fmu/aarch64-linux/`), the platform folders
//! inside them, the scenarios' cross-check files and, from the FMUs
//! written, the cross-check sets and the SSP systems.

use crate::self_describing;
use crate::util::Result;
use std::io::Write;
use std::path::{Path, PathBuf};
use zip::write::SimpleFileOptions;

/// One platform's binaries: `binaries/<folder>/<Model><extension>`, each
/// model's its own (`per_model`: identifier to bytes; see
/// [`crate::binaries`]).
#[derive(Clone)]
pub struct Binary {
    pub folder: &'static str,
    pub extension: &'static str,
    pub per_model: std::collections::BTreeMap<&'static str, Vec<u8>>,
}

/// FMI 2.0 folder of aarch64 Linux in the main FMU. FMI 2.0 names only
/// win32/64, linux32/64 and darwin32/64; FMPy 0.3.32 and the FMI Library
/// (OMSimulator) look in `linux64` on any 64-bit Linux, so that folder
/// holds x86_64 here and aarch64 goes under the FMI 3.0 name, and into the
/// aarch64 set of FMUs (`target/fmu/aarch64-linux/`) as `linux64`.
pub const AARCH64_FOLDER: &str = "aarch64-linux";

/// FMI 3.0's platform folders for a binary of the FMI 2.0 folder `folder`
/// (FMI 3.0, 2.5.1.1: `<arch>-<os>`). The darwin binary is universal
/// (x86_64 and arm64 slices), so it serves both darwin folders.
pub fn fmi3_folders(folder: &str) -> &'static [&'static str] {
    match folder {
        "linux64" => &["x86_64-linux"],
        "win64" => &["x86_64-windows"],
        "darwin64" => &["x86_64-darwin", "aarch64-darwin"],
        AARCH64_FOLDER => &["aarch64-linux"],
        _ => &[],
    }
}

/// Write every `<ModelIdentifier>.fmu` into `out` from `binaries` (one per
/// platform built), the FMI 3.0 FMUs into `out/fmi3/`, the aarch64 Linux set
/// into `out/aarch64-linux/` when there is an aarch64 binary (see
/// [`AARCH64_FOLDER`]), then the cross-check files and sets and the SSP
/// systems; outputs of an earlier build that this one would not write are
/// removed first.
pub fn write_fmus(out: &Path, binaries: &[Binary]) -> Result<()> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let aarch64 = binaries.iter().find(|b| b.folder == AARCH64_FOLDER);
    let aarch64_dir = out.join(AARCH64_FOLDER);
    // A host-only build must not leave an older aarch64 set looking current.
    let _ = std::fs::remove_dir_all(&aarch64_dir);
    remove_stale(out)?;
    for m in fmu::registry::MODELS {
        let id = m.info.identifier;
        let path = out.join(format!("{id}.fmu"));
        let xml = fmu::xml::with_generation_date(&(m.model_description)(), &self_describing::generation_date());
        let folders: Vec<&str> = binaries.iter().map(|b| b.folder).collect();
        let extra = self_describing::entries(m, &folders, self_describing::Standard::Fmi2)?;
        let mut entries = vec![("modelDescription.xml".to_string(), xml.clone().into_bytes())];
        entries.extend(binary_entries(id, binaries)?);
        entries.extend(extra);
        write_fmu(&path, &entries).map_err(|e| format!("{}: {e}", path.display()))?;
        if let Some(b) = aarch64 {
            // What FMPy and the FMI Library load on aarch64 Linux: linux64.
            std::fs::create_dir_all(&aarch64_dir).map_err(|e| format!("{}: {e}", aarch64_dir.display()))?;
            let linux64 = Binary { folder: "linux64", ..b.clone() };
            let mut entries = vec![("modelDescription.xml".to_string(), xml.into_bytes())];
            entries.extend(binary_entries(id, std::slice::from_ref(&linux64))?);
            entries.extend(self_describing::entries(
                m,
                &["linux64 (aarch64 Linux: FMPy's and the FMI Library's folder there)"],
                self_describing::Standard::Fmi2,
            )?);
            let path = aarch64_dir.join(format!("{id}.fmu"));
            write_fmu(&path, &entries).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        // The FMI 3.0 FMU: the same binary (it exports both standards),
        // FMI 3.0's model description and platform folders.
        let fmi3_dir = out.join("fmi3");
        std::fs::create_dir_all(&fmi3_dir).map_err(|e| format!("{}: {e}", fmi3_dir.display()))?;
        let xml3 = fmu::xml::with_generation_date(&(m.model_description3)(), &self_describing::generation_date());
        let binaries3: Vec<Binary> = binaries
            .iter()
            .flat_map(|b| fmi3_folders(b.folder).iter().map(|&folder| Binary { folder, ..b.clone() }))
            .collect();
        let folders3: Vec<&str> = binaries3.iter().map(|b| b.folder).collect();
        let mut entries = vec![("modelDescription.xml".to_string(), xml3.into_bytes())];
        entries.extend(binary_entries(id, &binaries3)?);
        entries.extend(self_describing::entries(m, &folders3, self_describing::Standard::Fmi3)?);
        let path3 = fmi3_dir.join(format!("{id}.fmu"));
        write_fmu(&path3, &entries).map_err(|e| format!("{}: {e}", path3.display()))?;
        println!(
            "built {} ({} bytes, GUID {})",
            path.display(),
            std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0),
            (m.guid)()
        );
    }
    println!(
        "{} FMUs in {} (FMI 2.0), the same in {} (FMI 3.0)",
        fmu::registry::MODELS.len(),
        out.display(),
        out.join("fmi3").display()
    );
    write_cross_check_files(out)?;
    self_describing::write_cross_check_sets(out)?;
    crate::ssp::write_systems(out)?;
    Ok(())
}

/// The scenarios' input signals in the FMI cross-check format, so that any
/// importer can replay them: every scenario in `scenarios/<name>/` with
/// `<Model>_in.csv`, `<Model>_ref.opt` and the `start_values.csv` of the
/// parameters it sets. (Beside each FMU: its default run's complete set,
/// see `self_describing::write_cross_check_sets`.)
fn write_cross_check_files(out: &Path) -> Result<()> {
    let write = |path: PathBuf, text: &str| std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()));
    let scenarios = fmu::scenarios::all();
    for s in &scenarios {
        let dir = out.join("scenarios").join(s.name);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        if let Some(csv) = s.input_csv() {
            write(dir.join(format!("{}_in.csv", s.model)), &csv)?;
        }
        write(dir.join(format!("{}_ref.opt", s.model)), &s.ref_opt())?;
        write(dir.join("start_values.csv"), &s.start_values_csv())?;
    }
    println!("{} scenarios' cross-check files in {}", scenarios.len(), out.join("scenarios").display());
    Ok(())
}

/// `binaries/<platform>/<id><ext>` for each platform: the model's own binary.
fn binary_entries(id: &str, binaries: &[Binary]) -> Result<Vec<(String, Vec<u8>)>> {
    binaries
        .iter()
        .map(|b| {
            let bytes = b.per_model.get(id).ok_or_else(|| format!("no {} binary of {id} was built", b.folder))?;
            Ok((format!("binaries/{}/{id}{}", b.folder, b.extension), bytes.clone()))
        })
        .collect()
}

/// One archive from (path in the zip, bytes); binaries get mode 755.
fn write_fmu(path: &Path, entries: &[(String, Vec<u8>)]) -> zip::result::ZipResult<()> {
    let mut zip = zip::ZipWriter::new(std::fs::File::create(path)?);
    // A fixed timestamp keeps the archive byte-identical between builds.
    let options = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .last_modified_time(zip::DateTime::default());
    for (name, bytes) in entries {
        let mode = if name.starts_with("binaries/") { 0o755 } else { 0o644 };
        zip.start_file(name.as_str(), options.unix_permissions(mode))?;
        zip.write_all(bytes)?;
    }
    zip.finish()?;
    Ok(())
}

/// Outputs of an earlier build that this one would not write (a model
/// renamed or removed): its `.fmu` and cross-check files beside the FMUs,
/// and the cross-check and scenario trees, which are written anew.
fn remove_stale(out: &Path) -> Result<()> {
    for tree in ["cross-check", "scenarios", "fmi3"] {
        let dir = out.join(tree);
        if dir.exists() {
            std::fs::remove_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
    }
    let registered: Vec<&str> = fmu::registry::MODELS.iter().map(|m| m.info.identifier).collect();
    let entries = std::fs::read_dir(out).map_err(|e| format!("{}: {e}", out.display()))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let model = [".fmu", "_in.csv", "_ref.csv", "_ref.opt"].iter().find_map(|suffix| name.strip_suffix(suffix));
        if let Some(model) = model {
            if !registered.contains(&model) && entry.path().is_file() {
                println!("removed {} (no such model now)", entry.path().display());
                std::fs::remove_file(entry.path()).map_err(|e| format!("{name}: {e}"))?;
            }
        }
    }
    Ok(())
}
