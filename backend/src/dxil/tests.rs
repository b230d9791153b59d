//! Unit tests on hand-built metadata, well-formed and malformed.

use super::*;
use crate::ir::{Const, ConstKind, Function, Metadata, Type, TypeId, Value};

/// Builds a module's metadata by hand.
struct B {
    m: Module,
    i32: TypeId,
    i8: TypeId,
    i1: TypeId,
    i64: TypeId,
    f32: TypeId,
    fn_ptr: TypeId,
}

impl B {
    fn new() -> B {
        let mut m = Module::default();
        let i32 = m.types.intern(Type::Int(32));
        let i8 = m.types.intern(Type::Int(8));
        let i1 = m.types.intern(Type::Int(1));
        let i64 = m.types.intern(Type::Int(64));
        let f32 = m.types.intern(Type::Float);
        let void = m.types.intern(Type::Void);
        let fn_ty = m.types.intern(Type::Function { ret: void, params: vec![], vararg: false });
        let fn_ptr = m.types.intern(Type::Pointer { pointee: fn_ty, addr_space: 0 });
        for name in ["main", "patch_constants"] {
            m.functions.push(Function {
                name: name.into(),
                ty: fn_ty,
                ptr_ty: fn_ptr,
                ret_ty: void,
                ..Default::default()
            });
        }
        B { m, i32, i8, i1, i64, f32, fn_ptr }
    }
    fn push(&mut self, md: Metadata) -> Option<MdId> {
        self.m.metadata.push(md);
        Some(MdId(self.m.metadata.len() as u32 - 1))
    }
    fn konst(&mut self, ty: TypeId, kind: ConstKind) -> Option<MdId> {
        self.m.consts.push(Const { ty, kind });
        let c = crate::ir::ConstId(self.m.consts.len() as u32 - 1);
        self.push(Metadata::Value { ty, value: Value::Const(c) })
    }
    fn int(&mut self, ty: TypeId, bits: u32, v: i64) -> Option<MdId> {
        self.konst(ty, ConstKind::Int(crate::ir::mask_bits(v as u64, bits)))
    }
    fn i32(&mut self, v: i64) -> Option<MdId> {
        self.int(self.i32, 32, v)
    }
    fn i8(&mut self, v: i64) -> Option<MdId> {
        self.int(self.i8, 8, v)
    }
    fn i1(&mut self, v: bool) -> Option<MdId> {
        self.int(self.i1, 1, v as i64)
    }
    fn i64(&mut self, v: i64) -> Option<MdId> {
        self.int(self.i64, 64, v)
    }
    fn f32(&mut self, v: f32) -> Option<MdId> {
        self.konst(self.f32, ConstKind::Float(v.to_bits() as u64))
    }
    fn s(&mut self, s: &str) -> Option<MdId> {
        let md = self.m.new_md_string(s);
        self.push(md)
    }
    fn node(&mut self, ops: Vec<Option<MdId>>) -> Option<MdId> {
        let md = self.m.new_md_node(false, &ops);
        self.push(md)
    }
    fn func(&mut self, i: u32) -> Option<MdId> {
        self.push(Metadata::Value { ty: self.fn_ptr, value: Value::Function(FuncId(i)) })
    }
    fn named(&mut self, name: &str, ops: Vec<Option<MdId>>) {
        let ops: Vec<MdId> = ops.into_iter().flatten().collect();
        self.m.add_named_md(name, &ops);
    }
    fn versions(&mut self, prefix: &str, major: i64, minor: i64) {
        let sm = vec![self.s(prefix), self.i32(major), self.i32(minor)];
        let sm = self.node(sm);
        self.named("dx.shaderModel", vec![sm]);
        let v = vec![self.i32(1), self.i32(minor)];
        let v = self.node(v);
        self.named("dx.version", vec![v]);
        let vv = vec![self.i32(1), self.i32(8)];
        let vv = self.node(vv);
        self.named("dx.valver", vec![vv]);
    }
    /// A signature element record.
    #[allow(clippy::too_many_arguments)]
    fn element(
        &mut self,
        id: i64,
        name: &str,
        comp: i64,
        kind: i64,
        indices: &[i64],
        interp: i64,
        rows: i64,
        cols: i64,
        row: i64,
        col: i64,
        tags: Option<MdId>,
    ) -> Option<MdId> {
        let ix: Vec<_> = indices.iter().map(|i| self.i32(*i)).collect();
        let ix = self.node(ix);
        let ops = vec![
            self.i32(id),
            self.s(name),
            self.i8(comp),
            self.i8(kind),
            ix,
            self.i8(interp),
            self.i32(rows),
            self.i8(cols),
            self.i32(row),
            self.i8(col),
            tags,
        ];
        self.node(ops)
    }
    fn entry(&mut self, func: Option<MdId>, name: &str, sigs: Option<MdId>, res: Option<MdId>, props: Option<MdId>) {
        let ops = vec![func, self.s(name), sigs, res, props];
        let e = self.node(ops);
        self.named("dx.entryPoints", vec![e]);
    }
}

/// A compute shader with one resource of each class and numthreads.
fn compute_module() -> B {
    let mut b = B::new();
    b.versions("cs", 6, 0);
    // SRV: Texture2D<float4> t0..t3, space 1, element type f32.
    let t = vec![b.i32(0), b.i32(9)];
    let t = b.node(t);
    let srv = vec![b.i32(0), None, b.s("tex"), b.i32(1), b.i32(0), b.i32(4), b.i32(2), b.i32(0), t];
    let srv = b.node(srv);
    // UAV: RWStructuredBuffer stride 16, unbounded, globally coherent.
    let t = vec![b.i32(1), b.i32(16)];
    let t = b.node(t);
    let uav = vec![
        b.i32(0),
        None,
        b.s(""),
        b.i32(0),
        b.i32(2),
        b.i32(-1),
        b.i32(12),
        b.i1(true),
        b.i1(false),
        b.i1(false),
        t,
    ];
    let uav = b.node(uav);
    let cbv = vec![b.i32(0), None, b.s("cb"), b.i32(0), b.i32(0), b.i32(1), b.i32(64), None];
    let cbv = b.node(cbv);
    let smp = vec![b.i32(0), None, b.s("s"), b.i32(0), b.i32(3), b.i32(1), b.i32(1), None];
    let smp = b.node(smp);
    let lists = [vec![srv], vec![uav], vec![cbv], vec![smp]].map(|l| b.node(l));
    let res = b.node(lists.to_vec());
    b.named("dx.resources", vec![res]);
    let nt = vec![b.i32(8), b.i32(4), b.i32(1)];
    let nt = b.node(nt);
    let props = vec![b.i32(0), b.i64(0x10), b.i32(4), nt];
    let props = b.node(props);
    let f = b.func(0);
    b.entry(f, "main", None, res, props);
    b
}

#[test]
fn decodes_compute_shader() {
    let b = compute_module();
    let info = decode(&b.m).unwrap();
    assert_eq!(info.shader_model, ShaderModel { kind: ShaderKind::Compute, major: 6, minor: 0 });
    assert_eq!(info.dxil_version, (1, 0));
    assert_eq!(info.validator_version, Some((1, 8)));
    let ep = info.main_entry().unwrap();
    assert_eq!(ep.function, Some(FuncId(0)));
    assert_eq!(ep.name, "main");
    assert_eq!(ep.properties.num_threads, Some([8, 4, 1]));
    assert_eq!(ep.properties.flags, Some(0x10));
    assert_eq!(ep.resources.as_ref(), Some(&info.resources));

    let r = &info.resources;
    assert_eq!(r.len(), 4);
    let srv = &r.srvs[0];
    assert_eq!(srv.kind, ResourceKind::Texture2D);
    assert_eq!(srv.props.element_type, Some(ComponentType::F32));
    assert_eq!(srv.binding.register_range('t'), "t0-t3");
    assert_eq!(srv.binding.space, 1);
    let uav = &r.uavs[0];
    assert_eq!(uav.kind, ResourceKind::StructuredBuffer);
    assert_eq!(uav.props.stride, Some(16));
    assert!(uav.globally_coherent && !uav.has_counter && !uav.rasterizer_ordered);
    assert_eq!(uav.binding.range_size, None);
    assert_eq!(uav.binding.register_range('u'), "u2-unbounded");
    assert_eq!(r.cbvs[0].size_in_bytes, 64);
    assert_eq!(r.cbvs[0].binding.register_range('b'), "b0");
    // A range of no registers (metadata may say 0) reads as such, with no arithmetic below 0.
    let empty = crate::dxil::Binding { range_size: Some(0), lower_bound: 0, ..r.cbvs[0].binding.clone() };
    assert_eq!(empty.register_range('b'), "b0 (empty)");
    assert_eq!(r.samplers[0].kind, SamplerKind::Comparison);
    assert_eq!(r.samplers[0].binding.global, None);
}

#[test]
fn decodes_pixel_signatures() {
    let mut b = B::new();
    b.versions("ps", 6, 0);
    let usage = vec![b.i32(3), b.i32(0xF)];
    let usage = b.node(usage);
    let pos = b.element(0, "SV_Position", 9, 3, &[0], 4, 1, 4, 0, 0, usage);
    let tags = vec![b.i32(3), b.i32(3), b.i32(2), b.i32(1)];
    let tags = b.node(tags);
    let tc = b.element(1, "TEXCOORD", 9, 0, &[0, 1], 2, 2, 2, 1, 2, tags);
    let inputs = b.node(vec![pos, tc]);
    let target = b.element(0, "SV_Target", 9, 16, &[0], 0, 1, 4, 0, 0, None);
    let depth = b.element(1, "SV_Depth", 9, 17, &[0], 0, 1, 1, -1, -1, None);
    let outputs = b.node(vec![target, depth]);
    let sigs = b.node(vec![inputs, outputs, None]);
    let f = b.func(0);
    b.entry(f, "main", sigs, None, None);
    let info = decode(&b.m).unwrap();
    let ep = &info.entry_points[0];
    assert!(ep.patch_constants.is_empty());
    assert_eq!(ep.resources, None);
    let pos = &ep.inputs[0];
    assert!(pos.is_system_value());
    assert_eq!(pos.system_value_name(), "SV_Position");
    assert_eq!(pos.interpolation, InterpolationMode::LinearNoperspective);
    assert_eq!(pos.mask(), 0xF);
    assert_eq!(pos.usage_mask, Some(0xF));
    let tc = &ep.inputs[1];
    assert!(!tc.is_system_value());
    assert_eq!(tc.system_value_name(), "");
    assert_eq!(tc.semantic_indices[..], [0, 1]);
    assert_eq!((tc.rows, tc.cols, tc.start_row, tc.start_col), (2, 2, 1, 2));
    assert_eq!(tc.mask(), 0b1100);
    assert_eq!(mask_string(tc.mask()), "__zw");
    assert_eq!(tc.usage_mask, Some(3));
    assert_eq!(tc.dynamic_index_mask, Some(1));
    let depth = &ep.outputs[1];
    assert_eq!((depth.start_row, depth.start_col), (-1, -1));
    assert!(!depth.is_allocated());
    assert_eq!(depth.mask(), 0x1);
    assert_eq!(depth.semantic_kind, SemanticKind::Depth);
    assert_eq!(ep.outputs[0].semantic_kind, SemanticKind::Target);
}

#[test]
fn decodes_stage_state() {
    // Hull shader with a patch-constant function.
    let mut b = B::new();
    b.versions("hs", 6, 0);
    let pcf = b.func(1);
    let hs = vec![pcf, b.i32(3), b.i32(3), b.i32(2), b.i32(3), b.i32(4), b.f32(64.0)];
    let hs = b.node(hs);
    let props = vec![b.i32(3), hs];
    let props = b.node(props);
    let f = b.func(0);
    b.entry(f, "main", None, None, props);
    let info = decode(&b.m).unwrap();
    let hs = info.entry_points[0].properties.hs.clone().unwrap();
    assert_eq!(hs.patch_constant_function, Some(FuncId(1)));
    assert_eq!((hs.input_control_points, hs.output_control_points), (3, 3));
    assert_eq!(hs.domain, TessDomain::Tri);
    assert_eq!(hs.partitioning, TessPartitioning::FractionalOdd);
    assert_eq!(hs.output_primitive, TessOutputPrimitive::TriangleCCW);
    assert_eq!(hs.max_tess_factor, 64.0);
    assert_eq!(info.entry_points[0].properties.tess_domain(), Some(TessDomain::Tri));

    // Geometry shader, wave size range form, unknown tags kept.
    let mut b = B::new();
    b.versions("gs", 6, 8);
    let gs = vec![b.i32(3), b.i32(6), b.i32(1), b.i32(5), b.i32(2)];
    let gs = b.node(gs);
    let ws = vec![b.i32(16), b.i32(64), b.i32(0)];
    let ws = b.node(ws);
    let props = vec![b.i32(1), gs, b.i32(23), ws, b.i32(99), b.s("future")];
    let props = b.node(props);
    let f = b.func(0);
    b.entry(f, "main", None, None, props);
    let p = decode(&b.m).unwrap().entry_points[0].properties.clone();
    let gs = p.gs.unwrap();
    assert_eq!(gs.input_primitive, InputPrimitive::Triangle);
    assert_eq!(gs.stream_primitive_topology, PrimitiveTopology::TriangleStrip);
    assert_eq!((gs.max_vertex_count, gs.active_stream_mask, gs.instance_count), (6, 1, 2));
    assert_eq!(p.wave_size, Some(WaveSize { min: 16, max: Some(64), preferred: None }));
    assert_eq!(p.other, vec![OtherProperty { tag: 99, name: "unknown", value: "\"future\"".into() }]);

    // Mesh shader state and the tuple form of the legacy wave size.
    let mut b = B::new();
    b.versions("ms", 6, 5);
    let nt = vec![b.i32(32), b.i32(1), b.i32(1)];
    let nt = b.node(nt);
    let ms = vec![nt, b.i32(64), b.i32(126), b.i32(2), b.i32(16)];
    let ms = b.node(ms);
    let ws = vec![b.i32(32)];
    let ws = b.node(ws);
    let props = vec![b.i32(9), ms, b.i32(11), ws];
    let props = b.node(props);
    let f = b.func(0);
    b.entry(f, "main", None, None, props);
    let p = decode(&b.m).unwrap().entry_points[0].properties.clone();
    let ms = p.ms.clone().unwrap();
    assert_eq!(ms.output_topology, MeshOutputTopology::Triangle);
    assert_eq!((ms.max_vertex_count, ms.max_primitive_count, ms.payload_size_in_bytes), (64, 126, 16));
    assert_eq!(p.workgroup_size(), Some([32, 1, 1]));
    assert_eq!(p.wave_size, Some(WaveSize { min: 32, max: None, preferred: None }));
}

#[test]
fn decodes_library_entries() {
    let mut b = B::new();
    b.versions("lib", 6, 3);
    let empty = b.node(vec![None, None, None, None]);
    let flags = vec![b.i32(0), b.i64(16)];
    let flags = b.node(flags);
    let first = vec![None, b.s(""), None, empty, flags];
    let first = b.node(first);
    let space = vec![b.i32(0)];
    let space = b.node(space);
    let props = vec![b.i32(8), b.i32(7), b.i32(5), space];
    let props = b.node(props);
    let ops = vec![b.func(0), b.s("\u{1}?RayGen@@YAXXZ"), None, None, props];
    let raygen = b.node(ops);
    b.named("dx.entryPoints", vec![first, raygen]);
    let info = decode(&b.m).unwrap();
    assert_eq!(info.entry_points.len(), 2);
    assert_eq!(info.entry_points[0].function, None);
    assert_eq!(info.entry_points[0].resources, Some(Resources::default()));
    let rg = info.main_entry().unwrap();
    assert_eq!(rg.properties.shader_kind, Some(ShaderKind::RayGeneration));
    assert_eq!(rg.properties.auto_binding_space, Some(0));
    assert_eq!(info.functions().count(), 1);
}

fn err_of(b: &B) -> DxilError {
    match decode(&b.m) {
        Err(e) => e,
        Ok(info) => panic!("expected an error, decoded {info:?}"),
    }
}

/// Replaces metadata `id` in place.
fn set(b: &mut B, id: Option<MdId>, md: Metadata) {
    b.m.metadata[id.unwrap().index()] = md;
}

/// Removes the named metadata called any of `names`.
fn drop_named(m: &mut crate::ir::Module, names: &[&str]) {
    let strings = &m.strings;
    m.named_metadata.retain(|n| !names.contains(&strings.get(n.name.range()).unwrap_or("")));
}

/// The operands of tuple `id`, to change them in place.
fn node_ops(m: &mut crate::ir::Module, id: usize) -> &mut [Option<MdId>] {
    let Metadata::Node { ops, .. } = m.metadata[id] else { panic!("!{id} is not a tuple") };
    m.md_ops_mut(ops)
}

#[test]
fn missing_named_metadata() {
    let mut b = compute_module();
    drop_named(&mut b.m, &["dx.shaderModel"]);
    assert_eq!(err_of(&b), DxilError::MissingNamed { name: "dx.shaderModel" });
    let mut b = compute_module();
    drop_named(&mut b.m, &["dx.entryPoints"]);
    assert_eq!(err_of(&b), DxilError::MissingNamed { name: "dx.entryPoints" });
    let mut b = compute_module();
    drop_named(&mut b.m, &["dx.valver", "dx.resources"]);
    let info = decode(&b.m).unwrap();
    assert_eq!(info.validator_version, None);
    assert!(info.resources.is_empty());
}

#[test]
fn wrong_arity_is_an_error() {
    // A signature element with 10 operands.
    let mut b = B::new();
    b.versions("vs", 6, 0);
    let e = b.element(0, "POSITION", 9, 0, &[0], 0, 1, 4, 0, 0, None);
    if let Metadata::Node { ops, .. } = &mut b.m.metadata[e.unwrap().index()] {
        ops.len -= 1;
    }
    let ins = b.node(vec![e]);
    let sigs = b.node(vec![ins, None, None]);
    let f = b.func(0);
    b.entry(f, "main", sigs, None, None);
    let err = err_of(&b);
    assert_eq!(
        err,
        DxilError::Arity { what: "dx.entryPoints[0].signatures.input[0]".into(), expected: "11".into(), found: 10 }
    );
    assert!(err.to_string().contains("dx.entryPoints[0].signatures.input[0]"), "{err}");

    // numthreads with two operands.
    let mut b = compute_module();
    let ep = b.m.named_md("dx.entryPoints").unwrap().ops[0];
    let props = b.m.md_node(ep).unwrap()[4];
    let nt = b.m.md_node(props.unwrap()).unwrap()[3].unwrap().index();
    if let Metadata::Node { ops, .. } = &mut b.m.metadata[nt] {
        ops.len -= 1;
    }
    let err = err_of(&b);
    assert!(matches!(&err, DxilError::Arity { what, found: 2, .. } if what.ends_with("num_threads")), "{err}");

    // Odd property list.
    let mut b = B::new();
    b.versions("cs", 6, 0);
    let props = vec![b.i32(0)];
    let props = b.node(props);
    let f = b.func(0);
    b.entry(f, "main", None, None, props);
    assert!(matches!(err_of(&b), DxilError::OddTagList { len: 1, .. }));
}

#[test]
fn wrong_types_are_errors() {
    // Rows given as a string.
    let mut b = B::new();
    b.versions("vs", 6, 0);
    let e = b.element(0, "POSITION", 9, 0, &[0], 0, 1, 4, 0, 0, None);
    let rows = b.s("one");
    node_ops(&mut b.m, e.unwrap().index())[6] = rows;
    let ins = b.node(vec![e]);
    let sigs = b.node(vec![ins, None, None]);
    let f = b.func(0);
    b.entry(f, "main", sigs, None, None);
    let err = err_of(&b);
    assert!(
        matches!(&err, DxilError::WrongKind { what, .. } if what == "dx.entryPoints[0].signatures.input[0].rows"),
        "{err}"
    );

    // Component type out of range, columns out of range, start column below -1.
    for (field, value) in [(2usize, 99i64), (7, 7), (9, -2)] {
        let mut b = B::new();
        b.versions("vs", 6, 0);
        let e = b.element(0, "POSITION", 9, 0, &[0], 0, 1, 4, 0, 0, None);
        let v = b.i8(value);
        node_ops(&mut b.m, e.unwrap().index())[field] = v;
        let ins = b.node(vec![e]);
        let sigs = b.node(vec![ins, None, None]);
        let f = b.func(0);
        b.entry(f, "main", sigs, None, None);
        let err = err_of(&b);
        assert!(matches!(err, DxilError::BadEnum { .. } | DxilError::OutOfRange { .. }), "{err}");
    }

    // Unknown shader-model prefix; an entry point that is a string.
    let mut b = compute_module();
    let sm = b.m.named_md("dx.shaderModel").unwrap().ops[0];
    let prefix = b.m.md_node(sm).unwrap()[0];
    let xs = b.m.new_md_string("xs");
    set(&mut b, prefix, xs);
    assert!(matches!(err_of(&b), DxilError::UnknownProfile { prefix, .. } if prefix == "xs"));
    let mut b = compute_module();
    let ep = b.m.named_md("dx.entryPoints").unwrap().ops[0];
    let main = b.m.new_md_string("main");
    set(&mut b, Some(ep), main);
    assert!(matches!(err_of(&b), DxilError::WrongKind { what, .. } if what == "dx.entryPoints[0]"));

    // A function operand that is an integer; a resource space that is a float.
    let mut b = compute_module();
    let ep = b.m.named_md("dx.entryPoints").unwrap().ops[0];
    let func = b.m.md_node(ep).unwrap()[0];
    let seven = b.i32(7);
    let seven = b.m.metadata[seven.unwrap().index()].clone();
    set(&mut b, func, seven);
    assert!(matches!(err_of(&b), DxilError::WrongKind { what, .. } if what == "dx.entryPoints[0].function"));
    let mut b = compute_module();
    let res = b.m.named_md("dx.resources").unwrap().ops[0];
    let srvs = b.m.md_node(res).unwrap()[0];
    let srv = b.m.md_node(srvs.unwrap()).unwrap()[0];
    let space = b.m.md_node(srv.unwrap()).unwrap()[3];
    let half = b.f32(0.5);
    let half = b.m.metadata[half.unwrap().index()].clone();
    set(&mut b, space, half);
    assert!(matches!(err_of(&b), DxilError::WrongKind { what, .. } if what == "dx.resources.srvs[0].space"));
}

#[test]
fn dangling_references_are_errors() {
    let mut b = compute_module();
    let ep = b.m.named_md("dx.entryPoints").unwrap().ops[0];
    node_ops(&mut b.m, ep.index())[4] = Some(MdId(100_000));
    assert!(matches!(err_of(&b), DxilError::Dangling { id: 100_000, .. }));

    // A value pointing at a constant or type that does not exist.
    let mut b = compute_module();
    let sm = b.m.named_md("dx.shaderModel").unwrap().ops[0];
    let major = b.m.md_node(sm).unwrap()[1];
    set(&mut b, major, Metadata::Value { ty: TypeId(0), value: Value::Const(crate::ir::ConstId(99_999)) });
    assert!(matches!(err_of(&b), DxilError::WrongKind { .. }));
    let mut b = compute_module();
    let c = b.m.consts.len() - 1;
    b.m.consts[c].ty = TypeId(77_777);
    assert!(decode(&b.m).is_err());
}

/// Corrupting any single metadata entry of valid modules never panics.
#[test]
fn corrupting_any_metadata_never_panics() {
    let modules = [compute_module(), {
        let mut b = B::new();
        b.versions("ps", 6, 0);
        let tc = b.element(1, "TEXCOORD", 9, 0, &[0, 1], 2, 2, 2, 1, 2, None);
        let ins = b.node(vec![tc]);
        let sigs = b.node(vec![ins, None, None]);
        let f = b.func(0);
        b.entry(f, "main", sigs, None, None);
        b
    }];
    for mut base in modules {
        let n = base.m.metadata.len();
        let replacements = [
            base.m.new_md_string("x"),
            base.m.new_md_node(false, &[]),
            base.m.new_md_node(false, &[None; 11]),
            base.m.new_md_node(false, &[Some(MdId(u32::MAX))]),
            Metadata::Other { code: 7 },
            Metadata::Value { ty: TypeId(u32::MAX), value: Value::Arg(0) },
        ];
        for i in 0..n {
            for r in &replacements {
                let mut m = base.m.clone();
                m.metadata[i] = r.clone();
                let _ = decode(&m);
            }
            // Truncate every node to every shorter length.
            if let Metadata::Node { ops, .. } = &base.m.metadata[i] {
                for len in 0..ops.len {
                    let mut m = base.m.clone();
                    if let Metadata::Node { ops, .. } = &mut m.metadata[i] {
                        ops.len = len;
                    }
                    // Tag and resource lists may legitimately shrink; records may not.
                    let _ = decode(&m);
                }
            }
        }
    }
}

#[test]
fn enum_numbering_matches_dxil() {
    assert_eq!(ComponentType::from_u32(9), Some(ComponentType::F32));
    assert_eq!(ComponentType::PackedU8x32.to_u32(), 18);
    assert_eq!(ComponentType::from_u32(19), None);
    assert_eq!(SemanticKind::from_u32(16), Some(SemanticKind::Target));
    assert_eq!(SemanticKind::StartInstanceLocation.to_u32(), 32);
    assert_eq!(SemanticKind::Invalid.to_u32(), 33);
    assert_eq!(InterpolationMode::LinearNoperspectiveSample.to_u32(), 7);
    assert_eq!(ResourceKind::FeedbackTexture2DArray.to_u32(), 18);
    assert_eq!(ResourceKind::from_u32(16), Some(ResourceKind::RTAccelerationStructure));
    assert_eq!(InputPrimitive::from_u32(39), Some(InputPrimitive::ControlPointPatch(32)));
    assert_eq!(InputPrimitive::ControlPointPatch(1).to_u32(), 8);
    assert_eq!(InputPrimitive::from_u32(4), None);
    for k in 0..=33 {
        let sk = SemanticKind::from_u32(k).unwrap();
        assert_eq!(sk.to_u32(), k);
        assert_eq!(sk.system_value_name().is_empty(), matches!(sk, SemanticKind::Arbitrary | SemanticKind::Invalid));
    }
}

#[test]
fn selects_the_first_entry_and_moves_it_out_with_the_module_resources() {
    let b = compute_module();
    let info = decode(&b.m).unwrap();
    assert_eq!(info.profile(), "cs_6_0");
    assert_eq!(info.select(&b.m, None), Ok(0));
    assert_eq!(info.select(&b.m, Some("main")), Ok(0));
    assert_eq!(info.select(&b.m, Some("other")), Err(EntryError::NotFound("other".into())));
    let e = info.clone().into_entry(0).unwrap();
    assert_eq!((e.kind, e.library, e.index, e.function), (ShaderKind::Compute, false, 0, FuncId(0)));
    assert_eq!(e.export_name(), "main");
    assert_eq!(e.resources(), &info.resources);
    assert_eq!(e.entry.properties.workgroup_size(), Some([8, 4, 1]));
    assert!(info.into_entry(1).is_none());
}

#[test]
fn an_entry_without_its_own_resources_gets_the_modules() {
    let mut b = compute_module();
    // The entry record's resource operand becomes null: the module's list applies.
    let eps = b.m.named_md("dx.entryPoints").unwrap().ops[0];
    node_ops(&mut b.m, eps.index())[3] = None;
    let info = decode(&b.m).unwrap();
    assert_eq!(info.entry_points[0].resources, None);
    let module_resources = info.resources.clone();
    let e = info.into_entry(0).unwrap();
    assert_eq!(e.resources(), &module_resources);
    assert_eq!(e.resources().len(), 4);
}

#[test]
fn entry_selection_errors() {
    // No function, then a function that is only declared.
    let mut b = compute_module();
    let eps = b.m.named_md("dx.entryPoints").unwrap().ops[0];
    node_ops(&mut b.m, eps.index())[0] = None;
    let info = decode(&b.m).unwrap();
    assert_eq!(info.select(&b.m, None), Err(EntryError::NoFunction("main".into())));
    let mut b = compute_module();
    b.m.functions[0].is_declaration = true;
    let info = decode(&b.m).unwrap();
    assert_eq!(info.select(&b.m, None), Err(EntryError::NotDefined("main".into())));
    assert_eq!(EntryError::NotDefined("main".into()).to_string(), "entry point \"main\": function is not defined");
}

#[test]
fn library_exports_are_selected_by_plain_or_mangled_name() {
    let mut b = B::new();
    b.versions("lib", 6, 3);
    let first = vec![None, b.s(""), None, None, None];
    let first = b.node(first);
    let props = vec![b.i32(8), b.i32(7)];
    let props = b.node(props);
    let ops = vec![b.func(0), b.s("\u{1}?RayGen@@YAXXZ"), None, None, props];
    let raygen = b.node(ops);
    b.named("dx.entryPoints", vec![first, raygen]);
    let info = decode(&b.m).unwrap();
    assert_eq!(info.select(&b.m, None), Err(EntryError::Library { shader_model: "lib_6_3".into() }));
    assert_eq!(info.select(&b.m, Some("RayGen")), Ok(1));
    assert_eq!(info.select(&b.m, Some("\u{1}?RayGen@@YAXXZ")), Ok(1));
    // The module-level record (no function) is never picked by its empty name's plain form.
    assert_eq!(info.select(&b.m, Some("")), Err(EntryError::NoFunction(String::new())));
    let e = info.into_entry(1).unwrap();
    assert_eq!((e.kind, e.library, e.export_name()), (ShaderKind::RayGeneration, true, "RayGen"));
}
