//! Checks of the glTF data an animation channel reads, made before the `gltf` crate's reader
//! touches it (the reader trusts its input and can panic or misread on a bad file): element
//! types, every byte range inside its buffer view and buffer, strides, sparse indices
//! strictly increasing, times finite and increasing, the morph target count.

use std::borrow::Cow;

use gj::accessor::{ComponentType, Type};
use gj::validation::Checked;
use gltf::accessor::util::{ItemIter, SparseIndicesIter};
use gltf::json as gj;

/// Element types allowed for an animation accessor: `(type, component, normalized)`.
pub(super) type Allowed = &'static [(Type, ComponentType, bool)];

type Buffers<'a> = [Option<Cow<'a, [u8]>>];

fn type_name(ty: Type) -> &'static str {
    match ty {
        Type::Scalar => "SCALAR",
        Type::Vec2 => "VEC2",
        Type::Vec3 => "VEC3",
        Type::Vec4 => "VEC4",
        Type::Mat2 => "MAT2",
        Type::Mat3 => "MAT3",
        Type::Mat4 => "MAT4",
    }
}

fn component_name(ct: ComponentType, normalized: bool) -> String {
    let name = match ct {
        ComponentType::I8 => "BYTE",
        ComponentType::U8 => "UNSIGNED_BYTE",
        ComponentType::I16 => "SHORT",
        ComponentType::U16 => "UNSIGNED_SHORT",
        ComponentType::U32 => "UNSIGNED_INT",
        ComponentType::F32 => "FLOAT",
    };
    if normalized {
        format!("normalized {name}")
    } else {
        name.to_owned()
    }
}

fn to_usize(x: u64) -> usize {
    usize::try_from(x).unwrap_or(usize::MAX)
}

/// Checks accessor `index` (which exists) for its `role` in a channel; returns its count.
pub(super) fn accessor(root: &gj::Root, buffers: &Buffers<'_>, index: usize, role: &str, allowed: Allowed) -> Result<usize, String> {
    let acc = &root.accessors[index];
    let what = format!("the {role} accessor {index}");
    let (Checked::Valid(ty), Checked::Valid(ct)) = (acc.type_, acc.component_type) else {
        return Err(format!("{what} has an unknown type or component type"));
    };
    let ct = ct.0;
    if !allowed.iter().any(|&(t, c, norm)| t == ty && c == ct && (!norm || acc.normalized)) {
        let want: Vec<String> = allowed.iter().map(|&(t, c, n)| format!("{} of {}", type_name(t), component_name(c, n))).collect();
        return Err(format!("{what} is {} of {}; it must be {}", type_name(ty), component_name(ct, acc.normalized), want.join(" or ")));
    }
    let count = to_usize(acc.count.0);
    if count == 0 {
        return Err(format!("{what} has no elements"));
    }
    let elem = (ty.multiplicity() * ct.size()) as u64;
    match acc.buffer_view {
        Some(view) => {
            range(root, buffers, view.value(), acc.byte_offset.map_or(0, |o| o.0), elem, count as u64, &what)?;
        }
        None if acc.sparse.is_none() => return Err(format!("{what} has neither a bufferView nor sparse values")),
        None => {}
    }
    if let Some(s) = &acc.sparse {
        sparse(root, buffers, s, count, elem, &what)?;
    }
    Ok(count)
}

/// The bytes of `count` elements of `elem` bytes at `offset` in buffer view `view`, checked to
/// lie inside the view and the view inside its buffer; returns them and the stride.
fn range<'b>(root: &gj::Root, buffers: &'b Buffers<'_>, view: usize, offset: u64, elem: u64, count: u64, what: &str) -> Result<(&'b [u8], usize), String> {
    let v = root.buffer_views.get(view).ok_or_else(|| format!("{what} uses bufferView {view}, which does not exist"))?;
    let b = v.buffer.value();
    let data = buffers.get(b).and_then(|d| d.as_deref()).ok_or_else(|| format!("bufferView {view} uses buffer {b}, which does not exist"))?;
    let (start, length) = (v.byte_offset.map_or(0, |o| o.0), v.byte_length.0);
    let end = start.checked_add(length).filter(|&e| e <= data.len() as u64).ok_or_else(|| {
        format!("bufferView {view} (bytes {start}..{}) points past the end of buffer {b} ({} bytes)", start.saturating_add(length), data.len())
    })?;
    let stride = match v.byte_stride {
        Some(s) if s.0 != 0 => s.0 as u64,
        _ => elem,
    };
    if stride < elem {
        return Err(format!("bufferView {view} has byteStride {stride}, less than the {elem} bytes of an element of {what}"));
    }
    let need = stride.checked_mul(count - 1).and_then(|x| x.checked_add(elem)).and_then(|x| x.checked_add(offset));
    match need {
        Some(need) if need <= length => Ok((&data[to_usize(start)..to_usize(end)][to_usize(offset)..to_usize(need)], to_usize(stride))),
        _ => Err(format!("{what} needs {count} elements of {elem} bytes from byte {offset} of bufferView {view}, which has {length} bytes")),
    }
}

/// A sparse accessor's indices and values: inside their views, indices strictly increasing
/// and below the accessor's count.
fn sparse(root: &gj::Root, buffers: &Buffers<'_>, s: &gj::accessor::sparse::Sparse, count: usize, elem: u64, what: &str) -> Result<(), String> {
    let n = to_usize(s.count.0);
    if n == 0 || n > count {
        return Err(format!("{what} has {n} sparse values for {count} elements"));
    }
    let Checked::Valid(gj::accessor::IndexComponentType(ct)) = s.indices.component_type else {
        return Err(format!("{what}: the sparse indices have an unknown component type"));
    };
    let size = ct.size() as u64;
    let (bytes, stride) = range(root, buffers, s.indices.buffer_view.value(), s.indices.byte_offset.0, size, n as u64, &format!("{what} (sparse indices)"))?;
    range(root, buffers, s.values.buffer_view.value(), s.values.byte_offset.0, elem, n as u64, &format!("{what} (sparse values)"))?;
    let indices = match ct {
        ComponentType::U8 => SparseIndicesIter::U8(ItemIter::new(bytes, stride)),
        ComponentType::U16 => SparseIndicesIter::U16(ItemIter::new(bytes, stride)),
        ComponentType::U32 => SparseIndicesIter::U32(ItemIter::new(bytes, stride)),
        _ => return Err(format!("{what}: sparse indices must be UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT")),
    };
    let mut previous: Option<u32> = None;
    for (i, index) in indices.enumerate() {
        if to_usize(u64::from(index)) >= count || previous.is_some_and(|p| index <= p) {
            return Err(format!("{what}: sparse index {i} is {index}; indices must increase and stay below {count}"));
        }
        previous = Some(index);
    }
    Ok(())
}

/// Key times: finite and strictly increasing, as glTF requires.
pub(super) fn times(t: &[f32]) -> Result<(), String> {
    for (i, &x) in t.iter().enumerate() {
        if !x.is_finite() {
            return Err(format!("time {i} is {x}, not a finite number"));
        }
        if i > 0 && x <= t[i - 1] {
            return Err(format!("the times do not increase: time {i} ({x}) is not after time {} ({})", i - 1, t[i - 1]));
        }
    }
    Ok(())
}

/// How many morph targets a weights channel drives: the node's mesh says (its first
/// primitive's targets, or its default weights), else the node's weights, else the output
/// count divided by `elements` (output elements per target).
pub(super) fn morph_count(root: &gj::Root, node: usize, outputs: usize, elements: usize) -> Result<usize, String> {
    let n = &root.nodes[node];
    let mesh = n.mesh.and_then(|m| root.meshes.get(m.value()));
    let declared = mesh
        .and_then(|m| m.primitives.first().and_then(|p| p.targets.as_ref().map(Vec::len)).or_else(|| m.weights.as_ref().map(Vec::len)))
        .or_else(|| n.weights.as_ref().map(Vec::len))
        .filter(|&c| c > 0);
    match declared {
        Some(c) => Ok(c),
        None if elements > 0 && outputs % elements == 0 && outputs > 0 => Ok(outputs / elements),
        None => Err(format!("the output accessor has {outputs} weights, not a whole number of morph targets for its keys")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_must_be_finite_and_increase() {
        assert!(times(&[0.0, 0.5, 1.0]).is_ok());
        assert!(times(&[0.0, 0.0]).unwrap_err().contains("do not increase"));
        assert!(times(&[0.0, f32::NAN]).unwrap_err().contains("NaN"));
    }
}
