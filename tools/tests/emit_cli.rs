//! `dxjit compile --emit`: SPIR-V assembly for every module, WGSL/GLSL/MSL/HLSL
//! through naga where naga reads the module, and a clear error (exit 4, the
//! stage and naga's reason named) where it does not, e.g. a hull shader.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use dxjit::{compile, CompileOptions};
use dxjit_conformance::corpus::{fixtures_root, Corpus};

fn emit(file: &Path, what: &str, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dxjit"))
        .arg("compile")
        .arg(file)
        .args(["--emit", what])
        .args(extra)
        .output()
        .expect("run dxjit")
}

fn text_of(o: &Output, ctx: &str) -> String {
    assert_eq!(o.status.code(), Some(0), "{ctx}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).expect("utf-8 output")
}

fn assert_naga_refusal(o: &Output, stage: &str, ctx: &str) {
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(4), "{ctx}: {stderr}");
    assert!(o.stdout.is_empty(), "{ctx}: wrote output anyway");
    assert!(
        stderr.contains(&format!("naga cannot read this {stage} shader's SPIR-V, so there is no glsl output")),
        "{ctx}: {stderr}"
    );
    assert!(stderr.contains("Tessellation"), "{ctx}: naga's reason missing: {stderr}");
    assert!(!stderr.contains("panicked"), "{ctx}: {stderr}");
}

#[test]
fn emits_every_text_form_of_a_compute_shader() {
    let f = fixtures_root().join("compute/groupshared_reduce.cs_6_0.dxil");
    let asm = text_of(&emit(&f, "spvasm", &[]), "spvasm");
    assert!(asm.starts_with("; SPIR-V\n; Version: 1.3"), "{asm}");
    assert!(asm.contains("OpEntryPoint GLCompute %") && asm.contains("OpExecutionMode"), "{asm}");
    let wgsl = text_of(&emit(&f, "wgsl", &[]), "wgsl");
    assert!(wgsl.contains("@compute @workgroup_size(") && wgsl.contains("var<workgroup>"), "{wgsl}");
    let glsl = text_of(&emit(&f, "glsl", &[]), "glsl");
    assert!(glsl.starts_with("#version 450") && glsl.contains("layout(local_size_x ="), "{glsl}");
    assert!(glsl.contains("shared "), "{glsl}");
    let msl = text_of(&emit(&f, "msl", &[]), "msl");
    assert!(msl.contains("#include <metal_stdlib>") && msl.contains("kernel void"), "{msl}");
    let hlsl = text_of(&emit(&f, "hlsl", &[]), "hlsl");
    assert!(hlsl.contains("[numthreads(") && hlsl.contains("groupshared"), "{hlsl}");
    // -o takes text as well.
    let out = std::env::temp_dir().join(format!("dxjit-emit-{}.glsl", std::process::id()));
    let o = emit(&f, "glsl", &["-o", out.to_str().expect("utf-8 path")]);
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&out).expect("written"), glsl);
    let _ = std::fs::remove_file(out);
}

#[test]
fn emits_glsl_for_a_pixel_shader_and_refuses_a_hull_shader() {
    let ps = fixtures_root().join("graphics/fullscreen.ps_6_0.dxil");
    let glsl = text_of(&emit(&ps, "glsl", &[]), "pixel glsl");
    assert!(glsl.starts_with("#version 450"), "{glsl}");
    assert!(glsl.contains("layout(location = 0) out vec4"), "no color output: {glsl}");
    assert!(glsl.contains("void main()"), "{glsl}");
    let hs = fixtures_root().join("tessellation/cp3to4.hs_6_0.dxil");
    assert_naga_refusal(&emit(&hs, "glsl", &[]), "hull", "fixture hull shader");
    // Assembly is there for every module, hull shaders included.
    let asm = text_of(&emit(&hs, "spvasm", &[]), "hull spvasm");
    assert!(asm.contains("OpEntryPoint TessellationControl"), "{asm}");
}

#[test]
fn emit_spirv_needs_an_output_file() {
    let f = fixtures_root().join("compute/bitops.cs_6_0.dxil");
    let o = emit(&f, "spirv", &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("give -o OUT.spv"));
    assert!(o.stdout.is_empty());
}

/// The check on real shaders: a corpus pixel shader naga reads
/// prints as GLSL, a corpus hull shader gets the named refusal.
#[test]
fn emits_glsl_for_a_corpus_pixel_shader_and_refuses_a_corpus_hull_shader() {
    let Some(corpus) = Corpus::for_test("emits_glsl_for_a_corpus_pixel_shader_and_refuses_a_corpus_hull_shader") else {
        return;
    };
    let of_stage = |stage: &str| -> Vec<PathBuf> {
        corpus.entries().filter(|(_, e)| e.stage == stage).map(|(s, e)| s.path_of(e)).collect()
    };
    let accepted = of_stage("pixel").into_iter().find(|p| {
        let Ok(bytes) = std::fs::read(p) else { return false };
        compile(&bytes, &CompileOptions::default())
            .is_ok_and(|s| dxjit_cli::emit::text(&s.spirv, dxjit_cli::emit::Emit::Glsl, "pixel").is_ok())
    });
    let ps = accepted.expect("no corpus pixel shader naga reads");
    let glsl = text_of(&emit(&ps, "glsl", &[]), &ps.display().to_string());
    eprintln!("GLSL for {}: {} lines", ps.display(), glsl.lines().count());
    assert!(glsl.starts_with("#version 450") && glsl.contains("void main()"), "{glsl}");
    let hs = of_stage("hull");
    let hs = hs.first().expect("the corpus has hull shaders");
    assert_naga_refusal(&emit(hs, "glsl", &[]), "hull", &hs.display().to_string());
}
