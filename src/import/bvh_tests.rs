//! BVH import: every channel of every frame against the file itself (rotations as matrices
//! built from the file's channel list), the order of all six channel lists, layouts, and the
//! errors of broken files.

use super::super::{import_bytes, ImportError, ImportFormat, ImportOptions};
use crate::euler::{self, EulerOrder, Matrix};
use crate::model::{Project, TrackKind};

fn import(text: &str) -> Result<Project, ImportError> {
    import_bytes(text.as_bytes(), ImportFormat::Bvh, "take.bvh", None, &ImportOptions::default()).map(|i| i.project)
}

/// `R_A(a)·R_B(b)·R_C(c)` for rotation channels listed `A B C` (degrees): BVH's meaning,
/// built here from the list without Tangent's order.
fn listed_matrix(listed: &[(usize, f64)]) -> Matrix {
    listed.iter().fold([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], |m, &(axis, deg)| euler::mat_mul(&m, &euler::axis_matrix(axis, deg.to_radians())))
}

/// Blender 3.4's export in `rotate_mode='XZY'` (6 channels a joint, rotations listed
/// `Xrotation Zrotation Yrotation`): each joint's translation is its position channels, its
/// rotation the matrix of the listed channels (1e-12), at every one of the 90 frames, keys at
/// `frame × 0.033333`; the skeleton's parents, offsets and end site are the file's.
#[test]
fn blenders_export_every_channel_of_every_frame() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/import-samples/bvh/sample_xzy.bvh")).unwrap();
    let project = import(&text).unwrap();
    let skeleton = project.skeleton.as_ref().unwrap();
    let names: Vec<&str> = skeleton.joints.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["Hips", "Spine", "Neck", "Head"]);
    assert_eq!(skeleton.joints.iter().map(|j| j.parent).collect::<Vec<_>>(), [None, Some(0), Some(1), Some(2)]);
    assert_eq!((skeleton.joints[2].offset, skeleton.joints[3].end_site), ([0.0, 0.05, 0.3], Some([0.1, 0.0, 0.3])));
    assert_eq!(project.fps, 30.0);
    let rows: Vec<Vec<f64>> =
        text.lines().skip_while(|l| !l.starts_with("Frame Time")).skip(1).map(|l| l.split_whitespace().map(|w| w.parse().unwrap()).collect()).collect();
    assert_eq!(rows.len(), 90);
    let mut checked = 0;
    for (j, name) in names.iter().enumerate() {
        let t = project.track(&format!("{name}.translation")).unwrap();
        let r = project.track(&format!("{name}.rotation")).unwrap();
        assert_eq!((t.kind, r.kind, r.order), (TrackKind::Vec3, TrackKind::Euler, EulerOrder::YZX));
        for (f, row) in rows.iter().enumerate() {
            let base = j * 6;
            assert_eq!(t.keys.time(f), f as f64 * 0.033333);
            assert_eq!(t.keys[f].value, row[base..base + 3].to_vec());
            let want = listed_matrix(&[(0, row[base + 3]), (2, row[base + 4]), (1, row[base + 5])]);
            let got = euler::to_matrix(&[r.keys.value(f)[0], r.keys.value(f)[1], r.keys.value(f)[2]], r.order);
            assert!(euler::mat_distance(&want, &got) < 1e-12, "{name} frame {f}");
            checked += 1;
        }
    }
    assert_eq!(checked, 4 * 90);
}

/// A CMU-style file (three rotation channels a joint, no positions but the root's), written
/// with each of the six rotation lists: the order is the list reversed, and the matrix is the
/// listed product, by hand for `Zrotation Xrotation Yrotation` → `YXZ`.
#[test]
fn every_channel_order() {
    let lists = [
        ("Zrotation Xrotation Yrotation", EulerOrder::YXZ),
        ("Zrotation Yrotation Xrotation", EulerOrder::XYZ),
        ("Xrotation Yrotation Zrotation", EulerOrder::ZYX),
        ("Xrotation Zrotation Yrotation", EulerOrder::YZX),
        ("Yrotation Xrotation Zrotation", EulerOrder::ZXY),
        ("Yrotation Zrotation Xrotation", EulerOrder::XZY),
    ];
    for (list, order) in lists {
        let text = format!(
            "HIERARCHY\nROOT hip\n{{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition Zposition {list}\n  JOINT abdomen\n  {{\n    OFFSET 0 20 0\n    CHANNELS 3 {list}\n    End Site\n    {{\n      OFFSET 0 10 0\n    }}\n  }}\n}}\nMOTION\nFrames: 2\nFrame Time: 0.0083333\n1 2 3 10 20 30 40 50 60\n4 5 6 -170 95 181 0 0 0\n"
        );
        let project = import(&text).unwrap();
        let r = project.track("abdomen.rotation").unwrap();
        assert_eq!(r.order, order, "{list}");
        let axis = |c: char| "XYZ".find(c).unwrap();
        let listed: Vec<usize> = list.split(' ').map(|w| axis(w.chars().next().unwrap())).collect();
        for (f, values) in [[40.0, 50.0, 60.0], [0.0, 0.0, 0.0]].iter().enumerate() {
            let want = listed_matrix(&[(listed[0], values[0]), (listed[1], values[1]), (listed[2], values[2])]);
            let v = &r.keys[f].value;
            assert!(euler::mat_distance(&want, &euler::to_matrix(&[v[0], v[1], v[2]], order)) < 1e-12, "{list}");
        }
        let hip = project.track("hip.rotation").unwrap();
        let v = &hip.keys[1].value;
        let want = listed_matrix(&[(listed[0], -170.0), (listed[1], 95.0), (listed[2], 181.0)]);
        assert!(euler::mat_distance(&want, &euler::to_matrix(&[v[0], v[1], v[2]], order)) < 1e-12, "{list}");
        assert!(project.track("abdomen.translation").is_none());
        assert_eq!(project.track("hip.translation").unwrap().keys[1].value, vec![4.0, 5.0, 6.0]);
        assert_eq!(project.fps, 120.0);
    }
    // By hand: listed Z X Y with 90° each about Z only: the X axis goes to Y.
    let m = listed_matrix(&[(2, 90.0), (0, 0.0), (1, 0.0)]);
    assert!((m[1][0] - 1.0).abs() < 1e-15);
}

/// Tabs, CRLF, extra blank lines and a name with a space read as the plain layout.
#[test]
fn layouts() {
    let plain = "HIERARCHY\nROOT Hips\n{\nOFFSET 1 2 3\nCHANNELS 3 Zrotation Xrotation Yrotation\n}\nMOTION\nFrames: 1\nFrame Time: 0.04\n10 20 30\n";
    let odd = "HIERARCHY\r\n\tROOT   Hips\r\n\t{\r\n\t\tOFFSET\t1 2  3\r\n\t\tCHANNELS 3\tZrotation Xrotation Yrotation\r\n\t}\r\nMOTION\r\nFrames:\t1\r\nFrame Time:  0.04\r\n\r\n  10\t20 30  \r\n\r\n";
    let (a, b) = (import(plain).unwrap(), import(odd).unwrap());
    assert_eq!(a.tracks, b.tracks);
    assert_eq!(a.skeleton, b.skeleton);
    assert_eq!(a.fps, 25.0);
    let named = import(&plain.replace("ROOT Hips", "ROOT Left Hip")).unwrap();
    assert_eq!(named.tracks[0].name, "Left Hip.rotation");
}

/// Broken files: each error names the line and column and what was expected.
#[test]
fn broken_files_say_where_and_what() {
    let good = "HIERARCHY\nROOT Hips\n{\nOFFSET 1 2 3\nCHANNELS 3 Zrotation Xrotation Yrotation\n}\nMOTION\nFrames: 2\nFrame Time: 0.04\n10 20 30\n4 5 6\n";
    let err = |text: &str| match import(text) {
        Err(ImportError::Syntax { line, column, message, .. }) => (line, column, message),
        other => panic!("{other:?}"),
    };
    let (line, _, message) = err(&good[..good.find("CHANNELS").unwrap()]);
    assert_eq!((line, message.as_str()), (5, "the file ends where `CHANNELS` was expected"));
    assert_eq!(err(&good.replace("OFFSET 1 2 3", "OFFSET 1 two 3")), (4, 10, "expected the OFFSET's y, found `two`".to_owned()));
    assert_eq!(err(&good.replace("Zrotation Xrotation", "Zrotation Wrotation")).0, 5);
    assert_eq!(err(&good.replace("4 5 6\n", "4 5\n")), (11, 3, "a frame has 3 channel values, this line 2".to_owned()));
    assert_eq!(err(&good.replace("4 5 6\n", "4 5 6 7\n")), (11, 7, "more than the 3 channel values a frame has".to_owned()));
    assert_eq!(err(&good.replace("10 20 30", "10 nan 30")), (10, 4, "expected a number (channel 2 of 3), found `nan`".to_owned()));
    assert!(err(&good.replace("Frames: 2", "Frames: 3")).2.contains("ends after 2 frames"));
    assert!(err(&good.replace("Frames: 2", "Frames: 1")).2.contains("more frames than"));
    assert!(err(&good.replace("Frame Time: 0.04", "Frame Time: 0")).2.contains("a positive number"));
    assert!(err(&good.replace("}\nMOTION", "MOTION")).2.contains("before joint \"Hips\" was closed"));
    assert!(err(&good.replace("ROOT Hips", "JOINT Hips")).2.contains("expected `ROOT`"));
    assert!(matches!(import(&good.replace("Frames: 2", "Frames: 0").replace("10 20 30\n4 5 6\n", "")), Err(ImportError::Empty { .. })));
}
