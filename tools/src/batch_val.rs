//! spirv-val over many modules with few process starts: modules are written
//! into one folder per target environment and chunk, and spirv-val is run
//! once on each folder (it validates every `.spv` below a folder it is given).
//! A chunk that fails is validated again module by module, so each invalid
//! module gets its own verdict and message whatever spirv-val's folder
//! output looks like (older spirv-val without folder support just costs the
//! per-module runs).

use std::path::{Path, PathBuf};
use std::process::Command;

use dxjit_conformance::spirv_val;

/// Modules per spirv-val run.
pub const CHUNK: usize = 64;

/// The validator command, or why there is none.
pub fn find_validator() -> Result<String, String> {
    let cmd = spirv_val::validator();
    match Command::new(&cmd).arg("--version").output() {
        Ok(o) if o.status.success() => Ok(cmd),
        Ok(o) => Err(format!("{cmd} --version exited with {}", o.status)),
        Err(e) => Err(format!("{cmd}: {e}")),
    }
}

/// One module to validate: the caller's index and its words.
pub struct Module<'a> {
    pub index: usize,
    pub words: &'a [u32],
}

/// A chunk of modules of one target environment, written to disk.
pub struct Chunk {
    env: &'static str,
    dir: PathBuf,
    /// (caller's index, file)
    files: Vec<(usize, PathBuf)>,
}

impl Chunk {
    /// How many modules the chunk holds.
    pub fn modules(&self) -> usize {
        self.files.len()
    }
}

/// Writes `modules` below `scratch`, grouped by target environment into
/// chunks of at most [`CHUNK`].
pub fn write_chunks(scratch: &Path, modules: &[Module<'_>]) -> std::io::Result<Vec<Chunk>> {
    let mut by_env: Vec<(&'static str, Vec<&Module<'_>>)> = Vec::new();
    for m in modules {
        let env = spirv_val::target_env(spirv_val::version_of(m.words));
        match by_env.iter_mut().find(|(e, _)| *e == env) {
            Some((_, v)) => v.push(m),
            None => by_env.push((env, vec![m])),
        }
    }
    let mut chunks = Vec::new();
    for (env, mods) in by_env {
        for (ci, group) in mods.chunks(CHUNK).enumerate() {
            let dir = scratch.join(format!("{env}-{ci}"));
            std::fs::create_dir_all(&dir)?;
            let mut files = Vec::with_capacity(group.len());
            for m in group {
                let path = dir.join(format!("{:06}.spv", m.index));
                let bytes: Vec<u8> = m.words.iter().flat_map(|w| w.to_le_bytes()).collect();
                std::fs::write(&path, bytes)?;
                files.push((m.index, path));
            }
            chunks.push(Chunk { env, dir, files });
        }
    }
    Ok(chunks)
}

/// Validates one chunk: `(caller's index, Err(message))` for each invalid module.
pub fn validate_chunk(validator: &str, chunk: &Chunk) -> Vec<(usize, String)> {
    let whole = Command::new(validator).args(["--target-env", chunk.env]).arg(&chunk.dir).output();
    if matches!(&whole, Ok(o) if o.status.success()) {
        return Vec::new();
    }
    let mut bad = Vec::new();
    for (index, path) in &chunk.files {
        match Command::new(validator).args(["--target-env", chunk.env]).arg(path).output() {
            Ok(o) if o.status.success() => {}
            Ok(o) => {
                let text = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
                bad.push((*index, text.trim().replace(&path.display().to_string(), "module")));
            }
            Err(e) => bad.push((*index, format!("cannot run {validator}: {e}"))),
        }
    }
    bad
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chunk holding valid modules and two invalid ones reports exactly the
    /// invalid ones, each under its own index.
    #[test]
    fn a_failing_chunk_names_each_invalid_module() {
        let validator = match find_validator() {
            Ok(v) => v,
            Err(why) => {
                eprintln!("SKIPPED a_failing_chunk_names_each_invalid_module: {why}");
                return;
            }
        };
        let fixtures = dxjit_conformance::corpus::fixtures_root();
        let mut words = Vec::new();
        for f in ["compute/bitops.cs_6_0.dxil", "graphics/fullscreen.vs_6_0.dxil"] {
            let bytes = std::fs::read(fixtures.join(f)).expect("fixture");
            words.push(dxjit::compile(&bytes, &dxjit::CompileOptions::default()).expect("fixture compiles").spirv);
        }
        // Invalid: the id bound is cut to 1, so every result id is out of range.
        let mut bad_bound = words[0].clone();
        bad_bound[3] = 1;
        // Invalid: the module stops in the middle of an instruction.
        let truncated = words[1][..words[1].len() / 2].to_vec();
        let modules = [
            Module { index: 10, words: &words[0] },
            Module { index: 11, words: &bad_bound },
            Module { index: 12, words: &words[1] },
            Module { index: 13, words: &truncated },
        ];
        let scratch = std::env::temp_dir().join(format!("dxjit-batch-val-{}", std::process::id()));
        let chunks = write_chunks(&scratch, &modules).expect("write chunks");
        let mut bad: Vec<(usize, String)> = chunks.iter().flat_map(|c| validate_chunk(&validator, c)).collect();
        let _ = std::fs::remove_dir_all(&scratch);
        bad.sort();
        assert_eq!(bad.iter().map(|b| b.0).collect::<Vec<_>>(), [11, 13], "{bad:?}");
        assert!(bad.iter().all(|b| b.1.contains("error")), "{bad:?}");
    }
}
