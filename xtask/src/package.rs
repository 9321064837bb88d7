//! `cargo xtask fmu`: one FMU archive per model.

use crate::{cargo, root, run, Result};
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
        let xml = (m.model_description)();
        write_fmu(&path, id, &xml, &so).map_err(|e| format!("{}: {e}", path.display()))?;
        println!(
            "built {} ({} bytes, GUID {})",
            path.display(),
            std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0),
            (m.guid)()
        );
    }
    println!("{} FMUs in {}", fmu::models::MODELS.len(), out.display());
    Ok(out)
}

fn write_fmu(path: &std::path::Path, id: &str, xml: &str, so: &[u8]) -> zip::result::ZipResult<()> {
    let mut zip = zip::ZipWriter::new(std::fs::File::create(path)?);
    // A fixed timestamp keeps the archive byte-identical between builds.
    let options = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .last_modified_time(zip::DateTime::default());
    zip.start_file("modelDescription.xml", options)?;
    zip.write_all(xml.as_bytes())?;
    zip.start_file(format!("binaries/linux64/{id}.so"), options.unix_permissions(0o755))?;
    zip.write_all(so)?;
    zip.finish()?;
    Ok(())
}
