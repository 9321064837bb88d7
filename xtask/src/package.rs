//! `cargo xtask fmu`: one FMU archive per model.

use crate::{cargo, root, run, self_describing, Result};
use std::io::Write;
use std::path::PathBuf;
use zip::write::SimpleFileOptions;

/// Where the FMUs go (named in the README).
pub fn fmu_dir() -> PathBuf {
    root().join("target/fmu")
}

/// Build the binary in release and write every `<ModelIdentifier>.fmu`.
pub fn build_fmus() -> Result<PathBuf> {
    run(cargo().current_dir(root()).args(["build", "--release", "--locked", "-p", "fmu"]))?;
    let binary = root().join("target/release/libfmu.so");
    let so = std::fs::read(&binary).map_err(|e| format!("{}: {e}", binary.display()))?;
    let out = fmu_dir();
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    for m in fmu::models::MODELS {
        let id = m.info.identifier;
        let path = out.join(format!("{id}.fmu"));
        let xml = fmu::xml::with_generation_date(&(m.model_description)(), &self_describing::generation_date());
        let extra = self_describing::entries(m)?;
        write_fmu(&path, id, &xml, &so, &extra).map_err(|e| format!("{}: {e}", path.display()))?;
        println!(
            "built {} ({} bytes, GUID {})",
            path.display(),
            std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0),
            (m.guid)()
        );
    }
    println!("{} FMUs in {}", fmu::models::MODELS.len(), out.display());
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

fn write_fmu(
    path: &std::path::Path,
    id: &str,
    xml: &str,
    so: &[u8],
    extra: &[(String, Vec<u8>)],
) -> zip::result::ZipResult<()> {
    let mut zip = zip::ZipWriter::new(std::fs::File::create(path)?);
    // A fixed timestamp keeps the archive byte-identical between builds.
    let options = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .last_modified_time(zip::DateTime::default());
    zip.start_file("modelDescription.xml", options)?;
    zip.write_all(xml.as_bytes())?;
    zip.start_file(format!("binaries/linux64/{id}.so"), options.unix_permissions(0o755))?;
    zip.write_all(so)?;
    for (name, bytes) in extra {
        zip.start_file(name.as_str(), options)?;
        zip.write_all(bytes)?;
    }
    zip.finish()?;
    Ok(())
}
