//! `cargo xtask fmu`: one FMU archive per model.

use crate::platforms::{self, Binary};
use crate::self_describing;
use crate::util::{root, Result};
use std::io::Write;
use std::path::PathBuf;
use zip::write::SimpleFileOptions;

/// Where the FMUs go (named in the README).
pub fn fmu_dir() -> PathBuf {
    root().join("target/fmu")
}

/// Build the binary in release for every platform (`host_only`: linux64 for
/// this machine) and write every `<ModelIdentifier>.fmu`; also the aarch64
/// Linux set in `aarch64-linux/` (see [`platforms::AARCH64_FOLDER`]).
pub fn build_fmus(host_only: bool) -> Result<PathBuf> {
    let binaries = if host_only { platforms::host()? } else { platforms::all()? };
    let out = fmu_dir();
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let aarch64 = binaries.iter().find(|b| b.folder == platforms::AARCH64_FOLDER);
    let aarch64_dir = out.join(platforms::AARCH64_FOLDER);
    // A host-only build must not leave an older aarch64 set looking current.
    let _ = std::fs::remove_dir_all(&aarch64_dir);
    remove_stale(&out)?;
    for m in fmu::registry::MODELS {
        let id = m.info.identifier;
        let path = out.join(format!("{id}.fmu"));
        let xml = fmu::xml::with_generation_date(&(m.model_description)(), &self_describing::generation_date());
        let folders: Vec<&str> = binaries.iter().map(|b| b.folder).collect();
        let extra = self_describing::entries(m, &folders, self_describing::Standard::Fmi2)?;
        let mut entries = vec![("modelDescription.xml".to_string(), xml.clone().into_bytes())];
        entries.extend(binary_entries(id, &binaries));
        entries.extend(extra);
        write_fmu(&path, &entries).map_err(|e| format!("{}: {e}", path.display()))?;
        if let Some(b) = aarch64 {
            // What FMPy and the FMI Library load on aarch64 Linux: linux64.
            std::fs::create_dir_all(&aarch64_dir).map_err(|e| format!("{}: {e}", aarch64_dir.display()))?;
            let linux64 = Binary { folder: "linux64", extension: b.extension, bytes: b.bytes.clone() };
            let mut entries = vec![("modelDescription.xml".to_string(), xml.into_bytes())];
            entries.extend(binary_entries(id, std::slice::from_ref(&linux64)));
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
            .flat_map(|b| {
                platforms::fmi3_folders(b.folder).iter().map(|&folder| Binary {
                    folder,
                    extension: b.extension,
                    bytes: b.bytes.clone(),
                })
            })
            .collect();
        let folders3: Vec<&str> = binaries3.iter().map(|b| b.folder).collect();
        let mut entries = vec![("modelDescription.xml".to_string(), xml3.into_bytes())];
        entries.extend(binary_entries(id, &binaries3));
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
    write_cross_check_files(&out)?;
    self_describing::write_cross_check_sets(&out)?;
    crate::ssp::write_systems(&out)?;
    Ok(out)
}

/// The scenarios' input signals in the FMI cross-check format, so that any
/// importer can replay them: every scenario in `scenarios/<name>/` with
/// `<Model>_in.csv`, `<Model>_ref.opt` and the `start_values.csv` of the
/// parameters it sets. (Beside each FMU: its default run's complete set,
/// see `self_describing::write_cross_check_sets`.)
fn write_cross_check_files(out: &std::path::Path) -> Result<()> {
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

/// `binaries/<platform>/<id><ext>` for each binary.
fn binary_entries(id: &str, binaries: &[Binary]) -> Vec<(String, Vec<u8>)> {
    binaries.iter().map(|b| (format!("binaries/{}/{id}{}", b.folder, b.extension), b.bytes.clone())).collect()
}

/// One archive from (path in the zip, bytes); binaries get mode 755.
fn write_fmu(path: &std::path::Path, entries: &[(String, Vec<u8>)]) -> zip::result::ZipResult<()> {
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
fn remove_stale(out: &std::path::Path) -> Result<()> {
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
