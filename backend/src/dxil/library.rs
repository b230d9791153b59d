//! DXIL libraries (`lib_6_x`): export names.
//!
//! Library modules name their shader functions with C++-mangled names
//! (`\01?RayGen@@YAXXZ`); state objects and the `--entry` option use the plain
//! export name (`RayGen`).

/// The plain export name of a (possibly mangled) library function name:
/// `\01?RayGen@@YAXXZ` → `RayGen`; names that are not mangled are returned as they are.
pub fn export_name(name: &str) -> &str {
    let n = name.strip_prefix('\u{1}').unwrap_or(name);
    match n.strip_prefix('?') {
        Some(rest) => rest.split('@').next().unwrap_or(rest),
        None => n,
    }
}

#[cfg(test)]
mod tests {
    use super::export_name;

    #[test]
    fn plain_names_of_mangled_exports() {
        assert_eq!(export_name("\u{1}?RayGen@@YAXXZ"), "RayGen");
        assert_eq!(export_name("\u{1}?ClosestHit@@YAXUPayload@@UBoxAttr@@@Z"), "ClosestHit");
        assert_eq!(export_name("?Miss@@YAXUPayload@@@Z"), "Miss");
        assert_eq!(export_name("main"), "main");
        assert_eq!(export_name(""), "");
    }
}
