//! Stream output: resolves `D3D12_SO_DECLARATION_ENTRY`s against the output
//! signature of the last pre-rasterization stage (buffer offsets accumulate
//! per output slot, as D3D12 packs them).

use super::error::LinkError;
use super::stage::StageIo;
use super::{StreamOutputDesc, StreamOutputPlan, XfbOutput};

/// D3D12_SO_BUFFER_SLOT_COUNT.
const SLOTS: u32 = 4;

pub(crate) fn resolve(io: &StageIo, so: &StreamOutputDesc) -> Result<StreamOutputPlan, LinkError> {
    let err = |k: usize, m: String| LinkError::StreamOutput(format!("entry {k}: {m}"));
    let mut offsets = [0u32; SLOTS as usize];
    let mut outputs = Vec::new();
    for (k, d) in so.entries.iter().enumerate() {
        if d.output_slot >= SLOTS {
            return Err(err(k, format!("output slot {} (at most {})", d.output_slot, SLOTS - 1)));
        }
        if d.stream > 3 {
            return Err(err(k, format!("stream {} (at most 3)", d.stream)));
        }
        let stride = so.strides.get(d.output_slot as usize).copied().ok_or_else(|| {
            err(k, format!("output slot {} has no stride ({} given)", d.output_slot, so.strides.len()))
        })?;
        let Some(offset) = offsets.get_mut(d.output_slot as usize) else { continue };
        let at = *offset;
        *offset = at.saturating_add(d.component_count.saturating_mul(4));
        if *offset > stride {
            return Err(err(
                k,
                format!("slot {} entries end at byte {} past the stride {stride}", d.output_slot, *offset),
            ));
        }
        if d.semantic_name.is_empty() {
            continue; // a gap
        }
        if d.component_count == 0 || d.start_component + d.component_count > 4 {
            return Err(err(k, format!("components {}..+{}", d.start_component, d.component_count)));
        }
        let found = io.outputs.iter().find_map(|e| {
            let row = e.semantic_indices.iter().position(|&i| i == d.semantic_index)?;
            (e.semantic_name.eq_ignore_ascii_case(&d.semantic_name) && e.stream() == d.stream).then_some((e, row))
        });
        let Some((e, row)) = found else {
            return Err(err(
                k,
                format!(
                    "{} output {}{} of stream {} does not exist",
                    io.stage, d.semantic_name, d.semantic_index, d.stream
                ),
            ));
        };
        if d.start_component + d.component_count > u32::from(e.cols) {
            return Err(err(
                k,
                format!(
                    "{}{} has {} component(s); components {}..+{} requested",
                    d.semantic_name, d.semantic_index, e.cols, d.start_component, d.component_count
                ),
            ));
        }
        outputs.push(XfbOutput {
            element: e.id,
            row: u32::try_from(row).unwrap_or(0),
            first_component: d.start_component,
            components: d.component_count,
            buffer: d.output_slot,
            offset: at,
            stride,
            stream: d.stream,
        });
    }
    Ok(StreamOutputPlan { stage: io.stage, outputs })
}
