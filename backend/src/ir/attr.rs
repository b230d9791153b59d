//! Names of LLVM 3.7 attribute kinds (the bitcode's `ATTR_KIND_*` numbers)
//! and of linkage and thread-local codes, shared by the printer and the
//! assembler so that text and numbers map one to one.

/// Enum attribute kinds by bitcode number (LLVM 3.7 `ATTR_KIND_*`).
const ENUM_KINDS: &[(u32, &str)] = &[
    (2, "alwaysinline"),
    (3, "byval"),
    (4, "inlinehint"),
    (5, "inreg"),
    (6, "minsize"),
    (7, "naked"),
    (8, "nest"),
    (9, "noalias"),
    (10, "nobuiltin"),
    (11, "nocapture"),
    (12, "noduplicate"),
    (13, "noimplicitfloat"),
    (14, "noinline"),
    (15, "nonlazybind"),
    (16, "noredzone"),
    (17, "noreturn"),
    (18, "nounwind"),
    (19, "optsize"),
    (20, "readnone"),
    (21, "readonly"),
    (22, "returned"),
    (23, "returns_twice"),
    (24, "signext"),
    (26, "ssp"),
    (27, "sspreq"),
    (28, "sspstrong"),
    (29, "uwtable"),
    (30, "zeroext"),
    (31, "builtin"),
    (32, "cold"),
    (33, "optnone"),
    (34, "inalloca"),
    (35, "nonnull"),
    (36, "jumptable"),
    (39, "convergent"),
    (40, "safestack"),
    (41, "argmemonly"),
];

/// Integer attribute kinds (`align(4)`).
const INT_KINDS: &[(u32, &str)] =
    &[(1, "align"), (25, "alignstack"), (37, "dereferenceable"), (38, "dereferenceable_or_null")];

/// The name of an enum attribute kind.
pub fn enum_name(kind: u32) -> Option<&'static str> {
    ENUM_KINDS.iter().find(|k| k.0 == kind).map(|k| k.1)
}

/// The name of an integer attribute kind.
pub fn int_name(kind: u32) -> Option<&'static str> {
    INT_KINDS.iter().find(|k| k.0 == kind).map(|k| k.1)
}

/// The kind number of an enum attribute name.
pub fn enum_kind(name: &str) -> Option<u32> {
    ENUM_KINDS.iter().find(|k| k.1 == name).map(|k| k.0)
}

/// The kind number of an integer attribute name.
pub fn int_kind(name: &str) -> Option<u32> {
    INT_KINDS.iter().find(|k| k.1 == name).map(|k| k.0)
}

/// Linkage codes as the bitcode stores them (LLVM 3.7 encoding) and their
/// LLVM spellings; external (0) is the default and is not written. Older
/// encodings that have no spelling of their own print as `linkage(N)`.
const LINKAGES: &[(u32, &str)] = &[
    (2, "appending"),
    (3, "internal"),
    (7, "extern_weak"),
    (8, "common"),
    (9, "private"),
    (12, "available_externally"),
    (16, "weak"),
    (17, "weak_odr"),
    (18, "linkonce"),
    (19, "linkonce_odr"),
];

pub fn linkage_name(code: u32) -> Option<&'static str> {
    LINKAGES.iter().find(|k| k.0 == code).map(|k| k.1)
}

pub fn linkage_code(name: &str) -> Option<u32> {
    LINKAGES.iter().find(|k| k.1 == name).map(|k| k.0)
}

/// Thread-local modes (bitcode numbering; 0 is not thread-local).
const TLS_MODES: &[(u32, &str)] = &[(2, "localdynamic"), (3, "initialexec"), (4, "localexec")];

pub fn tls_name(code: u32) -> Option<&'static str> {
    TLS_MODES.iter().find(|k| k.0 == code).map(|k| k.1)
}

pub fn tls_code(name: &str) -> Option<u32> {
    TLS_MODES.iter().find(|k| k.1 == name).map(|k| k.0)
}

/// The attribute-group index of function attributes.
pub const FUNCTION_INDEX: u32 = 0xFFFF_FFFF;

/// LLVM 3.7's fixed metadata kinds, in kind-id order (every module knows them).
pub const FIXED_MD_KINDS: &[&str] = &[
    "dbg",
    "tbaa",
    "prof",
    "fpmath",
    "range",
    "tbaa.struct",
    "invariant.load",
    "alias.scope",
    "noalias",
    "nontemporal",
    "llvm.mem.parallel_loop_access",
    "nonnull",
    "dereferenceable",
    "dereferenceable_or_null",
];
