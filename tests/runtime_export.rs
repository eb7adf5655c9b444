//! Export for a runtime (issue 34): the demo and the shared sample `bezier_mover.glb` (imported)
//! exported as GLB, the file read back with the `gltf` crate, every channel played by a
//! runtime's model (`tangent::runtime`) and measured against the project's curve.
//!
//! - `--runtime blender --adaptive E` (Blender 4.2+) and `--runtime blender-3.4`: that Blender's
//!   playback of every channel within E (plus float32), the reports saying which Blender, and
//!   no warnings; 4.2+'s keys never close enough for it to merge;
//! - the default runtime: the specification's playback within E, and the CUBICSPLINE channels
//!   Blender 4.2+ would play beyond E warned about, with its deviation.

use tangent::bake::{Bound, Fps};
use tangent::export::{export, ExportOptions, Form, Format, TrackReport};
use tangent::runtime::{blender, deviation, play, Runtime, Written};

/// What `runtime` plays of `w` (Blender in a factory scene, at its float32 frames).
fn played(runtime: Runtime, w: &Written) -> tangent::runtime::Played {
    match runtime.blender() {
        Some(version) => blender::play(version, w, blender::FACTORY_FPS).unwrap(),
        None => play(runtime, w).unwrap(),
    }
}
use tangent::{Project, TrackCurve};

/// A channel of the file: `NODE.PATH`, its Written keys.
fn channels(bytes: &[u8]) -> Vec<(String, Written)> {
    let g = gltf::Gltf::from_slice(bytes).unwrap();
    let blob = g.blob.clone().unwrap();
    let mut out = Vec::new();
    for anim in g.document.animations() {
        for ch in anim.channels() {
            let reader = ch.reader(|_| Some(&blob[..]));
            let times: Vec<f64> = reader.read_inputs().unwrap().map(f64::from).collect();
            let (values, width, rotation): (Vec<f64>, usize, bool) = match reader.read_outputs().unwrap() {
                gltf::animation::util::ReadOutputs::Translations(it) | gltf::animation::util::ReadOutputs::Scales(it) => {
                    (it.flat_map(|v| v.map(f64::from)).collect(), 3, false)
                }
                gltf::animation::util::ReadOutputs::Rotations(it) => (it.into_f32().flat_map(|v| v.map(f64::from)).collect(), 4, true),
                gltf::animation::util::ReadOutputs::MorphTargetWeights(it) => {
                    let v: Vec<f64> = it.into_f32().map(f64::from).collect();
                    (v, 0, false)
                }
            };
            let form = match ch.sampler().interpolation() {
                gltf::animation::Interpolation::Step => Form::Step,
                gltf::animation::Interpolation::Linear => Form::Linear,
                gltf::animation::Interpolation::CubicSpline => Form::CubicSpline,
            };
            let per_key = if form == Form::CubicSpline { 3 } else { 1 };
            let width = if width == 0 { values.len() / (times.len() * per_key) } else { width };
            let suffix = match ch.target().property() {
                gltf::animation::Property::Translation => "translation",
                gltf::animation::Property::Rotation => "rotation",
                gltf::animation::Property::Scale => "scale",
                gltf::animation::Property::MorphTargetWeights => "weights",
            };
            let node = format!("{}.{suffix}", ch.target().node().name().unwrap_or_default());
            out.push((node, Written { form, rotation, width, times, values, tangents: None }));
        }
    }
    out
}

fn mover() -> Project {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/import-samples/bezier_mover.glb");
    tangent::open::open_any(&path).unwrap().project().clone()
}

/// The track a channel came from: an imported one's name is the channel's `NODE.PATH`, a
/// project's track names its node.
fn track_of<'a>(project: &'a Project, channel: &str) -> &'a tangent::Track {
    let node = channel.rsplit_once('.').unwrap().0;
    project.track(channel).or_else(|| project.track(node)).unwrap_or_else(|| panic!("no track for {channel}"))
}

/// The float32 slack of a channel: its values' and times' rounding, through the curve's slope.
fn slack(w: &Written) -> f64 {
    let largest = w.values.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    let end = w.times.iter().fold(1.0f64, |m, t| m.max(t.abs()));
    4e-6 * largest * end
}

fn run(project: &Project, runtime: Runtime, bound: f64) -> (Vec<(String, Written)>, Vec<TrackReport>) {
    let options = ExportOptions { adaptive: Some(Bound::new(bound).unwrap()), runtime, ..ExportOptions::new(Fps::new(project.fps).unwrap()) };
    let (bytes, report) = export(project, Format::Glb, &options, &|_, _| true).unwrap();
    (channels(&bytes), report)
}

/// Every channel as `runtime` plays it, measured against its track: (channels, worst ratio to the
/// bound).
fn measure(project: &Project, chans: &[(String, Written)], runtime: Runtime, bound: f64) -> (usize, f64) {
    let mut worst: f64 = 0.0;
    for (node, w) in chans {
        let track = track_of(project, node);
        if (track.kind.dim() != w.width && !w.rotation) || w.form == Form::Step {
            // A merged weights channel; a Step channel's jumps move with float32 times (every
            // runtime holds STEP keys as written: tests/runtime_blender_reference.rs).
            continue;
        }
        let curve = TrackCurve::new(track).unwrap();
        let played = played(runtime, w);
        if runtime == Runtime::Blender {
            // 4.2+ merges no key of a file made for it, at any of the usual rates.
            for fps in [24.0, 30.0, 60.0] {
                let keys = blender::play(blender::Version::V4_2, w, fps).unwrap().curve().times().len();
                assert_eq!(keys, w.times.len(), "{node}: keys merged at {fps} fps");
            }
        }
        let d = deviation(&curve, &played);
        let allowed = bound + if w.rotation { 1e-6 } else { slack(w) };
        assert!(d <= allowed, "{node} ({:?}, {} keys) in {runtime}: {d:e} beyond {allowed:e}", w.form, w.times.len());
        worst = worst.max(d / bound);
    }
    (chans.len(), worst)
}

/// Both Blenders at 1e-3 and 1e-4. The CUBICSPLINE channels for each Blender's handles: 4.2+'s
/// end keys are flattened and its keys kept 0.0102 frames apart, so where a track's ends are
/// steep or it has a corner that needs closer keys it goes as linear keys (`runtime::tests`):
/// every track at 1e-4, `Mover.translation`'s corner at 1.29 s (a slope jump of 21/s) at 1e-3.
#[test]
fn blender_plays_a_blender_export_within_the_bound() {
    let mut checked = 0;
    for runtime in [Runtime::Blender, Runtime::Blender34] {
        for (name, project, bounds) in [("demo", tangent::io::demo_project(), &[1e-3, 1e-4][..]), ("bezier_mover", mover(), &[1e-3][..])] {
            for &bound in bounds {
                let (chans, report) = run(&project, runtime, bound);
                assert!(report.iter().all(|r| r.runtime == runtime && r.warning.is_none()), "{report:#?}");
                let cubic = chans.iter().filter(|(_, w)| w.form == Form::CubicSpline).count();
                let (n, worst) = measure(&project, &chans, runtime, bound);
                println!("{runtime} {name} at {bound:e}: {n} channels ({cubic} CUBICSPLINE for Blender's handles), worst {worst:.3} of the bound");
                match (runtime, name, bound) {
                    (Runtime::Blender, "demo", 1e-3) => assert_eq!(cubic, 5, "{runtime} {name} at {bound:e}"),
                    (Runtime::Blender, "demo", _) => assert_eq!(cubic, 0, "{runtime} {name} at {bound:e}"),
                    (Runtime::Blender, _, _) => assert_eq!(cubic, 1, "{runtime} {name} at {bound:e}"),
                    _ => assert!(cubic >= 2, "{runtime} {name} at {bound:e}: Blender keys for the smooth tracks"),
                }
                // The tangents written are Blender's handles: the specification plays the same curve.
                measure(&project, &chans, Runtime::Spec, bound);
                checked += n;
            }
        }
    }
    assert_eq!(checked, 2 * (8 + 8 + 3));
}

#[test]
fn the_default_export_warns_where_blender_would_stray() {
    for (name, project) in [("demo", tangent::io::demo_project()), ("bezier_mover", mover())] {
        let (chans, report) = run(&project, Runtime::Spec, 1e-4);
        measure(&project, &chans, Runtime::Spec, 1e-4);
        let mut warned = 0;
        for (node, w) in chans.iter().filter(|(_, w)| w.form == Form::CubicSpline) {
            let track = track_of(&project, node);
            let r = report.iter().find(|r| r.name == track.name).unwrap();
            let d = deviation(&TrackCurve::new(track).unwrap(), &played(Runtime::Blender, w));
            if d <= 1e-4 {
                // Blender's handles happen to match.
                assert!(r.warning.is_none(), "{name} {}: {:?}", r.name, r.warning);
                continue;
            }
            let warning = r.warning.as_deref().unwrap_or_else(|| panic!("{name} {}: Blender plays it {d:e} off, no warning", r.name));
            assert!(warning.contains("Blender 4.2+ plays it up to"), "{warning}");
            warned += 1;
        }
        assert!(warned >= 2, "{name}: {warned}");
        assert!(report.iter().filter(|r| r.form != Form::CubicSpline).all(|r| r.warning.is_none()));
    }
}

/// three.js JSON's forms (InterpolateBezier with its control points, Smooth, linear,
/// discrete) played by the three.js model: exact tracks of the demo to rounding, the others
/// within the error their report gives, which is the largest *component* difference
/// (`convert::to_bezier`), where the runtime's deviation is Euclidean over the components: at
/// most √dim times the report (the eased `camera`, converted within 1e-6: 9.5e-7 per
/// component, 1.11e-6 Euclidean, both confirmed by sampling 400,001 times). The same export
/// is refused for Blender and Godot, which read glTF. A baked track's report is the bake's
/// sampled error, which may sit just below the exact peak.
#[test]
fn the_three_model_plays_a_json_export_as_reported() {
    let project = tangent::io::demo_project();
    let options = ExportOptions::new(Fps::new(project.fps).unwrap());
    let (_, report) = export(&project, Format::ThreeJson, &options, &|_, _| true).unwrap();
    let played = tangent::export::preview(&project, Format::ThreeJson, &options, Runtime::Three, &|_, _| true).unwrap();
    assert_eq!(played.len(), report.len());
    let forms: Vec<Form> = report.iter().map(|r| r.form).collect();
    assert!(forms.contains(&Form::Bezier) && forms.contains(&Form::Linear), "{forms:?}");
    for (p, r) in played.iter().zip(&report) {
        assert_eq!(project.tracks[p.track].name, r.name);
        println!("{}: {} played {:e}, reported {:e}", r.name, r.form, p.deviation, r.max_error);
        // A baked track's error is the bake's own, sampled: on `bounce` (corners) 3.3e-5 of it
        // below the exact peak.
        let (dim, sampled) = (project.tracks[p.track].kind.dim() as f64, if r.form == Form::Baked { 1e-4 } else { 1e-9 });
        assert!(
            p.deviation <= r.max_error * dim.sqrt() * (1.0 + sampled) + 1e-12,
            "{}: {:?} played {:e}, reported {:e}",
            r.name,
            r.form,
            p.deviation,
            r.max_error
        );
    }
    assert!(tangent::export::preview(&project, Format::ThreeJson, &options, Runtime::Blender, &|_, _| true).is_err());
    assert!(tangent::export::preview(&project, Format::ThreeJson, &options, Runtime::Blender34, &|_, _| true).is_err());
    assert!(tangent::export::preview(&project, Format::ThreeJson, &options, Runtime::Godot, &|_, _| true).is_err());
}
