//! The macro behind DXIL's numbered enums (component types, semantic kinds,
//! tessellator state, …): each gets `from_u32` (the DXIL number), `to_u32`,
//! a short `name`, and `Display`/`Serialize` as that name. A leaf module, so
//! the crate-root enum modules (`semantic_kind`) and `dxil/` can share it.

macro_rules! dxil_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $v:ident = $n:literal => $s:literal),* $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vm])* $v),*
        }
        impl $name {
            /// From the number DXIL metadata uses.
            pub fn from_u32(v: u32) -> Option<Self> {
                match v {
                    $($n => Some(Self::$v),)*
                    _ => None,
                }
            }
            /// The number DXIL metadata uses.
            pub fn to_u32(self) -> u32 {
                match self {
                    $(Self::$v => $n),*
                }
            }
            /// A short lower-case name.
            pub fn name(self) -> &'static str {
                match self {
                    $(Self::$v => $s),*
                }
            }
        }
        /// Serialized as its short name (`"f32"`, `"texture2d"`).
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

pub(crate) use dxil_enum;
