//! Every non-library compute shader of the corpus either compiles to SPIR-V
//! that passes `spirv-val`, or is rejected as `Unsupported` naming the
//! feature. Invalid SPIR-V and panics fail the test. Prints a summary line.

use dxjit_conformance::compile_tally::compile_corpus_stages;
use dxjit_conformance::spirv_val;

#[test]
fn compile_compute_corpus() {
    let Some(t) = compile_corpus_stages("compile_compute_corpus", &["compute"], |cs| spirv_val::validate(&cs.spirv))
    else {
        return;
    };
    eprintln!("compute corpus: {}", t.summary(false));
    t.assert_no_failures();
}
