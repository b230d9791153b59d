//! LLVM-like text rendering of the IR (used by `dxjit dis`).
