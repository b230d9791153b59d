//! Pipeline specs without a device (conformance/specs/{graphics,tessellation,mesh,barycentrics}):
//! - every spec file parses and names shaders that exist, each in the right stage slot (corpus
//!   entries against the manifest when the corpus is present; fixtures always);
//! - every spec whose outcome is `expect = "rejected"` runs with the real linker and must be
//!   rejected with the named rule (and stage/semantic/register where given);
//! - every drawn spec must link (D3D12 accepts it); drawing it waits for `graphics_suite.rs`.

use dxjit_conformance::corpus::Corpus;
use dxjit_conformance::runner::{self, link::LinkOnlyBackend, spec::spec_files, RunConfig, Spec, Status};
use std::path::PathBuf;

fn pipeline_spec_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for suite in ["graphics", "tessellation", "mesh", "barycentrics"] {
        files.extend(spec_files(&runner::specs_root().join(suite)).expect("specs folder"));
    }
    files
}

#[test]
fn pipeline_specs_are_well_formed() {
    let cfg = RunConfig::default();
    let corpus = Corpus::open();
    let mut errors = Vec::new();
    let (mut rejected, mut drawn, mut tess) = (0, 0, 0);
    for f in pipeline_spec_files() {
        let spec = match Spec::load(&f) {
            Ok(s) => s,
            Err(e) => {
                errors.push(format!("{}: {e}", f.display()));
                continue;
            }
        };
        let Some(p) = &spec.pipeline else {
            errors.push(format!("{}: not a pipeline spec", spec.name));
            continue;
        };
        let in_tess_dir = f.parent().is_some_and(|d| d.ends_with("tessellation"));
        if p.is_tessellation() != in_tess_dir {
            errors.push(format!(
                "{}: hull/domain pipelines go in specs/tessellation, the others in specs/graphics",
                spec.name
            ));
        }
        match (p.is_rejection(), p.is_tessellation()) {
            (true, _) => rejected += 1,
            (false, false) => drawn += 1,
            (false, true) => tess += 1,
        }
        for s in &p.stages {
            if s.shader.starts_with("fixtures/") {
                if !cfg.path_of(&s.shader).is_file() {
                    errors.push(format!("{}: fixture {} is missing", spec.name, s.shader));
                }
                continue;
            }
            let Some(c) = &corpus else { continue };
            let (set, rel) = s.shader.split_once('/').unwrap_or_default();
            match c.set(set).and_then(|x| x.entries.iter().find(|e| e.dxil_path == rel)) {
                None => errors.push(format!("{}: {} is not in the corpus manifest", spec.name, s.shader)),
                Some(e) if e.stage != s.slot.manifest_stage() => errors.push(format!(
                    "{}: {} is a {} shader in the `{}` slot",
                    spec.name,
                    s.shader,
                    e.stage,
                    s.slot.key()
                )),
                Some(_) => {}
            }
        }
    }
    if corpus.is_none() {
        eprintln!("note: corpus absent; corpus shader paths not checked");
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    eprintln!("pipeline specs: {rejected} rejected, {drawn} drawn (graphics), {tess} drawn (tessellation)");
    assert!(rejected >= 5, "only {rejected} rejection specs");
    assert!(drawn >= 5, "only {drawn} drawn graphics specs");
    assert!(tess >= 10, "only {tess} drawn tessellation specs");
}

#[test]
fn linkage_suite() {
    let cfg = RunConfig::default();
    let backend = LinkOnlyBackend;
    let mut results = Vec::new();
    for f in pipeline_spec_files() {
        results.push(runner::run_file(&backend, &f, &cfg));
    }
    let report = runner::Report::new("linker only".into(), results);
    print!("{}", report.table());
    let mut wrong = Vec::new();
    for s in &report.specs {
        let spec = Spec::load(&s.path).ok();
        let rejection = spec.as_ref().and_then(|x| x.pipeline.as_ref()).is_some_and(|p| p.is_rejection());
        let ok = match s.status {
            Status::Pass => rejection,
            // Drawn specs: linked, then skipped for want of a compiler and device; corpus absent.
            Status::Skipped => {
                (!rejection && s.detail.starts_with("linked")) || s.detail.starts_with("corpus not found")
            }
            _ => false,
        };
        if !ok {
            wrong.push(format!("{} ({}): {}", s.name, s.status.text(), s.detail));
        }
    }
    assert!(wrong.is_empty(), "{} spec(s) wrong:\n{}", wrong.len(), wrong.join("\n"));
}

/// Specs that need VK_KHR_fragment_shader_barycentric (specs/barycentrics) are drawn only on such
/// devices (graphics_suite skips them by name elsewhere), so their pipelines are compiled here as
/// the Vulkan backend compiles them where the device has it (`fragment_barycentrics` on): every
/// stage compiles and passes spirv-val, the pixel shader declares FragmentBarycentricKHR. Without
/// the option the compile refuses naming the extension. SKIPs without the corpus.
#[test]
fn barycentrics_specs_compile_with_the_extension_and_name_it_without() {
    use dxjit::{compile_pipeline, CompileError, CompileOptions, PipelineError, ShaderKind};
    let Some(_corpus) = Corpus::for_test("barycentrics_specs_compile") else { return };
    let cfg = RunConfig::default();
    let files = spec_files(&runner::specs_root().join("barycentrics")).expect("specs folder");
    assert!(!files.is_empty(), "no barycentrics specs");
    for f in files {
        let spec = Spec::load(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert!(spec.requires.iter().any(|r| r == "fragment_shader_barycentric"), "{}: requires", spec.name);
        let p = spec.pipeline.as_ref().unwrap_or_else(|| panic!("{}: not a pipeline spec", spec.name));
        let blobs: Vec<Vec<u8>> = p
            .stages
            .iter()
            .map(|s| std::fs::read(cfg.path_of(&s.shader)).unwrap_or_else(|e| panic!("{}: {e}", s.shader)))
            .collect();
        let refs: Vec<&[u8]> = blobs.iter().map(Vec::as_slice).collect();
        let link = runner::draw::link_options(p);
        let on = CompileOptions { fragment_barycentrics: true, ..CompileOptions::default() };
        let c = compile_pipeline(&refs, &link, &on).unwrap_or_else(|e| panic!("{}: {e}", spec.name));
        assert_eq!(c.shaders.len(), p.stages.len(), "{}", spec.name);
        for s in &c.shaders {
            dxjit_conformance::spirv_val::validate(&s.spirv)
                .unwrap_or_else(|e| panic!("{} {:?}: spirv-val: {e}", spec.name, s.stage));
        }
        let ps = c.shaders.iter().find(|s| s.stage == ShaderKind::Pixel).expect("pixel shader");
        assert!(ps.capabilities.iter().any(|c| c == "FragmentBarycentricKHR"), "{}: {:?}", spec.name, ps.capabilities);
        match compile_pipeline(&refs, &link, &CompileOptions::default()) {
            Err(PipelineError::Compile { error: CompileError::Unsupported { feature, .. }, .. }) => {
                assert!(feature.contains("VK_KHR_fragment_shader_barycentric"), "{}: {feature}", spec.name)
            }
            other => panic!("{}: expected Unsupported without the option, got {:?}", spec.name, other.map(|_| ())),
        }
    }
}
