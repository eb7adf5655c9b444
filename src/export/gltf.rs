//! glTF 2.0 export: a node per track (or per imported node), the joints of a take's skeleton
//! as a node hierarchy (`skeleton.rs`: a joint with pivots has its channels on the nodes that
//! hold those parts of its transform), an animation per imported animation (else one), a
//! buffer embedded as a data URI (`.gltf`) or in a GLB container (`.glb`).

use std::collections::BTreeMap;

use base64::Engine as _;
use gj::validation::{Checked::Valid, USize64};
use gltf_json as gj;

use gj::accessor::{ComponentType, GenericComponentType, Type};

use super::binding::{node_key, Dest, DEFAULT_ANIMATION};
use super::skeleton::Scene;
use super::{Form, Prepared, Target};
use crate::model::Skeleton;

/// Appends little-endian f32s, returning (offset, length in bytes).
fn push_f32(bin: &mut Vec<u8>, values: impl IntoIterator<Item = f32>) -> (usize, usize) {
    let start = bin.len();
    for v in values {
        bin.extend_from_slice(&v.to_le_bytes());
    }
    (start, bin.len() - start)
}

/// f32 times, strictly increasing (a jump's second time moves up one f32 step).
fn f32_times(times: &[f64]) -> Vec<f32> {
    let mut out: Vec<f32> = Vec::with_capacity(times.len());
    for &t in times {
        let mut v = t as f32;
        if let Some(&last) = out.last() {
            if v <= last {
                v = last.next_up();
            }
        }
        out.push(v);
    }
    out
}

/// Appends `data` (f32, `comps` per element) to the buffer as a new view and accessor of
/// type `ty`, with per-component bounds when `min_max` (glTF requires them on inputs and
/// positions).
fn accessor(root: &mut gj::Root, bin: &mut Vec<u8>, data: Vec<f32>, ty: Type, comps: usize, min_max: bool) -> gj::Index<gj::Accessor> {
    let count = data.len() / comps;
    let (min, max) = if min_max {
        let mut lo = vec![f32::INFINITY; comps];
        let mut hi = vec![f32::NEG_INFINITY; comps];
        for (i, v) in data.iter().enumerate() {
            lo[i % comps] = lo[i % comps].min(*v);
            hi[i % comps] = hi[i % comps].max(*v);
        }
        (Some(serde_json::json!(lo)), Some(serde_json::json!(hi)))
    } else {
        (None, None)
    };
    let (offset, length) = push_f32(bin, data);
    let view = root.push(gj::buffer::View {
        buffer: gj::Index::new(0),
        byte_length: USize64::from(length),
        byte_offset: Some(USize64::from(offset)),
        byte_stride: None,
        name: None,
        target: None,
        extensions: None,
        extras: Default::default(),
    });
    root.push(gj::Accessor {
        buffer_view: Some(view),
        byte_offset: None,
        count: USize64::from(count),
        component_type: Valid(GenericComponentType(ComponentType::F32)),
        extensions: None,
        extras: Default::default(),
        type_: Valid(ty),
        min,
        max,
        name: None,
        normalized: false,
        sparse: None,
    })
}

/// A one-triangle mesh with one morph target per component, so `dim` weights can animate.
fn morph_mesh(root: &mut gj::Root, bin: &mut Vec<u8>, name: &str, dim: usize) -> gj::Index<gj::Mesh> {
    let triangle = vec![0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    let position = accessor(root, bin, triangle, Type::Vec3, 3, true);
    let targets = (0..dim)
        .map(|c| {
            let mut d = vec![0.0f32; 9];
            d[3 + (c % 3)] = 1.0;
            gj::mesh::MorphTarget { positions: Some(accessor(root, bin, d, Type::Vec3, 3, true)), normals: None, tangents: None }
        })
        .collect();
    let mut attributes = BTreeMap::new();
    attributes.insert(Valid(gj::mesh::Semantic::Positions), position);
    root.push(gj::Mesh {
        extensions: None,
        extras: Default::default(),
        name: Some(name.to_owned()),
        primitives: vec![gj::mesh::Primitive {
            attributes,
            extensions: None,
            extras: Default::default(),
            indices: None,
            material: None,
            mode: Valid(gj::mesh::Mode::Triangles),
            targets: Some(targets),
        }],
        weights: Some(vec![0.0; dim]),
    })
}

/// Writes the scene's nodes (node `i` of the scene is node `i` of the document): names, rest
/// translations, rotations and scales (each left out where it is the identity),
/// children, and a morph mesh where weights animate.
fn write_nodes(root: &mut gj::Root, bin: &mut Vec<u8>, scene: &Scene) {
    for n in &scene.nodes {
        let mut node = gj::Node { name: n.name.clone(), ..Default::default() };
        node.translation = n.translation.filter(|t| t.iter().any(|&v| v != 0.0)).map(|t| t.map(|v| v as f32));
        node.rotation = n.rotation.filter(|q| *q != [0.0, 0.0, 0.0, 1.0]).map(|q| gj::scene::UnitQuaternion(q.map(|v| v as f32)));
        node.scale = n.scale.filter(|s| *s != [1.0; 3]).map(|s| s.map(|v| v as f32));
        if !n.children.is_empty() {
            node.children = Some(n.children.iter().map(|&c| gj::Index::new(c as u32)).collect());
        }
        if n.morph > 0 {
            node.mesh = Some(morph_mesh(root, bin, n.name.as_deref().unwrap_or("node"), n.morph));
        }
        root.push(node);
    }
}

/// The glTF document and its binary buffer; `embed` puts the buffer in a data URI. Tracks
/// go to the node and animation their destination names (imported tracks to the node and
/// animation they came from, a take's to its skeleton's joints), others to a node named after
/// the track in the animation called [`DEFAULT_ANIMATION`].
pub(super) fn gltf_root(tracks: &[Prepared], skeleton: Option<&Skeleton>, embed: bool) -> (gj::Root, Vec<u8>) {
    use gj::animation::{Channel, Interpolation as GI, Property, Sampler, Target as GT};
    let mut root = gj::Root { asset: gj::Asset { generator: Some("Tangent".into()), ..Default::default() }, ..Default::default() };
    let mut bin = Vec::new();
    let scene = super::skeleton::scene(tracks, skeleton);
    write_nodes(&mut root, &mut bin, &scene);
    let mut animations: Vec<(String, Vec<Channel>, Vec<Sampler>)> = Vec::new();
    for p in tracks {
        let name = match &p.dest {
            Dest::Gltf { animation: Some(a), .. } => a.clone(),
            _ => DEFAULT_ANIMATION.to_owned(),
        };
        let a = animations.iter().position(|(n, ..)| *n == name).unwrap_or_else(|| {
            animations.push((name, Vec::new(), Vec::new()));
            animations.len() - 1
        });
        let input = accessor(&mut root, &mut bin, f32_times(&p.times), Type::Scalar, 1, true);
        let (ty, comps) = match (p.target, p.width) {
            (Target::Weights, _) => (Type::Scalar, 1),
            (_, 3) => (Type::Vec3, 3),
            _ => (Type::Vec4, 4),
        };
        // A joint with pivots: its channel on the node that holds that part of its transform,
        // its values changed exactly (`skeleton.rs`).
        let mut node = scene.index[&node_key(p)];
        let changed = scene.moved.get(&(node, p.target)).filter(|_| p.target != Target::Weights).map(|m| {
            node = m.node;
            m.change.apply(&p.values, p.width, p.form == Form::CubicSpline)
        });
        let values = changed.as_deref().unwrap_or(&p.values);
        let output = accessor(&mut root, &mut bin, values.iter().map(|v| *v as f32).collect(), ty, comps, false);
        let interpolation = match p.form {
            Form::Step => GI::Step,
            Form::CubicSpline => GI::CubicSpline,
            Form::Linear | Form::Baked => GI::Linear,
            Form::Bezier | Form::Smooth => unreachable!("Bezier and Smooth forms are chosen for three.js JSON only (exact_form)"),
        };
        let (_, channels, samplers) = &mut animations[a];
        let sampler = gj::Index::new(samplers.len() as u32);
        samplers.push(Sampler { extensions: None, extras: Default::default(), input, interpolation: Valid(interpolation), output });
        let path = match p.target {
            Target::Translation => Property::Translation,
            Target::Rotation => Property::Rotation,
            Target::Scale => Property::Scale,
            _ => Property::MorphTargetWeights,
        };
        let node = gj::Index::new(node as u32);
        channels.push(Channel {
            sampler,
            target: GT { extensions: None, extras: Default::default(), node, path: Valid(path) },
            extensions: None,
            extras: Default::default(),
        });
    }
    for (name, channels, samplers) in animations {
        root.push(gj::Animation { extensions: None, extras: Default::default(), channels, name: Some(name), samplers });
    }
    let nodes = scene.roots.iter().map(|&r| gj::Index::new(r as u32)).collect();
    let scene = root.push(gj::Scene { extensions: None, extras: Default::default(), name: None, nodes });
    root.scene = Some(scene);
    let uri = embed.then(|| format!("data:application/octet-stream;base64,{}", base64::engine::general_purpose::STANDARD.encode(&bin)));
    root.push(gj::Buffer { byte_length: USize64::from(bin.len()), name: None, uri, extensions: None, extras: Default::default() });
    (root, bin)
}

/// The GLB container: header, JSON chunk (space-padded), BIN chunk (zero-padded).
pub(super) fn glb(json: &[u8], bin: &[u8]) -> Vec<u8> {
    let pad = |n: usize| (4 - n % 4) % 4;
    let (jp, bp) = (pad(json.len()), pad(bin.len()));
    let total = 12 + 8 + json.len() + jp + 8 + bin.len() + bp;
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&((json.len() + jp) as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(json);
    out.extend(std::iter::repeat_n(b' ', jp));
    out.extend_from_slice(&((bin.len() + bp) as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(bin);
    out.extend(std::iter::repeat_n(0u8, bp));
    out
}
