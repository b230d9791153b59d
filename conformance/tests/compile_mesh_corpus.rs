//! Every mesh and amplification shader of the corpus compiles alone (default
//! link plan) to SPIR-V that passes `spirv-val --target-env vulkan1.3`
//! (SPV_EXT_mesh_shader). Unsupported features, invalid SPIR-V, internal
//! errors and panics all fail the test: every one must compile. Prints a
//! summary line.

use dxjit_conformance::compile_tally::compile_corpus_stages;
use dxjit_conformance::spirv_val;

#[test]
fn compile_mesh_corpus() {
    let Some(t) = compile_corpus_stages("compile_mesh_corpus", &["mesh", "amplification"], |cs| {
        spirv_val::validate_env(&cs.spirv, "vulkan1.3")
    }) else {
        return;
    };
    let (total, valid) = (t.total(), t.valid());
    eprintln!("mesh corpus: {}", t.summary(true));
    t.assert_no_failures();
    assert!(total > 0, "no mesh or amplification shader in the corpus");
    assert_eq!(valid, total, "only {valid} of {total} mesh/amplification shaders compile to valid SPIR-V");
}
