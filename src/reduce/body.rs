//! Key reduction bounded on the body (issue 43): the fewest keys such that no joint or end
//! site of the skeleton moves more than E (file units) from the original at any time,
//! measured by forward kinematics ([`crate::body`]) at every key time and frame.
//!
//! **The budget, shared down the hierarchy.** An error of θ radians in joint `a`'s rotation
//! moves a point below it by at most θ·|p − a|; an error τ in its translation moves everything
//! below it by at most τ. So a point's displacement is at most Σ (θₐ·Lₐ + τₐ) over the joints
//! above it, where Lₐ (the lever) is the farthest any point below `a` gets from `a` over the
//! take. With D the most animated tracks on any chain from a root to a point, each track gets
//! an equal share: θₐ = s·E/(D·Lₐ) and τₐ = s·E/D, so a joint near the root (a long lever)
//! carries a tight bound and a hand a loose one, as ozz-animation and ACL share their error
//! by distance. A rotation track's bound, Quat or Euler, is the angle θ between the original
//! and the reduced rotation ([`Tolerance::angle_deg`]; an Euler track's angles are fitted
//! within a bound that guarantees it, `euler.rs`).
//!
//! The sum is a worst case that real errors rarely reach, so the scale `s` starts at 1 (the
//! bound guaranteed) and is searched upwards: the largest `s` (doubling, then bisecting, a
//! few rounds) whose reduced take measures within E on the body. Tracks reduce in parallel.
//! Then each track in turn, most keys first, tries twice its bound, kept when the body still
//! measures within E and the track needs fewer keys ([`LOOSEN_ROUNDS`] rounds, or until no
//! track gains): the worst chain sets the global scale, and the tracks off it take the slack.

use rayon::prelude::*;

use super::{reduce_track, ReduceError, Reduced, Tolerance};
use crate::body::{Displacement, Pose, Rig};
use crate::model::{Project, TrackKind};
use crate::TrackCurve;

/// How many times the scale is bisected after it stops doubling.
const BISECTIONS: usize = 5;
/// The largest scale tried (a bound of 64× the guaranteed share).
const MAX_SCALE: f64 = 64.0;
/// Rounds of loosening one track at a time.
pub const LOOSEN_ROUNDS: usize = 6;

/// The result of [`reduce_on_body`].
#[derive(Clone, Debug)]
pub struct BodyReduced {
    pub project: Project,
    /// Per reduced track: its index and the outcome (kept tracks say why).
    pub tracks: Vec<(usize, Result<Reduced, ReduceError>)>,
    pub keys_before: usize,
    pub keys_after: usize,
    /// The scale of the budget used (1: the guaranteed share).
    pub scale: f64,
    /// The largest displacement measured on the body.
    pub displacement: Displacement,
}

/// What went wrong.
#[derive(Debug, thiserror::Error)]
pub enum BodyReduceError {
    #[error("the bound must be a positive number of file units, got {0}")]
    Bound(f64),
    #[error(transparent)]
    Body(#[from] crate::body::BodyError),
    #[error("the take does not stay within {bound} file units even at the guaranteed bound: {displacement}")]
    NotWithin { bound: f64, displacement: Displacement },
}

/// Each joint's lever: the farthest any point below it (its end site, its descendants and
/// theirs) gets from it, over every key time and frame of the take.
fn levers(rig: &Rig, project: &Project) -> Result<Vec<f64>, crate::body::BodyError> {
    let curves: Vec<Option<TrackCurve>> = project.tracks.iter().map(|t| TrackCurve::new(t).ok()).collect();
    let refs: Vec<Option<&TrackCurve>> = curves.iter().map(Option::as_ref).collect();
    let mut animated = rig.animate(|i| curves[i].as_ref().ok_or_else(|| format!("track \"{}\" does not compile", project.tracks[i].name)))?;
    let times = crate::body::measure_times(&[(rig, &refs)], project.fps);
    let joints = &rig.skeleton.joints;
    let mut lever = vec![0.0f64; joints.len()];
    let mut pose = Pose::default();
    for &t in &times {
        animated.pose_at(t, &mut pose)?;
        for (i, point) in rig.points().iter().enumerate() {
            let p = pose.points[i];
            // Every joint above the point (and its own joint, for an end site).
            let mut above = if point.end_site { Some(point.joint) } else { joints[point.joint].parent };
            while let Some(a) = above {
                let q = pose.world[a].p;
                let d = ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2) + (p[2] - q[2]).powi(2)).sqrt();
                lever[a] = lever[a].max(d);
                above = joints[a].parent;
            }
        }
    }
    Ok(lever)
}

/// The most animated tracks on any chain from a root down to a joint (its own included).
fn chain_depth(rig: &Rig) -> usize {
    let joints = &rig.skeleton.joints;
    let mut depth = vec![0usize; joints.len()];
    for j in 0..joints.len() {
        depth[j] = joints[j].parent.map_or(0, |p| depth[p]) + rig.tracks[j].iter().count();
    }
    depth.into_iter().max().unwrap_or(0).max(1)
}

/// Reduces every joint track of `project` within a share of `bound` (module docs), the share
/// scaled up as far as the measured body error allows.
///
/// # Errors
/// A bound that is not positive, a project without a body, or a take that cannot stay within
/// the bound (a track the fit cannot hold).
pub fn reduce_on_body(project: &Project, bound: f64, progress: &(dyn Fn(&str) + Sync)) -> Result<BodyReduced, BodyReduceError> {
    if !(bound > 0.0 && bound.is_finite()) {
        return Err(BodyReduceError::Bound(bound));
    }
    let rig = Rig::new(project)?;
    let lever = levers(&rig, project)?;
    let share = bound / chain_depth(&rig) as f64;
    // Per joint track: (track, joint's lever, kind).
    let tracks: Vec<(usize, f64)> = (0..rig.tracks.len()).flat_map(|j| rig.tracks[j].iter().map(move |t| (t, j))).map(|(t, j)| (t, lever[j])).collect();
    // One track reduced within `scale` times its share.
    let one = |ti: usize, lever: f64, scale: f64| -> Result<Reduced, ReduceError> {
        let track = &project.tracks[ti];
        let s = scale * share;
        // A rotation's share: θ = s / L radians (no lever: nothing below moves).
        let theta = if lever > 0.0 { s / lever } else { 1.0 };
        let tol = match track.kind {
            // Rotations (Quat and Euler alike) within the angle θ, measured between rotations.
            TrackKind::Euler | TrackKind::Quat => Tolerance::new(1.0, theta.to_degrees().min(90.0)),
            _ => Tolerance::new(s, 90.0),
        };
        tol.and_then(|tol| reduce_track(track, tol))
    };
    let attempt = |scale: f64| -> Result<(Project, Vec<(usize, Result<Reduced, ReduceError>)>, Displacement), BodyReduceError> {
        let reduced: Vec<(usize, Result<Reduced, ReduceError>)> = tracks.par_iter().map(|&(ti, lever)| (ti, one(ti, lever, scale))).collect();
        let mut out = project.clone();
        for (ti, r) in &reduced {
            if let Ok(r) = r {
                if r.kept.is_none() {
                    out.tracks[*ti] = r.track.clone();
                }
            }
        }
        let d = crate::body::project_difference(project, &out)?.ok_or(crate::body::BodyError::NoSkeleton)?;
        Ok((out, reduced, d))
    };
    let keys = |p: &Project| tracks.iter().map(|&(t, _)| p.tracks[t].keys.len()).sum::<usize>();
    progress("reducing at the guaranteed share");
    let (mut best, mut best_scale) = (attempt(1.0)?, 1.0);
    if best.2.distance > bound {
        return Err(BodyReduceError::NotWithin { bound, displacement: best.2 });
    }
    // Doubling while it holds, then bisecting between the last that held and the first that
    // did not.
    let mut fail = None;
    let mut scale = 2.0;
    while scale <= MAX_SCALE {
        progress(&format!("trying {scale}x the share"));
        let a = attempt(scale)?;
        if a.2.distance <= bound {
            if keys(&a.0) <= keys(&best.0) {
                (best, best_scale) = (a, scale);
            }
            scale *= 2.0;
        } else {
            fail = Some(scale);
            break;
        }
    }
    if let Some(mut hi) = fail {
        let mut lo = best_scale;
        for _ in 0..BISECTIONS {
            let mid = (lo + hi) / 2.0;
            progress(&format!("trying {mid:.3}x the share"));
            let a = attempt(mid)?;
            if a.2.distance <= bound {
                lo = mid;
                if keys(&a.0) <= keys(&best.0) {
                    (best, best_scale) = (a, mid);
                }
            } else {
                hi = mid;
            }
        }
    }
    let (mut out, mut reduced, mut displacement) = best;
    // Each track loosened in turn while the body holds.
    let mut factor = vec![1.0f64; tracks.len()];
    let track_keys = |p: &Project, k: usize| p.tracks[tracks[k].0].keys.len();
    for round in 0..LOOSEN_ROUNDS {
        progress(&format!("loosening tracks one by one, round {}", round + 1));
        let mut order: Vec<usize> = (0..tracks.len()).collect();
        order.sort_by_key(|&k| std::cmp::Reverse(track_keys(&out, k)));
        let mut gained = false;
        for k in order {
            let (ti, lever) = tracks[k];
            let Ok(r) = one(ti, lever, best_scale * factor[k] * 2.0) else { continue };
            if r.kept.is_some() || r.keys_after >= track_keys(&out, k) {
                continue;
            }
            let mut trial = out.clone();
            trial.tracks[ti] = r.track.clone();
            let d = crate::body::project_difference(project, &trial)?.ok_or(crate::body::BodyError::NoSkeleton)?;
            if d.distance <= bound {
                out = trial;
                displacement = d;
                factor[k] *= 2.0;
                if let Some(slot) = reduced.iter_mut().find(|(i, _)| *i == ti) {
                    slot.1 = Ok(r);
                }
                gained = true;
            }
        }
        if !gained {
            break;
        }
    }
    Ok(BodyReduced { keys_before: keys(project), keys_after: keys(&out), project: out, tracks: reduced, scale: best_scale, displacement })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Interpolation, Joint, Key, Skeleton, Track};

    /// A two-joint arm, 1 unit then 2 units long, its shoulder turning with a wobble.
    fn arm() -> Project {
        let skeleton =
            Skeleton { joints: vec![Joint::new("Shoulder", None, [0.0; 3], None), Joint::new("Elbow", Some(0), [1.0, 0.0, 0.0], Some([2.0, 0.0, 0.0]))] };
        let angles = |j: f64| {
            (0..240).map(move |f| {
                let t = f as f64 / 120.0;
                Key::new(t, vec![0.0, 0.0, (j + 1.0) * (t.sin() + 0.01 * (37.0 * t).sin())])
            })
        };
        let track = |name: &str, j: f64| Track::new(name, TrackKind::Euler, Interpolation::Linear).with_keys(angles(j).collect());
        Project { fps: 120.0, tracks: vec![track("Shoulder.rotation", 0.0), track("Elbow.rotation", 1.0)], skeleton: Some(skeleton), ..Project::default() }
    }

    #[test]
    fn levers_and_depth_by_hand() {
        let p = arm();
        let rig = Rig::new(&p).unwrap();
        // The shoulder's farthest point is the end site, at most 3 away (the elbow bends);
        // the elbow's is its end site, 2 away at every time.
        let l = levers(&rig, &p).unwrap();
        assert!(l[0] <= 3.0 + 1e-12 && l[0] > 2.9, "{l:?}");
        assert!((l[1] - 2.0).abs() < 1e-12, "{l:?}");
        assert_eq!(chain_depth(&rig), 2);
    }

    #[test]
    fn the_body_stays_within_the_bound_with_fewer_keys() {
        let p = arm();
        for bound in [1e-2, 1e-3] {
            let r = reduce_on_body(&p, bound, &|_| {}).unwrap();
            assert!(r.displacement.distance <= bound, "{bound}: {}", r.displacement);
            // Measured again from scratch: the same figure.
            let again = crate::body::project_difference(&p, &r.project).unwrap().unwrap();
            assert_eq!(again.distance, r.displacement.distance);
            assert!(r.keys_after < r.keys_before / 4, "{bound}: {} -> {}", r.keys_before, r.keys_after);
        }
        assert!(matches!(reduce_on_body(&p, 0.0, &|_| {}), Err(BodyReduceError::Bound(_))));
        assert!(matches!(reduce_on_body(&Project::default(), 1e-3, &|_| {}), Err(BodyReduceError::Body(_))));
    }
}
