//! `RDAT` of assembled libraries, against DXC's: every library of the fixtures and the corpus is
//! printed as `dxjit dis` prints it (module text, then its `RDAT` subobjects as DXC's
//! `!dx.subobjects`) and assembled again.
//!
//! - The assembled `RDAT` decodes to the original's: the function table (mangled and plain names,
//!   shader kinds, payload and attribute sizes) and the subobjects (root signature bytes, configs,
//!   hit groups, associations).
//! - It is the original part byte for byte wherever DXC wrote 52-byte function records (validator
//!   1.8 and later) and the original sets none of what the assembler does not make
//!   (`asm/rdat.rs`): per-function feature flags and node-shader records. That covers the DXC
//!   libraries of fixtures/raytracing.
//! - The `DXIL` part of the assembled container holds no `!dx.subobjects` (DXC strips them too).

use dxjit::container::rdat::Rdat;
use dxjit::container::Container;
use dxjit_conformance::corpus::{dxil_files, fixtures_root, Corpus};
use std::path::PathBuf;

/// The function-table records of an `RDAT` payload: (stride in bytes, records as words).
fn function_records(rdat: &[u8]) -> Option<(usize, Vec<Vec<u32>>)> {
    let w = |o: usize| rdat.get(o..o + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    let n = w(4)? as usize;
    for k in 0..n {
        let off = w(8 + 4 * k)? as usize;
        if w(off)? != 4 {
            continue;
        }
        let (count, stride) = (w(off + 8)? as usize, w(off + 12)? as usize);
        let recs = (0..count)
            .map(|r| (0..stride / 4).map(|f| w(off + 16 + r * stride + 4 * f)).collect::<Option<Vec<u32>>>())
            .collect::<Option<Vec<_>>>()?;
        return Some((stride, recs));
    }
    None
}

/// Whether DXC's `RDAT` holds only what the assembler makes (see the module comment).
fn fully_made(rdat: &[u8]) -> bool {
    let Some((stride, recs)) = function_records(rdat) else { return false };
    // Fields: name, unmangled, resources, dependencies, kind, payload, attributes, feature info 1
    // and 2, stage mask, min target, wave sizes + shader flags, shader-info reference.
    stride == 52 && recs.iter().all(|r| r[7] == 0 && r[8] == 0 && r[4] != 15)
}

#[test]
fn assembled_libraries_have_dxc_runtime_data() {
    let mut files = Vec::new();
    if let Some(c) = Corpus::for_test("assembled_libraries_have_dxc_runtime_data (corpus part)") {
        files.extend(c.entries().map(|(s, e)| s.path_of(e)));
    }
    dxil_files(&fixtures_root(), &mut files);
    let (mut n, mut decoded_same, mut bytes_same, mut fully) = (0, 0, 0, 0);
    let mut fixture_libraries: Vec<PathBuf> = Vec::new();
    let mut failures = Vec::new();
    for p in &files {
        let bytes = std::fs::read(p).unwrap();
        let Ok(c) = Container::parse(&bytes) else { continue };
        let Some(orig) = c.rdat() else { continue };
        let orig_decoded = Rdat::parse(orig).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let m = dxjit::bitcode::read_module(c.dxil_program().unwrap().bitcode).unwrap();
        n += 1;
        if p.starts_with(fixtures_root()) {
            fixture_libraries.push(p.clone());
        }
        let mut text = dxjit::ir::print::print_module(&m);
        text.push_str(&dxjit::asm::rdat::subobjects_text(&orig_decoded.subobjects, m.metadata.len()));
        let ours = match dxjit::asm::assemble(&text, &Default::default()) {
            Ok(b) => b,
            Err(e) => {
                failures.push(format!("{}: {e}", p.display()));
                continue;
            }
        };
        let oc = Container::parse(&ours).unwrap();
        let ours_rdat = oc.rdat().expect("an assembled library has an RDAT part");
        let bitcode = oc.dxil_program().unwrap().bitcode;
        let m2 = dxjit::bitcode::read_module(bitcode).unwrap();
        if m2.named_md(dxjit::asm::rdat::SUBOBJECTS_MD).is_some() {
            failures.push(format!("{}: the DXIL part keeps !dx.subobjects", p.display()));
        }
        match Rdat::parse(ours_rdat) {
            Ok(d) if d == orig_decoded => decoded_same += 1,
            Ok(d) => failures.push(format!("{}: decodes differently:\n  {orig_decoded:?}\n  {d:?}", p.display())),
            Err(e) => failures.push(format!("{}: assembled RDAT: {e}", p.display())),
        }
        let same = ours_rdat == orig;
        bytes_same += usize::from(same);
        if fully_made(orig) {
            fully += 1;
            if !same {
                failures.push(format!("{}: RDAT differs from DXC's byte for byte", p.display()));
            }
        }
    }
    for f in failures.iter().take(10) {
        eprintln!("{f}");
    }
    eprintln!(
        "libraries: {n}; RDAT decodes the same: {decoded_same}; byte for byte: {bytes_same}, among them \
         all {fully} whose RDAT holds only what the assembler makes"
    );
    assert!(failures.is_empty(), "{} of {n} libraries", failures.len());
    // The five DXC libraries of fixtures/raytracing (and hand-assembled ones) are all in reach.
    assert!(fixture_libraries.len() >= 5, "{fixture_libraries:?}");
    for p in &fixture_libraries {
        let bytes = std::fs::read(p).unwrap();
        assert!(fully_made(Container::parse(&bytes).unwrap().rdat().unwrap()), "{}", p.display());
    }
}
