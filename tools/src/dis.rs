//! `dxjit dis`: a readable (or JSON) account of a DXIL shader.

use dxjit::container::rdat::{Rdat, SubobjectData};
use dxjit::container::rootsig::RootParameterKind;
use dxjit::dxil::library::export_name;
use dxjit::dxil::{self, mask_string, DxilModuleInfo, EntryPoint, Resources, ShaderProperties, SignatureElement};
use dxjit::ir::{FuncId, Module};
use serde_json::{json, Value};
use std::fmt::Write;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum DisError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{}: not a DXBC container or LLVM bitcode", path.display())]
    UnknownFormat { path: PathBuf },
    #[error("{}: container: {source}", path.display())]
    Container { path: PathBuf, source: dxjit::container::ContainerError },
    #[error("{}: bitcode: {source}", path.display())]
    Bitcode { path: PathBuf, source: dxjit::bitcode::BitcodeError },
    #[error("{}: DXIL metadata: {source}", path.display())]
    Metadata { path: PathBuf, source: dxil::DxilError },
}

pub fn run(path: &Path, as_json: bool) -> Result<String, DisError> {
    let bytes = std::fs::read(path).map_err(|source| DisError::Io { path: path.into(), source })?;
    let mut rdat = None;
    let bitcode = if bytes.starts_with(b"DXBC") {
        let container = dxjit::container::Container::parse(&bytes)
            .map_err(|source| DisError::Container { path: path.into(), source })?;
        rdat = container.runtime_data().map_err(|source| DisError::Container { path: path.into(), source })?;
        container.dxil_program().map_err(|source| DisError::Container { path: path.into(), source })?.bitcode
    } else if bytes.starts_with(b"BC\xC0\xDE") {
        &bytes[..]
    } else {
        return Err(DisError::UnknownFormat { path: path.into() });
    };
    let m = dxjit::bitcode::read_module(bitcode).map_err(|source| DisError::Bitcode { path: path.into(), source })?;
    let info = dxil::decode(&m).map_err(|source| DisError::Metadata { path: path.into(), source })?;
    if as_json {
        let mut v = to_json(&m, &info);
        if info.shader_model.kind == dxjit::ShaderKind::Library {
            v["library"] = library_json(&info, rdat.as_ref());
        }
        Ok(serde_json::to_string_pretty(&v).unwrap_or_default() + "\n")
    } else {
        Ok(to_text(&m, &info, rdat.as_ref()))
    }
}

/// A library's exports (plain names, from the metadata) and its RDAT subobjects.
fn library_json(info: &DxilModuleInfo, rdat: Option<&Rdat>) -> Value {
    let exports: Vec<Value> = info
        .functions()
        .map(|ep| {
            json!({
                "name": export_name(&ep.name),
                "function": ep.name,
                "kind": ep.properties.shader_kind.map(|k| k.name()),
                "payload_size": ep.properties.ray_payload_size,
                "attribute_size": ep.properties.ray_attrib_size,
            })
        })
        .collect();
    json!({
        "exports": exports,
        "subobjects": rdat.map(|r| serde_json::to_value(&r.subobjects).unwrap_or(Value::Null)),
    })
}

fn library_text(out: &mut String, info: &DxilModuleInfo, rdat: Option<&Rdat>) {
    out.push_str("library exports:\n");
    let w = info.functions().map(|ep| export_name(&ep.name).len()).max().unwrap_or(0);
    for ep in info.functions() {
        let kind = ep.properties.shader_kind.map_or("(no kind)", |k| k.name());
        let _ = writeln!(out, "  {:<w$}  {kind}", export_name(&ep.name));
    }
    out.push('\n');
    let Some(r) = rdat else { return };
    if r.subobjects.is_empty() {
        return;
    }
    out.push_str("subobjects:\n");
    for so in &r.subobjects {
        let _ = writeln!(out, "  {so}");
        let data = match &so.data {
            SubobjectData::GlobalRootSignature { data } | SubobjectData::LocalRootSignature { data } => data,
            _ => continue,
        };
        match dxjit::container::RootSignature::parse(data) {
            Ok(rs) => {
                for (k, p) in rs.parameters.iter().enumerate() {
                    let _ = writeln!(out, "    parameter {k}: {}", root_parameter_text(&p.kind));
                }
                if !rs.static_samplers.is_empty() {
                    let _ = writeln!(out, "    {} static samplers", rs.static_samplers.len());
                }
            }
            Err(e) => {
                let _ = writeln!(out, "    (root signature not decoded: {e})");
            }
        }
    }
    out.push('\n');
}

fn root_parameter_text(k: &RootParameterKind) -> String {
    let reg = |c: char, d: &dxjit::container::rootsig::RootDescriptor| {
        format!("{c}{} space{}", d.shader_register, d.register_space)
    };
    match k {
        RootParameterKind::Constants { shader_register, register_space, num_32bit_values } => {
            format!("{num_32bit_values} root constants b{shader_register} space{register_space}")
        }
        RootParameterKind::Cbv(d) => format!("root CBV {}", reg('b', d)),
        RootParameterKind::Srv(d) => format!("root SRV {}", reg('t', d)),
        RootParameterKind::Uav(d) => format!("root UAV {}", reg('u', d)),
        RootParameterKind::DescriptorTable(ranges) => format!("descriptor table of {} ranges", ranges.len()),
    }
}

fn func_name(m: &Module, f: Option<FuncId>) -> Option<&str> {
    f.and_then(|f| m.functions.get(f.index())).map(|f| f.name.as_str())
}

/// Names as LLVM prints them: non-printable bytes as `\XX`.
fn printable(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() {
            let _ = write!(out, "\\{:02X}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

fn version(v: (u32, u32)) -> String {
    format!("{}.{}", v.0, v.1)
}

// ---------------------------------------------------------------- JSON

fn to_json(m: &Module, info: &DxilModuleInfo) -> Value {
    let mut signatures = serde_json::Map::new();
    let mut entries = Vec::new();
    for ep in &info.entry_points {
        let mut e = json!({
            "name": ep.name,
            "function": func_name(m, ep.function),
            "properties": properties_json(m, &ep.properties),
        });
        if let Some(r) = &ep.resources {
            e["resources"] = resources_json(r);
        }
        entries.push(e);
        if ep.function.is_some() {
            let sig = |s: &[SignatureElement]| Value::Array(s.iter().map(element_json).collect());
            signatures.insert(
                ep.name.clone(),
                json!({
                    "input": sig(&ep.inputs),
                    "output": sig(&ep.outputs),
                    "patch_constant": sig(&ep.patch_constants),
                }),
            );
        }
    }
    json!({
        "stage": info.shader_model.kind.name(),
        "shader_model": info.shader_model.to_string(),
        "dxil_version": version(info.dxil_version),
        "validator_version": info.validator_version.map(version),
        "entry_points": entries,
        "signatures": signatures,
        "resources": resources_json(&info.resources),
    })
}

fn properties_json(m: &Module, p: &ShaderProperties) -> Value {
    let mut v = serde_json::to_value(p).unwrap_or(Value::Null);
    if let Some(hs) = &p.hs {
        v["hs"]["patch_constant_function"] = json!(func_name(m, hs.patch_constant_function));
    }
    v
}

fn element_json(e: &SignatureElement) -> Value {
    let mut v = serde_json::to_value(e).unwrap_or(Value::Null);
    v["mask"] = json!(mask_string(e.mask()));
    v["system_value"] = json!(e.system_value_name());
    v
}

fn resources_json(r: &Resources) -> Value {
    fn list<T: serde::Serialize>(items: &[T], binding: impl Fn(&T) -> &dxil::Binding, letter: char) -> Value {
        Value::Array(
            items
                .iter()
                .map(|x| {
                    let mut v = serde_json::to_value(x).unwrap_or(Value::Null);
                    v["register"] = json!(binding(x).register_range(letter));
                    v
                })
                .collect(),
        )
    }
    json!({
        "srvs": list(&r.srvs, |x| &x.binding, 't'),
        "uavs": list(&r.uavs, |x| &x.binding, 'u'),
        "cbvs": list(&r.cbvs, |x| &x.binding, 'b'),
        "samplers": list(&r.samplers, |x| &x.binding, 's'),
    })
}

// ---------------------------------------------------------------- text

/// Renders rows as columns aligned under `headers`.
fn table(out: &mut String, indent: &str, headers: &[&str], rows: &[Vec<String>]) {
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut line = |cells: &mut dyn Iterator<Item = &str>| {
        let mut s = String::from(indent);
        for (i, (c, w)) in cells.zip(&widths).enumerate() {
            if i > 0 {
                s.push_str("  ");
            }
            let _ = write!(s, "{c:<w$}");
        }
        out.push_str(s.trim_end());
        out.push('\n');
    };
    line(&mut headers.iter().copied());
    for r in rows {
        line(&mut r.iter().map(String::as_str));
    }
}

fn signature_text(out: &mut String, title: &str, elems: &[SignatureElement]) {
    if elems.is_empty() {
        return;
    }
    let _ = writeln!(out, "  {title}:");
    let rows: Vec<Vec<String>> = elems
        .iter()
        .map(|e| {
            let indices = e.semantic_indices.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
            let mut sv = e.system_value_name().to_string();
            if sv.is_empty() {
                sv = "NONE".into();
            }
            if let Some(s) = e.output_stream.filter(|s| *s != 0) {
                sv = format!("{sv} (stream {s})");
            }
            vec![
                e.semantic_name.to_string(),
                indices,
                mask_string(e.mask()),
                e.start_row.to_string(),
                e.start_col.to_string(),
                e.component_type.name().to_string(),
                e.interpolation.name().to_string(),
                sv,
            ]
        })
        .collect();
    table(out, "    ", &["name", "index", "mask", "row", "col", "type", "interpolation", "sv"], &rows);
}

fn resources_text(out: &mut String, indent: &str, r: &Resources) {
    let mut rows = Vec::new();
    for x in &r.srvs {
        rows.push(vec![
            "srv".into(),
            x.kind.short_name().into(),
            x.binding.space.to_string(),
            x.binding.register_range('t'),
            view_type(&x.props),
            printable(&x.binding.name),
        ]);
    }
    for x in &r.uavs {
        let mut kind = x.kind.short_name().to_string();
        for (on, flag) in
            [(x.globally_coherent, "globallycoherent"), (x.has_counter, "counter"), (x.rasterizer_ordered, "rov")]
        {
            if on {
                kind = format!("{kind} {flag}");
            }
        }
        rows.push(vec![
            "uav".into(),
            kind,
            x.binding.space.to_string(),
            x.binding.register_range('u'),
            view_type(&x.props),
            printable(&x.binding.name),
        ]);
    }
    for x in &r.cbvs {
        rows.push(vec![
            "cbv".into(),
            "cbuffer".into(),
            x.binding.space.to_string(),
            x.binding.register_range('b'),
            format!("{} bytes", x.size_in_bytes),
            printable(&x.binding.name),
        ]);
    }
    for x in &r.samplers {
        rows.push(vec![
            "sampler".into(),
            x.kind.name().into(),
            x.binding.space.to_string(),
            x.binding.register_range('s'),
            "-".into(),
            printable(&x.binding.name),
        ]);
    }
    if rows.is_empty() {
        let _ = writeln!(out, "{indent}(none)");
        return;
    }
    table(out, indent, &["class", "kind", "space", "register", "type/stride", "name"], &rows);
}

fn view_type(p: &dxil::ViewProperties) -> String {
    let mut parts = Vec::new();
    if let Some(t) = p.element_type {
        parts.push(t.name().to_string());
    }
    if let Some(s) = p.stride {
        parts.push(format!("stride {s}"));
    }
    if let Some(f) = p.feedback_type {
        parts.push(f.name().to_string());
    }
    if p.atomic64_use {
        parts.push("atomic64".into());
    }
    if parts.is_empty() {
        "-".into()
    } else {
        parts.join(", ")
    }
}

fn properties_text(out: &mut String, m: &Module, p: &ShaderProperties) {
    let mut kv: Vec<(String, String)> = Vec::new();
    if let Some(k) = p.shader_kind {
        kv.push(("shader kind".into(), k.name().into()));
    }
    if let Some(f) = p.flags {
        kv.push(("shader flags".into(), format!("{f:#018x}")));
    }
    if let Some([x, y, z]) = p.num_threads {
        kv.push(("numthreads".into(), format!("{x}, {y}, {z}")));
    }
    if let Some(w) = &p.wave_size {
        let mut s = w.min.to_string();
        if let Some(max) = w.max {
            let _ = write!(s, "..{max}");
        }
        if let Some(pref) = w.preferred {
            let _ = write!(s, " (preferred {pref})");
        }
        kv.push(("wave size".into(), s));
    }
    if let Some(gs) = &p.gs {
        kv.push((
            "gs".into(),
            format!(
                "input {}, max vertices {}, streams {:#x}, topology {}, instances {}",
                gs.input_primitive,
                gs.max_vertex_count,
                gs.active_stream_mask,
                gs.stream_primitive_topology,
                gs.instance_count
            ),
        ));
    }
    if let Some(hs) = &p.hs {
        kv.push((
            "hs".into(),
            format!(
                "patch constants @{}, control points {} -> {}, domain {}, partitioning {}, output {}, max tess factor {}",
                printable(func_name(m, hs.patch_constant_function).unwrap_or("<none>")),
                hs.input_control_points,
                hs.output_control_points,
                hs.domain,
                hs.partitioning,
                hs.output_primitive,
                hs.max_tess_factor
            ),
        ));
    }
    if let Some(ds) = &p.ds {
        kv.push(("ds".into(), format!("domain {}, input control points {}", ds.domain, ds.input_control_points)));
    }
    if let Some(ms) = &p.ms {
        let [x, y, z] = ms.num_threads;
        kv.push((
            "ms".into(),
            format!(
                "numthreads {x}, {y}, {z}, max vertices {}, max primitives {}, topology {}, payload {} bytes",
                ms.max_vertex_count, ms.max_primitive_count, ms.output_topology, ms.payload_size_in_bytes
            ),
        ));
    }
    if let Some(a) = &p.amp {
        let [x, y, z] = a.num_threads;
        kv.push(("as".into(), format!("numthreads {x}, {y}, {z}, payload {} bytes", a.payload_size_in_bytes)));
    }
    if let Some(s) = p.auto_binding_space {
        kv.push(("auto binding space".into(), s.to_string()));
    }
    if let Some(s) = p.ray_payload_size {
        kv.push(("ray payload size".into(), s.to_string()));
    }
    if let Some(s) = p.ray_attrib_size {
        kv.push(("ray attribute size".into(), s.to_string()));
    }
    for o in &p.other {
        kv.push((format!("{} (tag {})", o.name, o.tag), printable(&o.value)));
    }
    let w = kv.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    for (k, v) in kv {
        let _ = writeln!(out, "  {k:<w$}  {v}");
    }
}

fn entry_text(out: &mut String, m: &Module, info: &DxilModuleInfo, ep: &EntryPoint) {
    match func_name(m, ep.function) {
        Some(f) => {
            let _ = writeln!(out, "entry point {} (@{})", printable(&ep.name), printable(f));
        }
        None => {
            let _ = writeln!(
                out,
                "module entry record{}",
                if ep.name.is_empty() { String::new() } else { format!(" {}", printable(&ep.name)) }
            );
        }
    }
    properties_text(out, m, &ep.properties);
    signature_text(out, "input signature", &ep.inputs);
    signature_text(out, "output signature", &ep.outputs);
    let pc_title = if info.shader_model.kind == dxjit::ShaderKind::Mesh {
        "primitive output signature"
    } else {
        "patch constant signature"
    };
    signature_text(out, pc_title, &ep.patch_constants);
    if let Some(r) = &ep.resources {
        if r != &info.resources {
            let _ = writeln!(out, "  resources:");
            resources_text(out, "    ", r);
        }
    }
    out.push('\n');
}

fn to_text(m: &Module, info: &DxilModuleInfo, rdat: Option<&Rdat>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "stage              {}", info.shader_model.kind.name());
    let _ = writeln!(out, "shader model       {}", info.shader_model);
    let _ = writeln!(out, "DXIL version       {}", version(info.dxil_version));
    let _ =
        writeln!(out, "validator version  {}", info.validator_version.map(version).unwrap_or_else(|| "(none)".into()));
    out.push('\n');
    for ep in &info.entry_points {
        entry_text(&mut out, m, info, ep);
    }
    if info.shader_model.kind == dxjit::ShaderKind::Library {
        library_text(&mut out, info, rdat);
    }
    out.push_str("resources:\n");
    resources_text(&mut out, "  ", &info.resources);
    // The account above is comments of the module text below, so that the
    // whole output is assembler input (`dxjit asm`).
    let mut text = String::with_capacity(out.len() * 2);
    for line in out.lines() {
        if !line.is_empty() {
            text.push_str("; ");
            text.push_str(line);
        }
        text.push('\n');
    }
    text.push('\n');
    text.push_str(&dxjit::ir::print::print_module(m));
    // A library's subobjects live in RDAT, not in the module: they follow as DXC's
    // `!dx.subobjects`, from which `dxjit asm` makes the RDAT part again.
    if let Some(r) = rdat.filter(|r| !r.subobjects.is_empty()) {
        text.push_str(
            "\n; RDAT subobjects, as DXC's !dx.subobjects: dxjit asm makes the RDAT part from them and, as\n\
             ; DXC does, leaves them out of the DXIL part (root signature texts are not in RDAT)\n",
        );
        text.push_str(&dxjit::asm::rdat::subobjects_text(&r.subobjects, m.metadata.len()));
    }
    text
}
