//! Access to the shared DXIL corpus (`../shared/corpus`, overridable with
//! `DXJIT_CORPUS`). The corpus is never copied into the project: tests that
//! need it call [`Corpus::open`] and report themselves skipped when it is
//! absent.

use serde::Deserialize;
use std::path::{Path, PathBuf};

/// One blob of the corpus, as listed in a `manifest.json`.
#[derive(Debug, Clone, Deserialize)]
pub struct Entry {
    pub name: String,
    pub category: String,
    /// Path relative to the manifest's folder.
    pub dxil_path: String,
    pub hlsl_path: Option<String>,
    pub stage: String,
    pub shader_model: String,
    #[serde(default)]
    pub entry_points: Vec<String>,
    #[serde(default)]
    pub parts: Vec<String>,
    /// Payload sizes of `parts`, in the same order.
    #[serde(default)]
    pub part_sizes: Vec<u32>,
    /// `valid`, `zero` or `mismatch`.
    #[serde(default)]
    pub container_digest: Option<String>,
    #[serde(default)]
    pub bitcode_size: Option<u64>,
    #[serde(default)]
    pub bitcode_offset_in_part: Option<u64>,
    /// Raw program-version word, as hex text (`0x00050060`).
    #[serde(default)]
    pub program_version: Option<String>,
    /// `major.minor` from the bitcode header.
    #[serde(default)]
    pub dxil_version: Option<String>,
    /// Size of the container file in bytes.
    #[serde(default)]
    pub size: Option<u64>,
    /// The module's `!llvm.ident`, e.g. `dxcoob 1.8.2407.7 (416fab6b5)`.
    #[serde(default)]
    pub dxc_version: Option<String>,
    /// SHA-256 of the container file, hex.
    #[serde(default)]
    pub sha256: Option<String>,
    #[serde(default)]
    pub test_functions: Vec<String>,
    #[serde(default)]
    pub validated: Option<bool>,
}

#[derive(Debug, Deserialize)]
struct Manifest {
    entries: Vec<Entry>,
}

/// A corpus set (one manifest): `vkd3d-proton` or `dxil-spirv`.
#[derive(Debug, Clone)]
pub struct CorpusSet {
    pub name: String,
    pub root: PathBuf,
    pub entries: Vec<Entry>,
}

impl CorpusSet {
    pub fn path_of(&self, e: &Entry) -> PathBuf {
        self.root.join(&e.dxil_path)
    }
}

/// The whole corpus: every manifest below the corpus root.
#[derive(Debug, Clone)]
pub struct Corpus {
    pub root: PathBuf,
    pub sets: Vec<CorpusSet>,
}

/// The two sets the shared corpus holds, in a fixed order.
pub const SETS: [&str; 2] = ["vkd3d-proton", "dxil-spirv"];

/// Where the corpus is looked for: `$DXJIT_CORPUS`, else `../shared/corpus`
/// relative to the workspace root.
pub fn corpus_root() -> PathBuf {
    if let Some(p) = std::env::var_os("DXJIT_CORPUS") {
        return PathBuf::from(p);
    }
    workspace_root().join("../shared/corpus")
}

/// The workspace root (parent of this crate's folder).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."))
}

/// Project fixtures committed under `fixtures/`.
pub fn fixtures_root() -> PathBuf {
    workspace_root().join("fixtures")
}

impl Corpus {
    /// Opens the corpus, or returns `None` when it is absent.
    pub fn open() -> Option<Corpus> {
        Self::open_at(&corpus_root())
    }

    pub fn open_at(root: &Path) -> Option<Corpus> {
        let mut sets = Vec::new();
        for name in SETS {
            let dir = root.join(name);
            let manifest = dir.join("manifest.json");
            let Ok(text) = std::fs::read_to_string(&manifest) else { continue };
            let m: Manifest = match serde_json::from_str(&text) {
                Ok(m) => m,
                Err(e) => panic!("corpus manifest {} is malformed: {e}", manifest.display()),
            };
            sets.push(CorpusSet { name: name.to_string(), root: dir, entries: m.entries });
        }
        if sets.is_empty() {
            None
        } else {
            Some(Corpus { root: root.to_path_buf(), sets })
        }
    }

    /// Opens the corpus for a test, printing a skip line naming the test when it is absent.
    pub fn for_test(test: &str) -> Option<Corpus> {
        let c = Self::open();
        if c.is_none() {
            eprintln!("SKIPPED {test}: corpus not found at {} (set DXJIT_CORPUS)", corpus_root().display());
        }
        c
    }

    /// Every (set, entry) pair.
    pub fn entries(&self) -> impl Iterator<Item = (&CorpusSet, &Entry)> {
        self.sets.iter().flat_map(|s| s.entries.iter().map(move |e| (s, e)))
    }

    pub fn set(&self, name: &str) -> Option<&CorpusSet> {
        self.sets.iter().find(|s| s.name == name)
    }
}

/// Every `.dxil` file below `path` in sorted order (or `path` itself when it
/// is a file), for tools that walk a folder of containers.
pub fn dxil_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_file() {
        out.push(path.to_path_buf());
        return;
    }
    let Ok(rd) = std::fs::read_dir(path) else { return };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            dxil_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "dxil") {
            out.push(p);
        }
    }
}
