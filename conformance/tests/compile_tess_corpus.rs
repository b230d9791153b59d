//! Every hull and domain shader of the corpus (both manifests) compiles to
//! SPIR-V that passes `spirv-val`, or is rejected as `Unsupported` naming the
//! feature: alone (the default plan), and within each pipeline of the
//! vkd3d-proton tests that use it (its VS, HS, DS, [GS,] [PS] linked by
//! `dxjit::link`, the HS and DS compiled against the plan). Invalid SPIR-V,
//! internal errors and panics fail the test. Prints a summary line.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use dxjit::link::{link_modules, LinkOptions, LinkPlan};
use dxjit::{compile, compile_stage, CompileOptions, CompiledShader, PatchConstantInvocations};
use dxjit_conformance::compile_tally::CompileTally;
use dxjit_conformance::corpus::{Corpus, CorpusSet, Entry};
use dxjit_conformance::spirv_val;

/// spirv-val, and for a hull shader the barrier rule of [`tcs_shape`].
fn check(cs: &CompiledShader) -> Result<(), String> {
    spirv_val::validate(&cs.spirv)?;
    if cs.stage == dxjit::ShaderKind::Hull {
        let (ocp, barriers) = tcs_shape(&cs.spirv);
        if (ocp == Some(1)) != (barriers == 0) || barriers > 1 {
            return Err(format!("{barriers} barriers with OutputVertices {ocp:?}"));
        }
    }
    Ok(())
}

/// (OutputVertices, number of OpControlBarrier) of a TCS: the barrier
/// between the control-point and patch-constant phases exists exactly when
/// there is more than one output control point.
fn tcs_shape(words: &[u32]) -> (Option<u32>, usize) {
    const OP_EXECUTION_MODE: u32 = 16;
    const OP_CONTROL_BARRIER: u32 = 224;
    const MODE_OUTPUT_VERTICES: u32 = 26;
    let (mut ocp, mut barriers, mut at) = (None, 0, 5);
    while let Some(&w) = words.get(at) {
        let (op, len) = (w & 0xffff, (w >> 16) as usize);
        if op == OP_EXECUTION_MODE && words.get(at + 2) == Some(&MODE_OUTPUT_VERTICES) {
            ocp = words.get(at + 3).copied();
        }
        barriers += usize::from(op == OP_CONTROL_BARRIER);
        at += len.max(1);
    }
    (ocp, barriers)
}

fn read_module(bytes: &[u8]) -> Option<(dxjit::dxil::DxilModuleInfo, dxjit::ir::Module)> {
    let c = dxjit::container::Container::parse(bytes).ok()?;
    let m = dxjit::bitcode::read_module(c.dxil_program().ok()?.bitcode).ok()?;
    let info = dxjit::dxil::decode(&m).ok()?;
    Some((info, m))
}

/// The pipelines of vkd3d-proton tests: for each test function, its first
/// PS and every VS × HS × DS combination (tests pair shaders in many ways; the
/// linker rejects the combinations D3D12 rejects).
fn pipelines(set: &CorpusSet) -> Vec<(String, Vec<&Entry>)> {
    let mut by_test: BTreeMap<&str, Vec<&Entry>> = BTreeMap::new();
    for e in &set.entries {
        for t in &e.test_functions {
            by_test.entry(t.as_str()).or_default().push(e);
        }
    }
    let mut out = Vec::new();
    for (t, es) in by_test {
        let of = |s: &str| es.iter().copied().filter(|e| e.stage == s).collect::<Vec<_>>();
        let (vs, hs, ds, ps) = (of("vertex"), of("hull"), of("domain"), of("pixel"));
        for v in &vs {
            for h in &hs {
                for d in &ds {
                    let mut stages = vec![*v, *h, *d];
                    stages.extend(ps.first().copied());
                    out.push((format!("{t}: {} + {} + {}", v.name, h.name, d.name), stages));
                }
            }
        }
    }
    out
}

#[test]
fn compile_tess_corpus() {
    let Some(corpus) = Corpus::for_test("compile_tess_corpus") else { return };
    // Every unsupported shader is printed.
    let mut alone = CompileTally { verbose: true, ..CompileTally::default() };
    let mut linked = CompileTally { verbose: true, ..CompileTally::default() };
    let (mut pipes, mut rejected) = (0, 0);
    for mode in [PatchConstantInvocations::First, PatchConstantInvocations::All] {
        let opts = CompileOptions { hull_patch_constants: mode, ..CompileOptions::default() };
        for (set, e) in corpus.entries() {
            if e.stage != "hull" && e.stage != "domain" {
                continue;
            }
            let name = format!("{}/{} ({mode:?})", set.name, e.dxil_path);
            let bytes = std::fs::read(set.path_of(e)).unwrap();
            alone.record(&e.stage, name, catch_unwind(AssertUnwindSafe(|| compile(&bytes, &opts))), check);
        }
    }
    let opts = CompileOptions::default();
    for set in ["vkd3d-proton", "dxil-spirv"].iter().filter_map(|s| corpus.set(s)) {
        for (name, stages) in pipelines(set) {
            let blobs: Vec<Vec<u8>> = stages.iter().map(|e| std::fs::read(set.path_of(e)).unwrap()).collect();
            let Some(mods) = blobs.iter().map(|b| read_module(b)).collect::<Option<Vec<_>>>() else {
                panic!("{name}: unreadable module");
            };
            let refs: Vec<_> = mods.iter().map(|(i, m)| (i, m)).collect();
            let plan: LinkPlan = match link_modules(&refs, &LinkOptions::default()) {
                Ok(p) => p,
                Err(_) => {
                    rejected += 1;
                    continue;
                }
            };
            pipes += 1;
            eprintln!("linked {name}");
            for (k, sp) in plan.stages.iter().enumerate() {
                if !matches!(sp.stage, dxjit::link::Stage::Hull | dxjit::link::Stage::Domain) {
                    continue;
                }
                let Some(pos) =
                    mods.iter().position(|(i, _)| dxjit::link::Stage::from_kind(i.shader_model.kind) == Some(sp.stage))
                else {
                    panic!("{name}: no module for {}", sp.stage);
                };
                let bytes = &blobs[pos];
                let r = catch_unwind(AssertUnwindSafe(|| compile_stage(bytes, &plan, k, &opts)));
                linked.record(&sp.stage.to_string(), format!("{name} [{}]", sp.stage), r, check);
            }
        }
    }
    for t in [&alone, &linked] {
        t.print_failures();
    }
    let mut feats: Vec<_> = alone.features.iter().chain(&linked.features).collect();
    feats.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let feats: Vec<String> = feats.iter().map(|(f, n)| format!("{f} x{n}")).collect();
    eprintln!(
        "tessellation corpus: alone {} compiles (HS/DS x 2 patch-constant modes), {} valid, {} unsupported; \
         {pipes} linked pipelines ({rejected} rejected by D3D12 rules), {} HS/DS compiles, {} valid, {} unsupported; \
         {} INVALID, {} malformed, {} internal, {} panics; unsupported: [{}]",
        alone.total(),
        alone.valid(),
        alone.unsupported(),
        linked.total(),
        linked.valid(),
        linked.unsupported(),
        alone.invalid.len() + linked.invalid.len(),
        alone.malformed.len() + linked.malformed.len(),
        alone.internal.len() + linked.internal.len(),
        alone.panics.len() + linked.panics.len(),
        feats.join("; ")
    );
    for t in [&alone, &linked] {
        t.assert_no_failures();
    }
    assert!(alone.total() >= 70 && pipes > 0, "the corpus has hull/domain shaders and tessellation pipelines");
}
