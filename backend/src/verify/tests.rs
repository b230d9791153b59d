//! Unit tests of the verifier on hand-built modules.
