//! The DXBC container parser against every blob of the shared corpus: the
//! manifests record what DXC put in each container (parts, sizes, stage,
//! shader model, bitcode size, digest state), and the parser must agree.
//! Skips cleanly (with a SKIPPED line) when the corpus is absent.

use dxjit::container::psv::PsvSignatureElement;
use dxjit::container::signature::{ComponentType, Signature, SignatureElement, SystemValue};
use dxjit::container::{Container, ContainerError};
use dxjit::{SemanticKind, ShaderKind};
use dxjit_conformance::corpus::{Corpus, CorpusSet, Entry};

fn read(set: &CorpusSet, e: &Entry) -> Vec<u8> {
    let p = set.path_of(e);
    std::fs::read(&p).unwrap_or_else(|err| panic!("{}: {err}", p.display()))
}

/// Decodes every part the parser knows; the first error, if any.
fn decode_all(bytes: &[u8]) -> Result<(), ContainerError> {
    let c = Container::parse(bytes)?;
    c.dxil_program()?;
    c.input_signature()?;
    c.output_signature()?;
    c.patch_constant_signature()?;
    c.psv0()?;
    c.hash()?;
    c.root_signature()?;
    c.version_info()?;
    let _ = c.feature_flags();
    let _ = c.rdat();
    let _ = c.digest_status();
    Ok(())
}

fn fourcc_str(f: &[u8; 4]) -> String {
    String::from_utf8_lossy(f).into_owned()
}

/// Checks one blob against its manifest entry; returns the problems found.
fn check_entry(e: &Entry, bytes: &[u8]) -> Vec<String> {
    let mut bad = Vec::new();
    let c = match Container::parse(bytes) {
        Ok(c) => c,
        Err(err) => return vec![format!("parse: {err}")],
    };
    let parts: Vec<String> = c.parts.iter().map(|p| fourcc_str(&p.fourcc)).collect();
    if parts != e.parts {
        bad.push(format!("parts {parts:?} != manifest {:?}", e.parts));
    }
    let sizes: Vec<u32> = c.parts.iter().map(|p| p.data.len() as u32).collect();
    if sizes != e.part_sizes {
        bad.push(format!("part sizes {sizes:?} != manifest {:?}", e.part_sizes));
    }
    if let Some(size) = e.size {
        if c.total_size as u64 != size {
            bad.push(format!("total size {} != manifest {size}", c.total_size));
        }
    }
    match c.dxil_program() {
        Ok(p) => {
            if p.shader_kind.name() != e.stage {
                bad.push(format!("stage {} != manifest {}", p.shader_kind.name(), e.stage));
            }
            let sm = format!("{}.{}", p.shader_model.0, p.shader_model.1);
            if sm != e.shader_model {
                bad.push(format!("shader model {sm} != manifest {}", e.shader_model));
            }
            if let Some(pv) = &e.program_version {
                if format!("0x{:08x}", p.program_version) != pv.to_ascii_lowercase() {
                    bad.push(format!("program version {:#010x} != manifest {pv}", p.program_version));
                }
            }
            if let Some(dv) = &e.dxil_version {
                let got = format!("{}.{}", p.dxil_version.0, p.dxil_version.1);
                if &got != dv {
                    bad.push(format!("dxil version {got} != manifest {dv}"));
                }
            }
            if e.bitcode_size != Some(p.bitcode.len() as u64) {
                bad.push(format!("bitcode size {} != manifest {:?}", p.bitcode.len(), e.bitcode_size));
            }
            if e.bitcode_offset_in_part != Some(p.bitcode_offset_in_part() as u64) {
                bad.push(format!(
                    "bitcode offset {} != manifest {:?}",
                    p.bitcode_offset_in_part(),
                    e.bitcode_offset_in_part
                ));
            }
            let part_len = c.part(b"DXIL").map_or(0, |d| d.data.len());
            if p.size_in_dwords as usize * 4 != part_len {
                bad.push(format!("program size {} dwords != part size {part_len}", p.size_in_dwords));
            }
        }
        Err(err) => bad.push(format!("dxil program: {err}")),
    }
    let has = |f: &str| e.parts.iter().any(|p| p == f);
    if c.feature_flags().is_some() != has("SFI0") {
        bad.push("SFI0 feature flags presence differs from parts".to_string());
    }
    if c.rdat().map(|r| r.len()) != c.part(b"RDAT").map(|p| p.data.len()) || c.rdat().is_some() != has("RDAT") {
        bad.push("RDAT presence differs from parts".to_string());
    }
    match c.hash() {
        Ok(h) if h.is_some() != has("HASH") => bad.push("HASH presence differs from parts".to_string()),
        Ok(Some(h)) if h.flags != 0 => bad.push(format!("HASH flags {} (always 0 in the corpus)", h.flags)),
        Err(err) => bad.push(format!("HASH: {err}")),
        _ => {}
    }
    match c.version_info() {
        Ok(v) if v.is_some() != has("VERS") => bad.push("VERS presence differs from parts".to_string()),
        // dxil-spirv's DXC: "VERS version 1.10, commit count 0, commit hash 00000000, version string 1.9.0.0".
        Ok(Some(v)) if e.dxc_version.as_deref() == Some("dxc(private) 1.9.0.0 (private, 00000000)") => {
            let got = (v.major, v.minor, v.commit_count, v.commit_sha, v.version_string);
            if got != (1, 10, 0, "00000000", Some("1.9.0.0")) {
                bad.push(format!("VERS {got:?}"));
            }
        }
        Err(err) => bad.push(format!("VERS: {err}")),
        _ => {}
    }
    // No blob carries a root signature.
    if !matches!(c.root_signature(), Ok(None)) {
        bad.push("unexpected RTS0 result".to_string());
    }
    for (which, sig, f) in [
        ("ISG1", c.input_signature(), "ISG1"),
        ("OSG1", c.output_signature(), "OSG1"),
        ("PSG1", c.patch_constant_signature(), "PSG1"),
    ] {
        match sig {
            Ok(s) if s.is_some() != has(f) => bad.push(format!("{which} presence differs from parts")),
            Err(err) => bad.push(format!("{which}: {err}")),
            _ => {}
        }
    }
    let digest = c.digest_status().name();
    if e.container_digest.as_deref() != Some(digest) {
        bad.push(format!("digest {digest} != manifest {:?}", e.container_digest));
    }
    if let Err(err) = decode_all(bytes) {
        bad.push(format!("decode: {err}"));
    }
    bad
}

#[test]
fn every_corpus_blob_matches_its_manifest() {
    let Some(corpus) = Corpus::for_test("every_corpus_blob_matches_its_manifest") else { return };
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut digests = std::collections::BTreeMap::<(String, &str), usize>::new();
    for (set, e) in corpus.entries() {
        let bytes = read(set, e);
        for problem in check_entry(e, &bytes) {
            failures.push(format!("{}/{}: {problem}", set.name, e.dxil_path));
        }
        if let Ok(c) = Container::parse(&bytes) {
            *digests.entry((set.name.clone(), c.digest_status().name())).or_default() += 1;
        }
        checked += 1;
    }
    eprintln!("checked {checked} blobs; digest states: {digests:?}");
    // The check itself must bite: a blob checked against another entry's
    // record (a different part set) is reported.
    let all: Vec<_> = corpus.entries().collect();
    if let (Some(a), Some(b)) =
        (all.iter().find(|(_, e)| e.stage == "compute"), all.iter().find(|(_, e)| e.stage == "library"))
    {
        assert!(!check_entry(a.1, &read(b.0, b.1)).is_empty(), "mismatched manifest record not reported");
    }
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
    // The README's counts: vkd3d-proton has 301 signed blobs and one unsigned.
    if let Some(set) = corpus.set("vkd3d-proton") {
        if set.entries.len() == 302 {
            assert_eq!(digests.get(&("vkd3d-proton".to_string(), "valid")), Some(&301));
            assert_eq!(digests.get(&("vkd3d-proton".to_string(), "zero")), Some(&1));
        }
    }
}

/// Whether a PSV semantic kind and an `ISG1` system value name the same thing
/// (`SystemValue::semantic_kind`; an isoline's density factor is also taken
/// for an inside factor).
fn kind_matches(kind: Option<SemanticKind>, sv: SystemValue) -> bool {
    kind.is_some_and(|k| {
        sv.semantic_kind() == Some(k)
            || (k == SemanticKind::InsideTessFactor && sv == SystemValue::FinalLineDensityTessFactor)
    })
}

fn comp_type_number(t: ComponentType) -> u32 {
    match t {
        ComponentType::Unknown => 0,
        ComponentType::U32 => 1,
        ComponentType::S32 => 2,
        ComponentType::F32 => 3,
        ComponentType::U16 => 4,
        ComponentType::S16 => 5,
        ComponentType::F16 => 6,
        ComponentType::U64 => 7,
        ComponentType::S64 => 8,
        ComponentType::F64 => 9,
        ComponentType::Other(v) => v,
    }
}

/// Whether `s` is the `ISG1` record of row `row` of PSV element `p`.
fn row_matches(p: &PsvSignatureElement, row: usize, s: &SignatureElement) -> bool {
    let name_ok = if p.semantic_kind() == Some(SemanticKind::Arbitrary) {
        s.semantic_name.eq_ignore_ascii_case(p.semantic_name)
    } else {
        // PSV stores no name for system values.
        p.semantic_name.is_empty()
    };
    let placement_ok = if p.allocated {
        s.register == p.start_row as u32 + row as u32 && s.mask == ((1u8 << p.cols) - 1) << p.start_col
    } else {
        s.register == u32::MAX
    };
    name_ok
        && placement_ok
        && kind_matches(p.semantic_kind(), s.system_value)
        && p.semantic_indices.get(row) == Some(&s.semantic_index)
        && s.stream == p.output_stream as u32
        && comp_type_number(s.component_type) == p.component_type as u32
}

/// Pairs every row of every PSV element with exactly one signature record.
/// Returns the problems, and the number of records left over that repeat a
/// matched system-value record of a mesh shader (a DXC 1.7 quirk with
/// `out vertices float4 v[N] : SV_Position`, which writes one record per
/// vertex).
fn pair_rows(kind: ShaderKind, psv: &[PsvSignatureElement], sig: Option<&Signature>) -> (Vec<String>, usize) {
    let empty = Vec::new();
    let records = sig.map_or(&empty, |s| &s.elements);
    let mut used = vec![false; records.len()];
    let mut problems = Vec::new();
    for p in psv {
        if p.rows as usize != p.semantic_indices.len() {
            problems.push(format!("PSV element {p:?}: rows != semantic index count"));
        }
        for row in 0..p.rows as usize {
            let hits: Vec<usize> = (0..records.len()).filter(|&i| row_matches(p, row, &records[i])).collect();
            match hits.iter().find(|&&i| !used[i]) {
                Some(&i) => used[i] = true,
                None => problems.push(format!("no signature record for row {row} of {p:?}")),
            }
        }
    }
    let mut quirk = 0;
    for (i, s) in records.iter().enumerate() {
        if used[i] {
            continue;
        }
        let repeats = records
            .iter()
            .enumerate()
            .any(|(j, t)| used[j] && t.system_value == s.system_value && t.register == s.register && t.mask == s.mask);
        if kind == ShaderKind::Mesh && s.system_value != SystemValue::Undefined && repeats {
            quirk += 1;
        } else {
            problems.push(format!("signature record {s:?} has no PSV element row"));
        }
    }
    (problems, quirk)
}

#[test]
fn psv_elements_pair_with_signature_records() {
    let Some(corpus) = Corpus::for_test("psv_elements_pair_with_signature_records") else { return };
    let mut failures = Vec::new();
    let (mut with_psv, mut rows_checked, mut quirk_blobs) = (0, 0, 0);
    let (mut view_id_blobs, mut tables) = (0, 0);
    let mut sizes = std::collections::BTreeMap::<u32, usize>::new();
    for (set, e) in corpus.entries() {
        let bytes = read(set, e);
        let name = format!("{}/{}", set.name, e.dxil_path);
        let Ok(c) = Container::parse(&bytes) else {
            failures.push(format!("{name}: parse failed"));
            continue;
        };
        let has_psv = e.parts.iter().any(|p| p == "PSV0");
        let psv = match c.psv0() {
            Ok(Some(p)) => p,
            Ok(None) => {
                if has_psv {
                    failures.push(format!("{name}: PSV0 listed but not found"));
                }
                continue;
            }
            Err(err) => {
                failures.push(format!("{name}: PSV0: {err}"));
                continue;
            }
        };
        with_psv += 1;
        *sizes.entry(psv.runtime_info.size).or_default() += 1;
        let Ok(program) = c.dxil_program() else {
            failures.push(format!("{name}: no program"));
            continue;
        };
        let kind = program.shader_kind;
        if !psv.trailing.is_empty() {
            failures.push(format!("{name}: {} undecoded PSV0 bytes", psv.trailing.len()));
        }
        let Some(v1) = psv.runtime_info.v1 else {
            failures.push(format!("{name}: PSV0 without v1 runtime info"));
            continue;
        };
        if psv.shader_kind() != Some(kind) {
            failures.push(format!("{name}: PSV stage {:?} != program {kind:?}", psv.shader_kind()));
        }
        if let (Some(off), Some(name_in_psv)) = (psv.runtime_info.entry_function_name_offset, psv.entry_function_name) {
            if !e.entry_points.iter().any(|ep| ep == name_in_psv) {
                failures
                    .push(format!("{name}: PSV entry name {name_in_psv:?} (offset {off}) not in {:?}", e.entry_points));
            }
        }
        if kind == ShaderKind::Compute && psv.runtime_info.num_threads.is_some_and(|t| t.contains(&0)) {
            failures.push(format!("{name}: compute numthreads {:?}", psv.runtime_info.num_threads));
        }
        let sigs = [
            ("input", c.input_signature(), &psv.input_elements, v1.sig_input_elements),
            ("output", c.output_signature(), &psv.output_elements, v1.sig_output_elements),
            (
                "patch/prim",
                c.patch_constant_signature(),
                &psv.patch_const_or_prim_elements,
                v1.sig_patch_const_or_prim_elements,
            ),
        ];
        let mut blob_quirk = 0;
        for (which, sig, elements, count) in sigs {
            let sig = match sig {
                Ok(s) => s,
                Err(err) => {
                    failures.push(format!("{name}: {which} signature: {err}"));
                    continue;
                }
            };
            if elements.len() != count as usize {
                failures.push(format!("{name}: {which}: {} PSV elements, runtime info says {count}", elements.len()));
            }
            let rows: usize = elements.iter().map(|p| p.rows as usize).sum();
            let records = sig.as_ref().map_or(0, |s| s.elements.len());
            let (problems, quirk) = pair_rows(kind, elements, sig.as_ref());
            failures.extend(problems.into_iter().map(|p| format!("{name}: {which}: {p}")));
            // The true relation: one record per row of each PSV element
            // (plus the mesh quirk's repeats).
            if records != rows + quirk {
                failures.push(format!("{name}: {which}: {records} records != {rows} PSV rows + {quirk} quirk"));
            }
            rows_checked += rows;
            blob_quirk += quirk;
        }
        if v1.uses_view_id {
            view_id_blobs += 1;
        }
        tables += psv.view_id_output_masks.iter().flatten().count()
            + psv.view_id_pc_or_prim_output_mask.iter().count()
            + psv.input_to_output.iter().flatten().count()
            + psv.input_to_pc_output.iter().count()
            + psv.pc_input_to_output.iter().count();
        if blob_quirk > 0 {
            quirk_blobs += 1;
        }
    }
    eprintln!(
        "{with_psv} blobs with PSV0 (runtime-info sizes {sizes:?}); {rows_checked} signature rows paired; \
         {quirk_blobs} mesh blobs with repeated SV records; {view_id_blobs} use the view ID; \
         {tables} view-ID masks / dependency tables decoded"
    );
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
    assert!(with_psv > 0);
    // Every PSV0 was consumed exactly (checked above), so the table sizes
    // were computed right; make sure the corpus actually exercised them.
    assert!(view_id_blobs > 0 && tables > with_psv / 2, "{view_id_blobs} view-ID blobs, {tables} tables");
}

/// The corpus blobs used for the robustness tests: the smallest of each
/// part set, so every decoder is exercised.
fn robustness_blobs(corpus: &Corpus) -> Vec<(String, Vec<u8>)> {
    let mut best: std::collections::BTreeMap<Vec<String>, (u64, String, Vec<u8>)> = Default::default();
    for (set, e) in corpus.entries() {
        let size = e.size.unwrap_or(u64::MAX);
        if best.get(&e.parts).is_none_or(|(s, _, _)| size < *s) {
            best.insert(e.parts.clone(), (size, format!("{}/{}", set.name, e.dxil_path), read(set, e)));
        }
    }
    best.into_values().map(|(_, n, b)| (n, b)).collect()
}

#[test]
fn every_prefix_of_corpus_blobs_is_handled() {
    let Some(corpus) = Corpus::for_test("every_prefix_of_corpus_blobs_is_handled") else { return };
    let blobs = robustness_blobs(&corpus);
    let mut prefixes = 0;
    for (name, bytes) in &blobs {
        assert!(decode_all(bytes).is_ok(), "{name}");
        for n in 0..bytes.len() {
            // As cut: the header's total size no longer matches.
            assert!(decode_all(&bytes[..n]).is_err(), "{name}: prefix {n} accepted");
            // With the total size patched, so the part decoders see cut parts.
            let mut cut = bytes[..n].to_vec();
            if cut.len() >= 28 {
                cut[24..28].copy_from_slice(&(n as u32).to_le_bytes());
            }
            let _ = decode_all(&cut);
            prefixes += 2;
        }
    }
    eprintln!("{} blobs, {prefixes} prefixes decoded without panic", blobs.len());
}

#[test]
fn random_byte_flips_of_corpus_blobs_never_panic() {
    let Some(corpus) = Corpus::for_test("random_byte_flips_of_corpus_blobs_never_panic") else {
        return;
    };
    let blobs = robustness_blobs(&corpus);
    // xorshift64*, fixed seed: reproducible.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let (mut runs, mut accepted) = (0, 0);
    for (_, bytes) in &blobs {
        for _ in 0..3000 {
            let mut b = bytes.clone();
            // Flip bytes in the first 512 bytes (headers and small parts)
            // most of the time, anywhere otherwise.
            for _ in 0..1 + next() % 3 {
                let span = if next() % 4 == 0 { b.len() } else { b.len().min(512) };
                let i = (next() % span as u64) as usize;
                b[i] ^= 1 << (next() % 8);
            }
            runs += 1;
            if decode_all(&b).is_ok() {
                accepted += 1;
            }
        }
    }
    eprintln!("{runs} mutated blobs decoded without panic ({accepted} still decoded fully)");
}
