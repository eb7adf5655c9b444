//! How tracks are listed, in the track list and the dope sheet alike: a project with a
//! skeleton as the body's tree (each joint a row nested under its parent, holding its whole
//! branch), other tracks grouped by the name before their last `.` or `/` (`bone7` of
//! `bone7.translation`, as imports name them). Plain data: which rows, not how they are drawn.

use crate::Track;

/// A line of the track list or the dope sheet.
#[derive(Clone, Debug, PartialEq)]
pub enum Row {
    /// Tracks sharing `prefix` (or a joint's branch: its tracks and every joint's below it),
    /// whether they are listed below it, and how deep it is nested.
    Group { prefix: String, members: Vec<usize>, open: bool, depth: usize },
    /// A track, indented by its depth (1 in a group).
    Track { index: usize, depth: usize },
}

/// The rows of a project with a skeleton: the listed tracks of each joint under the joint's
/// row, nested by parent, each joint's row holding its whole branch (shown when
/// `open(joint)`); then the listed tracks of no joint as [`rows`] lists them.
pub fn body_rows(tracks: &[Track], listed: &[usize], skeleton: &crate::model::Skeleton, open: impl Fn(&str) -> bool) -> Vec<Row> {
    let joints = &skeleton.joints;
    let mut own: Vec<Vec<usize>> = vec![Vec::new(); joints.len()];
    let mut others = Vec::new();
    for &i in listed {
        match prefix(&tracks[i].name).and_then(|p| skeleton.joint(p)) {
            Some(j) => own[j].push(i),
            None => others.push(i),
        }
    }
    let children: Vec<Vec<usize>> = (0..joints.len()).map(|j| skeleton.children(j).collect()).collect();
    // Each joint's branch, children before parents (parents come first in the list).
    let mut branch: Vec<Vec<usize>> = own.clone();
    for j in (0..joints.len()).rev() {
        let below: Vec<usize> = children[j].iter().flat_map(|&c| branch[c].clone()).collect();
        branch[j].extend(below);
    }
    let mut out = Vec::new();
    let mut stack: Vec<(usize, usize)> = (0..joints.len()).rev().filter(|&j| joints[j].parent.is_none()).map(|j| (j, 0)).collect();
    while let Some((j, depth)) = stack.pop() {
        if branch[j].is_empty() {
            continue;
        }
        let is_open = open(&joints[j].name);
        out.push(Row::Group { prefix: joints[j].name.clone(), members: branch[j].clone(), open: is_open, depth });
        if is_open {
            out.extend(own[j].iter().map(|&index| Row::Track { index, depth: depth + 1 }));
            stack.extend(children[j].iter().rev().map(|&c| (c, depth + 1)));
        }
    }
    out.extend(rows(tracks, &others, open));
    out
}

/// What a track is grouped under: its name up to the last `.` or `/`, if that is not empty.
pub fn prefix(name: &str) -> Option<&str> {
    name.rfind(['.', '/']).map(|i| &name[..i]).filter(|p| !p.is_empty())
}

/// The rows for the `listed` tracks, in their order: a track whose prefix it shares with
/// another listed track comes under that prefix's group row (at the first member's place),
/// shown when `open(prefix)`; the others stand alone.
pub fn rows(tracks: &[Track], listed: &[usize], open: impl Fn(&str) -> bool) -> Vec<Row> {
    let mut members: std::collections::HashMap<&str, Vec<usize>> = std::collections::HashMap::new();
    for &i in listed {
        if let Some(p) = prefix(&tracks[i].name) {
            members.entry(p).or_default().push(i);
        }
    }
    let mut out = Vec::with_capacity(listed.len());
    for &i in listed {
        match prefix(&tracks[i].name).and_then(|p| members.get_key_value(p)) {
            Some((p, m)) if m.len() > 1 => {
                if m[0] == i {
                    let is_open = open(p);
                    out.push(Row::Group { prefix: (*p).to_owned(), members: m.clone(), open: is_open, depth: 0 });
                    if is_open {
                        out.extend(m.iter().map(|&index| Row::Track { index, depth: 1 }));
                    }
                }
            }
            _ => out.push(Row::Track { index: i, depth: 0 }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Interpolation, TrackKind};

    fn named(names: &[&str]) -> Vec<Track> {
        names.iter().map(|n| Track::new(*n, TrackKind::Scalar, Interpolation::Linear)).collect()
    }

    #[test]
    fn prefixes_are_what_imports_put_before_the_channel() {
        assert_eq!(prefix("bone7.translation"), Some("bone7"));
        assert_eq!(prefix("Walk/Hips.rotation"), Some("Walk/Hips"));
        assert_eq!(prefix("Walk/Hips"), Some("Walk"));
        assert_eq!(prefix("height"), None);
        assert_eq!(prefix(".hidden"), None);
    }

    /// Hand-checked: a.x, b, a.y, c.z, a.z → group "a" (0, 2, 4) at a.x's place, then b, then
    /// c.z alone (its prefix is not shared).
    #[test]
    fn shared_prefixes_make_one_group_at_the_first_members_place() {
        let tracks = named(&["a.x", "b", "a.y", "c.z", "a.z"]);
        let listed = [0, 1, 2, 3, 4];
        let open = rows(&tracks, &listed, |_| true);
        let group = Row::Group { prefix: "a".into(), members: vec![0, 2, 4], open: true, depth: 0 };
        let t = |index, depth| Row::Track { index, depth };
        assert_eq!(open, vec![group, t(0, 1), t(2, 1), t(4, 1), t(1, 0), t(3, 0)]);
        let closed = rows(&tracks, &listed, |_| false);
        assert_eq!(closed, vec![Row::Group { prefix: "a".into(), members: vec![0, 2, 4], open: false, depth: 0 }, t(1, 0), t(3, 0)]);
        // Filtered down to one member, a prefix is no longer shared.
        assert_eq!(rows(&tracks, &[2, 3], |_| false), vec![t(2, 0), t(3, 0)]);
    }

    /// Hand-checked: Hips (tracks 0, 1) with children Leg (2) and Spine (3), Spine's child Head
    /// (4), and "extra" (5) of no joint. Open: Hips' branch holds all five joint tracks, then
    /// Hips' own tracks, Leg, Spine (its branch: 3 and 4), Head; "extra" last. Hips closed:
    /// its one row, then "extra".
    #[test]
    fn a_skeleton_lists_its_tracks_as_the_body_tree() {
        use crate::model::{Joint, Skeleton};
        let tracks = named(&["Hips.translation", "Hips.rotation", "Leg.rotation", "Spine.rotation", "Head.rotation", "extra"]);
        let skeleton = Skeleton {
            joints: vec![
                Joint::new("Hips", None, [0.0; 3], None),
                Joint::new("Leg", Some(0), [0.0; 3], None),
                Joint::new("Spine", Some(0), [0.0; 3], None),
                Joint::new("Head", Some(2), [0.0; 3], None),
            ],
        };
        let all = [0, 1, 2, 3, 4, 5];
        let g = |prefix: &str, members: Vec<usize>, open, depth| Row::Group { prefix: prefix.into(), members, open, depth };
        let t = |index, depth| Row::Track { index, depth };
        assert_eq!(
            body_rows(&tracks, &all, &skeleton, |_| true),
            vec![
                g("Hips", vec![0, 1, 2, 3, 4], true, 0),
                t(0, 1),
                t(1, 1),
                g("Leg", vec![2], true, 1),
                t(2, 2),
                g("Spine", vec![3, 4], true, 1),
                t(3, 2),
                g("Head", vec![4], true, 2),
                t(4, 3),
                t(5, 0),
            ]
        );
        assert_eq!(body_rows(&tracks, &all, &skeleton, |p| p != "Hips"), vec![g("Hips", vec![0, 1, 2, 3, 4], false, 0), t(5, 0)]);
        // Filtered to the head: only its branch rows remain (Hips and Spine hold it).
        assert_eq!(
            body_rows(&tracks, &[4], &skeleton, |_| true),
            vec![g("Hips", vec![4], true, 0), g("Spine", vec![4], true, 1), g("Head", vec![4], true, 2), t(4, 3)]
        );
    }
}
