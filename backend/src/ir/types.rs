//! Types of the IR. They mirror the LLVM 3.7 types DXC emits; the type table
//! keeps the order of the bitcode's type table so ids are stable.

use serde::Serialize;

/// Index into [`super::Module::types`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct TypeId(pub u32);

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub enum Type {
    Void,
    Half,
    Float,
    Double,
    /// Integer of the given bit width (1..=64 supported by the reader).
    Int(u32),
    Label,
    Metadata,
    Pointer {
        pointee: TypeId,
        addr_space: u32,
    },
    Array {
        len: u64,
        elem: TypeId,
    },
    Vector {
        len: u32,
        elem: TypeId,
    },
    /// A struct; `name` is set for identified structs (`%dx.types.Handle`),
    /// `opaque` for identified structs without a body.
    Struct {
        name: Option<String>,
        packed: bool,
        opaque: bool,
        elems: Vec<TypeId>,
    },
    Function {
        ret: TypeId,
        params: Vec<TypeId>,
        vararg: bool,
    },
}

impl Type {
    pub fn is_float(&self) -> bool {
        matches!(self, Type::Half | Type::Float | Type::Double)
    }
    pub fn is_int(&self) -> bool {
        matches!(self, Type::Int(_))
    }
    /// A struct field or an array element may be of this type: a first-class type that
    /// holds data — no `void`, label, metadata or function (LLVM's `isValidElementType`).
    #[inline(always)]
    pub fn holds_data(&self) -> bool {
        !matches!(self, Type::Void | Type::Label | Type::Metadata | Type::Function { .. })
    }
    /// A pointer may point at this type: [`Type::holds_data`], or a function.
    #[inline(always)]
    pub fn is_pointee(&self) -> bool {
        !matches!(self, Type::Void | Type::Label | Type::Metadata)
    }
    /// A vector may hold this type: an integer, a float or a pointer.
    #[inline(always)]
    pub fn is_vector_element(&self) -> bool {
        matches!(self, Type::Int(_) | Type::Half | Type::Float | Type::Double | Type::Pointer { .. })
    }
    /// The [`KNOWN_I1`] … [`KNOWN_F16`] slot of a scalar of a fixed kind (`i1`, `i8`, `i16`,
    /// `i32`, `i64`, `half`, `float`, `double`).
    #[inline(always)]
    pub fn known_slot(&self) -> Option<usize> {
        Some(match self {
            Type::Int(1) => KNOWN_I1,
            Type::Int(8) => KNOWN_I1 + 1,
            Type::Int(16) => KNOWN_I1 + 2,
            Type::Int(32) => KNOWN_I1 + 3,
            Type::Int(64) => KNOWN_I1 + 4,
            Type::Half => KNOWN_F16,
            Type::Float => KNOWN_F16 + 1,
            Type::Double => KNOWN_F16 + 2,
            _ => return None,
        })
    }
    /// Bit width of scalar integer and float types.
    pub fn scalar_bits(&self) -> Option<u32> {
        match self {
            Type::Int(w) => Some(*w),
            Type::Half => Some(16),
            Type::Float => Some(32),
            Type::Double => Some(64),
            _ => None,
        }
    }
}

/// The slots of a table of type ids of fixed kinds ([`crate::bitcode::TypeFacts::known`]): `i1`,
/// `i8`, `i16`, `i32`, `i64` from [`KNOWN_I1`], `half`, `float`, `double` from [`KNOWN_F16`],
/// `%dx.types.Handle` at [`KNOWN_HANDLE`]; [`KNOWN`] slots in all.
pub const KNOWN_I1: usize = 0;
/// The first slot of the floats (`half`, `float`, `double`).
pub const KNOWN_F16: usize = 5;
/// The slot of `%dx.types.Handle`.
pub const KNOWN_HANDLE: usize = 8;
/// The number of slots.
pub const KNOWN: usize = 9;

/// The type table. Add types through [`Types::push`] / [`Types::intern`] so
/// the lookup index stays in step with the list.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Types {
    pub list: Vec<Type>,
    /// First id of each distinct type, by the type's hash (so the index
    /// holds no copy of the type). Types whose hash is taken by another type
    /// go to `collisions`.
    #[serde(skip)]
    index: crate::fxhash::FxHashMap<u64, TypeId>,
    #[serde(skip)]
    collisions: crate::fxhash::FxHashMap<u64, Vec<TypeId>>,
    /// `list[..indexed]` is in `index`. The index is built lazily, by
    /// [`Types::intern`] once the table outgrows [`LINEAR_FIND`]: reading a
    /// module pushes every bitcode type but interns only a few derived ones.
    #[serde(skip)]
    indexed: usize,
    /// The element lists and names of the types [`Types::clear`] took out, for the next
    /// table's types ([`Types::spare_list`], [`Types::spare_name`]).
    #[serde(skip)]
    spares: Spares,
}

/// Storage of cleared types, bounded ([`SPARE_MAX`], [`SPARE_CAPACITY`]); a clone of the table
/// starts without.
#[derive(Debug, Default)]
struct Spares {
    lists: Vec<Vec<TypeId>>,
    names: Vec<String>,
}

impl Clone for Spares {
    fn clone(&self) -> Self {
        Spares::default()
    }
}

/// Most element lists (and names) [`Spares`] keeps.
const SPARE_MAX: usize = 256;
/// Largest capacity of a list or name [`Spares`] keeps.
const SPARE_CAPACITY: usize = 256;
/// Capacity a new element list gets, so it serves most later types too.
const LIST_CAPACITY: usize = 8;

/// Tables up to this many types are searched linearly instead of by hash.
const LINEAR_FIND: usize = 32;

fn type_hash(t: &Type) -> u64 {
    use std::hash::BuildHasher;
    crate::fxhash::FxBuildHasher::default().hash_one(t)
}

impl PartialEq for Types {
    fn eq(&self, other: &Self) -> bool {
        self.list == other.list
    }
}

/// Longest type rendering; longer ones end in `…` (a hostile type table
/// can describe types whose full spelling is exponentially long).
pub const MAX_DISPLAY_LEN: usize = 4096;

impl Types {
    /// Empties the table, keeping its storage (for [`super::Module::recycle`]).
    pub(crate) fn clear(&mut self) {
        // The last type's storage is kept first, so that the next table's first struct or
        // function type takes this table's first one's.
        let spares = &mut self.spares;
        for t in self.list.drain(..).rev() {
            let (list, name) = match t {
                Type::Struct { name, elems, .. } => (elems, name),
                Type::Function { params, .. } => (params, None),
                _ => continue,
            };
            if spares.lists.len() < SPARE_MAX && (1..=SPARE_CAPACITY).contains(&list.capacity()) {
                let mut list = list;
                list.clear();
                spares.lists.push(list);
            }
            if let Some(mut name) = name.filter(|n| (1..=SPARE_CAPACITY).contains(&n.capacity())) {
                if spares.names.len() < SPARE_MAX {
                    name.clear();
                    spares.names.push(name);
                }
            }
        }
        self.index.clear();
        self.collisions.clear();
        self.indexed = 0;
    }
    pub fn get(&self, id: TypeId) -> &Type {
        &self.list[id.0 as usize]
    }
    /// An empty list for a struct's elements or a function's parameters, with the storage of
    /// a cleared type's when there is one (no allocation).
    pub(crate) fn spare_list(&mut self) -> Vec<TypeId> {
        self.spares.lists.pop().unwrap_or_else(|| Vec::with_capacity(LIST_CAPACITY))
    }
    /// An empty string for a struct's name, with the storage of a cleared type's name when
    /// there is one.
    pub(crate) fn spare_name(&mut self) -> String {
        self.spares.names.pop().unwrap_or_default()
    }
    pub fn len(&self) -> usize {
        self.list.len()
    }
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
    pub fn iter(&self) -> impl Iterator<Item = (TypeId, &Type)> {
        self.list.iter().enumerate().map(|(i, t)| (TypeId(i as u32), t))
    }
    /// Finds an existing type equal to `t` (the first one).
    pub fn find(&self, t: &Type) -> Option<TypeId> {
        let indexed = self.indexed.min(self.list.len());
        if indexed > 0 {
            if let Some(id) = self.find_hashed(t, type_hash(t)) {
                return Some(id);
            }
        }
        let tail = self.list.get(indexed..).unwrap_or(&[]);
        tail.iter().position(|x| x == t).map(|i| TypeId((indexed + i) as u32))
    }
    fn find_hashed(&self, t: &Type, h: u64) -> Option<TypeId> {
        let first = *self.index.get(&h)?;
        if self.list.get(first.0 as usize) == Some(t) {
            return Some(first);
        }
        self.collisions.get(&h)?.iter().copied().find(|id| self.list.get(id.0 as usize) == Some(t))
    }
    /// Makes room for `n` more types.
    pub fn reserve(&mut self, n: usize) {
        self.list.reserve(n);
    }
    /// Appends `t` (even if an equal type exists: bitcode ids must stay stable).
    #[inline(always)]
    pub fn push(&mut self, t: Type) -> TypeId {
        let id = TypeId(self.list.len() as u32);
        self.list.push(t);
        id
    }
    /// Adds `list[indexed..]` to the hash index.
    fn catch_up(&mut self) {
        if self.indexed > self.list.len() {
            // `list` was replaced from outside: start over.
            self.index.clear();
            self.collisions.clear();
            self.indexed = 0;
        }
        self.index.reserve(self.list.len() - self.indexed);
        for i in self.indexed..self.list.len() {
            let Some(t) = self.list.get(i) else { break };
            let id = TypeId(i as u32);
            let h = type_hash(t);
            match self.index.entry(h) {
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(id);
                }
                std::collections::hash_map::Entry::Occupied(e) => {
                    let first = *e.get();
                    let equal_exists = self.list.get(first.0 as usize) == Some(t)
                        || self
                            .collisions
                            .get(&h)
                            .is_some_and(|v| v.iter().any(|x| self.list.get(x.0 as usize) == Some(t)));
                    if !equal_exists {
                        self.collisions.entry(h).or_default().push(id);
                    }
                }
            }
        }
        self.indexed = self.list.len();
    }
    /// Returns the id of `t`, adding it when absent (used for derived types).
    pub fn intern(&mut self, t: Type) -> TypeId {
        if self.list.len() > LINEAR_FIND || self.indexed > 0 {
            self.catch_up();
        }
        match self.find(&t) {
            Some(id) => id,
            None => self.push(t),
        }
    }
    pub fn pointee(&self, id: TypeId) -> Option<(TypeId, u32)> {
        match self.get(id) {
            Type::Pointer { pointee, addr_space } => Some((*pointee, *addr_space)),
            _ => None,
        }
    }
    /// The element type reached by indexing aggregate `id` with constant index `idx`.
    pub fn element(&self, id: TypeId, idx: u64) -> Option<TypeId> {
        match self.get(id) {
            Type::Array { elem, .. } | Type::Vector { elem, .. } => Some(*elem),
            Type::Struct { elems, .. } => elems.get(usize::try_from(idx).ok()?).copied(),
            _ => None,
        }
    }

    /// A type that holds itself by value — a struct, array or vector that its struct fields and
    /// array or vector elements reach again (through a pointer is fine) — if there is one: such
    /// a type has no size, and a walk over a type's parts would not end. Only a named struct can
    /// be used before its definition, so every cycle runs through one.
    pub fn holds_itself(&self) -> Option<TypeId> {
        fn parts(t: &Type) -> &[TypeId] {
            match t {
                Type::Struct { elems, .. } => elems,
                Type::Array { elem, .. } | Type::Vector { elem, .. } => std::slice::from_ref(elem),
                _ => &[],
            }
        }
        // Per type: 0 not reached, 1 on the walk's path, 2 done. Iterative: a hostile table may
        // nest deeper than the stack.
        let mut state = vec![0u8; self.list.len()];
        let mut path: Vec<(usize, usize)> = Vec::new();
        for root in 0..self.list.len() {
            if state[root] != 0 {
                continue;
            }
            state[root] = 1;
            path.push((root, 0));
            while let Some((t, next)) = path.last_mut() {
                let Some(p) = parts(&self.list[*t]).get(*next) else {
                    state[*t] = 2;
                    path.pop();
                    continue;
                };
                *next += 1;
                let p = p.0 as usize;
                match state.get(p) {
                    Some(0) => {
                        state[p] = 1;
                        path.push((p, 0));
                    }
                    Some(1) => return Some(TypeId(p as u32)),
                    // Done, or outside the table (another rule's).
                    _ => {}
                }
            }
        }
        None
    }

    /// Renders a type in LLVM's typed-pointer syntax (`float addrspace(3)*`),
    /// struct names as they are (`%class.Buffer<float>`).
    pub fn display(&self, id: TypeId) -> String {
        let mut s = String::new();
        self.write(id, &mut s, 0, false);
        s
    }

    /// [`Types::display`] with struct names quoted where the module text
    /// needs it (`%"class.Buffer<float>"`), as `ir::print` writes them.
    pub fn display_quoted(&self, id: TypeId) -> String {
        let mut s = String::new();
        self.write(id, &mut s, 0, true);
        s
    }

    fn write(&self, id: TypeId, s: &mut String, depth: u32, quote: bool) {
        use std::fmt::Write;
        if depth > 64 || s.len() > MAX_DISPLAY_LEN {
            if !s.ends_with('…') {
                s.push('…');
            }
            return;
        }
        let Some(t) = self.list.get(id.0 as usize) else {
            let _ = write!(s, "<bad type {}>", id.0);
            return;
        };
        match t {
            Type::Void => s.push_str("void"),
            Type::Half => s.push_str("half"),
            Type::Float => s.push_str("float"),
            Type::Double => s.push_str("double"),
            Type::Int(w) => {
                let _ = write!(s, "i{w}");
            }
            Type::Label => s.push_str("label"),
            Type::Metadata => s.push_str("metadata"),
            Type::Pointer { pointee, addr_space } => {
                self.write(*pointee, s, depth + 1, quote);
                if *addr_space != 0 {
                    let _ = write!(s, " addrspace({addr_space})");
                }
                s.push('*');
            }
            Type::Array { len, elem } => {
                let _ = write!(s, "[{len} x ");
                self.write(*elem, s, depth + 1, quote);
                s.push(']');
            }
            Type::Vector { len, elem } => {
                let _ = write!(s, "<{len} x ");
                self.write(*elem, s, depth + 1, quote);
                s.push('>');
            }
            Type::Struct { name: Some(n), .. } if quote => super::print::write_ident('%', n, false, s),
            Type::Struct { name: Some(n), .. } => {
                s.push('%');
                s.push_str(n);
            }
            Type::Struct { name: None, packed, elems, .. } => {
                if elems.is_empty() {
                    s.push_str(if *packed { "<{}>" } else { "{}" });
                    return;
                }
                s.push_str(if *packed { "<{ " } else { "{ " });
                for (i, e) in elems.iter().enumerate() {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    self.write(*e, s, depth + 1, quote);
                }
                s.push_str(if *packed { " }>" } else { " }" });
            }
            Type::Function { ret, params, vararg } => {
                self.write(*ret, s, depth + 1, quote);
                s.push_str(" (");
                for (i, p) in params.iter().enumerate() {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    self.write(*p, s, depth + 1, quote);
                }
                if *vararg {
                    s.push_str(if params.is_empty() { "..." } else { ", ..." });
                }
                s.push(')');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cleared_table_lends_its_lists_and_names_empty() {
        let mut t = Types::default();
        let i32_ = t.push(Type::Int(32));
        t.push(Type::Function { ret: i32_, params: vec![i32_, i32_], vararg: false });
        let name = Some("dx.types.Handle".to_string());
        t.push(Type::Struct { name, packed: false, opaque: false, elems: vec![i32_] });
        let copy = t.clone();
        t.clear();
        assert!(t.is_empty());
        // Two lists (the first such type's first: the function's, then the struct's) and one
        // name, each emptied.
        let (a, b, c) = (t.spare_list(), t.spare_list(), t.spare_name());
        assert!(a.is_empty() && a.capacity() >= 2 && b.is_empty() && b.capacity() >= 1);
        assert!(c.is_empty() && c.capacity() >= "dx.types.Handle".len());
        // Past the kept ones, a new list; a clone of a table keeps no spares.
        assert_eq!(t.spare_list().capacity(), LIST_CAPACITY);
        let mut copy = copy;
        copy.list.clear();
        assert!(copy.spares.lists.is_empty() && copy.spare_name().capacity() == 0);
    }
}
