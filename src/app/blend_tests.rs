//! The blend sliders (Key > Blend to Neighbor, Breakdown, Blend to Ease) and Key > Insert and
//! Remove time, driven through menus, shortcuts, the slider and its buttons as a user drives
//! them (egui_kittest): the keys are the engine's blend of the original keys at the slider's
//! factor whenever its worker's result has landed, made off the UI thread (a large track too),
//! a whole slider session is one undo step, Cancel leaves none.

use std::collections::BTreeSet;

use eframe::egui::accesskit::Role;
use eframe::egui::{Key as K, Modifiers};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

use super::key_change::KeyRef;
use super::test_steps::{blend_settled, menu, step_until};
use super::tests::{app, harness};
use super::TangentApp;
use crate::blend::{blend_keys, BlendError, BlendTool};
use crate::{Interpolation, Key, Project, Track, TrackKind};

fn scalar(name: &str, values: &[f64]) -> Track {
    let keys = values.iter().enumerate().map(|(i, &v)| Key::new(i as f64 * 0.5, vec![v])).collect();
    Track::new(name, TrackKind::Scalar, Interpolation::Bezier).with_keys(keys)
}

fn two_tracks() -> Vec<Track> {
    vec![scalar("a", &[0.0, 1.0, 5.0, 2.0, 3.0]), scalar("b", &[4.0, -1.0, 2.0, 6.0, 0.5])]
}

fn with_selection(tracks: Vec<Track>, keys: &[(usize, usize)]) -> Harness<'static, TangentApp> {
    let mut h = harness(Project { tracks, ..Project::default() });
    h.state_mut().state.doc.selection = keys.iter().map(|&(track, key)| KeyRef { track, key }).collect::<BTreeSet<_>>().into();
    h.run();
    h
}

/// The slider's value set as assistive technology sets it, then frames until the keys made
/// for it on the worker are in place.
fn set_factor(h: &mut Harness<'static, TangentApp>, f: f64) {
    h.get_by_role_and_label(Role::Slider, "blend factor").set_value_accesskit(f);
    let _ = h.try_run();
    blend_settled(h);
    assert_eq!(factor(h), f, "the keys are at the slider's factor");
}

/// Each original track with its selected keys blended by `tool` at the slider's factor.
fn expected(originals: &[Track], keys: &[(usize, usize)], tool: BlendTool, factor: f64) -> Vec<Track> {
    let of = |t: usize| keys.iter().filter(|k| k.0 == t).map(|k| k.1).collect::<Vec<_>>();
    originals.iter().enumerate().map(|(t, track)| blend_keys(track, &of(t), tool, factor).unwrap()).collect()
}

fn factor(h: &Harness<'static, TangentApp>) -> f64 {
    app(h).ui.blend.as_ref().expect("the slider is open").factor
}

/// Key > Blend to Neighbor on one selected key, the slider dragged with the pointer and then
/// set three times: whenever the worker's result has landed the keys are the engine's blend of
/// the original keys at the slider's factor (not of the last position's), nothing is an undo
/// step until OK, Enter keeps them as one step and leaves the ghost, and one Ctrl+Z gives back
/// the original exactly.
#[test]
fn blend_to_neighbor_is_live_from_the_originals_and_one_undo_step() {
    let originals = two_tracks();
    let keys = [(0, 2)];
    let mut h = with_selection(originals.clone(), &keys);
    menu(&mut h, "Key", "Blend to Neighbor");
    assert_eq!(factor(&h), 0.5, "the neutral factor");
    let rail = h.get_by_role_and_label(Role::Slider, "blend factor").rect();
    let at = |x: f32| eframe::egui::pos2(rail.left() + x * rail.width(), rail.center().y);
    h.hover_at(rail.center());
    h.run();
    h.drag_at(rail.center());
    let _ = h.try_run();
    blend_settled(&mut h);
    for x in [0.7, 0.95, 0.2, 0.35] {
        h.hover_at(at(x));
        let _ = h.try_run();
        blend_settled(&mut h);
        let f = factor(&h);
        assert_eq!(app(&h).project().tracks, expected(&originals, &keys, BlendTool::ToNeighbor, f), "at {f}");
        assert!(app(&h).doc.document.in_gesture() && app(&h).doc.document.undo_label().is_none(), "one open gesture");
    }
    h.drop_at(at(0.35));
    let _ = h.try_run();
    blend_settled(&mut h);
    assert!(factor(&h) < 0.5, "dragged toward the key before: {}", factor(&h));
    for f in [0.9, 0.1, 0.75] {
        set_factor(&mut h, f);
        assert_eq!(factor(&h), f);
        assert_eq!(app(&h).project().tracks, expected(&originals, &keys, BlendTool::ToNeighbor, f), "at {f}");
    }
    assert_ne!(app(&h).project().tracks, originals);
    assert_eq!(app(&h).ui.status.text, "Blend to Neighbor 0.750: 1 of 1 key moved on 1 track");
    h.key_press(K::Enter);
    h.run();
    assert!(app(&h).ui.blend.is_none(), "Enter keeps the keys and closes the slider");
    assert_eq!(app(&h).project().tracks, expected(&originals, &keys, BlendTool::ToNeighbor, 0.75));
    assert_eq!(app(&h).doc.document.undo_label(), Some("Blend to Neighbor"));
    let ghost = app(&h).ui.ghost.clone().expect("the original as a ghost");
    assert_eq!((ghost.label.as_str(), ghost.tracks.iter().map(|t| t.0).collect::<Vec<_>>()), ("Blend to Neighbor", vec![0]));
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project().tracks, originals, "one undo restores the original keys exactly");
    assert_eq!(app(&h).doc.document.undo_label(), None, "the slider was one undo step");
}

/// Cancel (the button, or Escape) puts the original keys back and leaves no undo step; the
/// slider opens with Blender's Shift+Alt+D too.
#[test]
fn cancel_and_escape_restore_the_original_without_an_undo_step() {
    let originals = two_tracks();
    let mut h = with_selection(originals.clone(), &[(0, 1), (0, 2)]);
    h.key_press_modifiers(Modifiers::SHIFT | Modifiers::ALT, K::D);
    h.run();
    assert_eq!(app(&h).ui.blend.as_ref().map(|s| s.tool), Some(BlendTool::ToNeighbor), "Shift+Alt+D opens Blend to Neighbor");
    set_factor(&mut h, 0.1);
    set_factor(&mut h, 0.0);
    assert_ne!(app(&h).project().tracks, originals);
    h.get_by_role_and_label(Role::Button, "Cancel").click();
    h.run();
    assert!(app(&h).ui.blend.is_none());
    assert_eq!(app(&h).project().tracks, originals, "Cancel restores the keys");
    assert_eq!(app(&h).doc.document.undo_label(), None, "and leaves no undo step");
    assert_eq!(app(&h).doc.document.redo_label(), None, "nor a step to redo");
    h.key_press_modifiers(Modifiers::COMMAND, K::Y);
    h.run();
    assert_eq!(app(&h).project().tracks, originals, "Redo does nothing");
    assert_eq!(app(&h).ui.status.text, "Nothing to redo");
    assert!(app(&h).ui.ghost.is_none(), "nor a ghost");
    menu(&mut h, "Key", "Blend to Ease");
    set_factor(&mut h, -0.6);
    assert_ne!(app(&h).project().tracks, originals);
    h.key_press(K::Escape);
    h.run();
    assert!(app(&h).ui.blend.is_none());
    assert_eq!(app(&h).project().tracks, originals, "Escape restores the keys");
    assert_eq!((app(&h).doc.document.undo_label(), app(&h).doc.document.redo_label()), (None, None));
}

/// From the first change of the slider the graph draws the originals as the ghost (not only
/// after OK), and the window gives per track the largest difference between the original and
/// the blended curve, measured over the curve (the engine's `smooth::max_difference` of the
/// two compiled curves); Cancel takes the ghost away.
#[test]
fn the_slider_shows_the_ghost_and_the_difference_while_sliding() {
    let originals = two_tracks();
    let keys = [(0, 2), (1, 1)];
    let mut h = with_selection(originals.clone(), &keys);
    menu(&mut h, "Key", "Breakdown");
    assert!(app(&h).ui.shown_ghost().is_none(), "no ghost before the first change");
    set_factor(&mut h, 0.3);
    let ghost = app(&h).ui.shown_ghost().cloned().expect("the originals drawn as a ghost while sliding");
    assert_eq!((ghost.label.as_str(), ghost.tracks.iter().map(|t| t.0).collect::<Vec<_>>()), ("Breakdown", vec![0, 1]));
    assert!(app(&h).ui.ghost.is_none(), "the ghost of the last cleanup is not replaced before OK");
    for f in [0.3, 0.9] {
        set_factor(&mut h, f);
        let blended = expected(&originals, &keys, BlendTool::Breakdown, f);
        for (t, original) in originals.iter().enumerate() {
            let d = crate::smooth::max_difference(&crate::TrackCurve::new(original).unwrap(), &crate::TrackCurve::new(&blended[t]).unwrap());
            assert!(d > 0.1, "{d}");
            assert_eq!(app(&h).ui.blend.as_ref().unwrap().differences[t], (t, d), "at {f}");
            h.get_by_label(&format!("{d:.3e} file units"));
        }
    }
    h.get_by_role_and_label(Role::Button, "Cancel").click();
    h.run();
    assert!(app(&h).ui.shown_ghost().is_none(), "Cancel leaves no ghost");
}

/// Breakdown on keys of two tracks at once (a run of two on the second): both tracks are the
/// engine's breakdown at the factor, OK makes one undo step for both, and one Ctrl+Z restores
/// both.
#[test]
fn breakdown_on_two_tracks_at_once_is_one_undo_step() {
    let originals = two_tracks();
    let keys = [(0, 1), (1, 2), (1, 3)];
    let mut h = with_selection(originals.clone(), &keys);
    menu(&mut h, "Key", "Breakdown");
    for f in [0.25, 0.8] {
        set_factor(&mut h, f);
        assert_eq!(app(&h).project().tracks, expected(&originals, &keys, BlendTool::Breakdown, f), "at {f}");
    }
    assert_eq!(app(&h).ui.status.text, "Breakdown 0.800: 3 of 3 keys moved on 2 tracks");
    h.get_by_role_and_label(Role::Button, "OK").click();
    h.run();
    assert_eq!(app(&h).doc.document.undo_label(), Some("Breakdown"));
    assert_eq!(app(&h).ui.ghost.as_ref().map(|g| g.tracks.len()), Some(2));
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project().tracks, originals, "one undo restores both tracks");
}

/// A large track (20,000 Bézier keys, a run of 2,000 selected): in the frame the slider moves
/// nothing changes — the keys are blended, compiled and measured on a worker, and the window
/// says so — and once the result lands the keys are the engine's blend and the window shows the
/// difference measured over the curve. OK (Enter) pressed while the next factor is still being
/// made keeps the keys once they land, as one undo step; one Ctrl+Z restores the track.
#[test]
fn the_slider_on_a_large_track_works_off_the_ui_thread_as_one_undo_step() {
    let values: Vec<f64> = (0..20_000).map(|i| (f64::from(i) * 0.013).sin() + 0.1 * f64::from(i % 7)).collect();
    let originals = vec![scalar("take", &values)];
    let keys: Vec<(usize, usize)> = (9_000..11_000).map(|k| (0, k)).collect();
    let mut h = with_selection(originals.clone(), &keys);
    menu(&mut h, "Key", "Blend to Neighbor");
    h.get_by_role_and_label(Role::Slider, "blend factor").set_value_accesskit(0.2);
    h.step();
    // (`assert!` rather than `assert_eq!`: a failure would print 20,000 keys twice.)
    assert!(app(&h).project().tracks == originals, "nothing is blended on the UI thread in the frame the slider moved");
    h.get_by_label("blending and measuring…");
    blend_settled(&mut h);
    assert_eq!(factor(&h), 0.2);
    let blended = expected(&originals, &keys, BlendTool::ToNeighbor, 0.2);
    assert!(app(&h).project().tracks == blended, "the worker's keys, in place");
    let d = crate::smooth::max_difference(&crate::TrackCurve::new(&originals[0]).unwrap(), &crate::TrackCurve::new(&blended[0]).unwrap());
    assert!(d > 0.01, "{d}");
    h.get_by_label(&format!("{d:.3e} file units"));
    assert_eq!(app(&h).ui.status.text, "Blend to Neighbor 0.200: 2000 of 2000 keys moved on 1 track");
    h.get_by_role_and_label(Role::Slider, "blend factor").set_value_accesskit(0.9);
    h.step();
    h.key_press(K::Enter);
    step_until(&mut h, |h| app(h).ui.blend.is_none());
    assert!(app(&h).project().tracks == expected(&originals, &keys, BlendTool::ToNeighbor, 0.9), "the keys of the factor asked before OK");
    assert_eq!(app(&h).doc.document.undo_label(), Some("Blend to Neighbor"));
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert!(app(&h).project().tracks == originals, "one undo restores the track");
    assert_eq!(app(&h).doc.document.undo_label(), None, "the slider was one undo step");
}

/// The rule every worker's result is held to: keys the slider's worker made for the document
/// as it no longer is are not put in place. A result made before the selection changed is
/// dropped, the status saying so, and the slider stays open with nothing changed; one made
/// for another slider (session) is dropped too; one made for the document as it is goes in as
/// the slider's open gesture.
#[test]
fn a_stale_blend_result_is_not_applied() {
    use super::commands::BlendCommand;
    use super::document::blend::blend_on_worker;
    use super::finished::Handoff;
    let originals = two_tracks();
    let mut state = super::AppState::new(Project { tracks: originals.clone(), ..Project::default() }, None);
    state.doc.selection = [KeyRef { track: 0, key: 2 }].into_iter().collect::<BTreeSet<_>>().into();
    super::tool_commands::open_blend(&mut state, BlendTool::Breakdown);
    let mut work = state.ui.blend.as_ref().expect("the slider is open").work();
    let made = |state: &super::AppState, work: &super::document::blend::BlendWork| blend_on_worker(work, 0.9, state.doc.basis(), &|| false).unwrap();
    let send = |state: &mut super::AppState, b| super::tool_commands::blend(state, BlendCommand::Blended(Handoff::new(b)));
    let stale = made(&state, &work);
    state.doc.selection.insert(KeyRef { track: 1, key: 0 });
    send(&mut state, stale);
    assert_eq!(state.project().tracks, originals, "made before the selection changed: not put in place");
    assert!(state.ui.status.is_error && state.ui.status.text.contains("not applied"), "{}", state.ui.status.text);
    assert!(state.ui.blend.as_ref().is_some_and(|s| !s.started) && !state.doc.document.in_gesture(), "the slider stays, nothing begun");
    work.session += 1000;
    let other = made(&state, &work);
    send(&mut state, other);
    assert_eq!(state.project().tracks, originals, "made for another slider: not put in place");
    work.session -= 1000;
    let fresh = made(&state, &work);
    send(&mut state, fresh);
    assert_eq!(state.project().tracks, expected(&originals, &[(0, 2)], BlendTool::Breakdown, 0.9));
    assert!(state.doc.document.in_gesture() && state.ui.blend.as_ref().is_some_and(|s| s.started && s.factor == 0.9));
}

/// A quaternion track's keys: the status bar shows the engine's refusal and no slider opens.
#[test]
fn a_quaternion_track_shows_the_engines_error() {
    let quat = Track::new("q", TrackKind::Quat, Interpolation::Slerp).with_keys((0..3).map(|i| Key::new(f64::from(i), vec![0.0, 0.0, 0.0, 1.0])).collect());
    let mut h = with_selection(vec![quat], &[(0, 1)]);
    menu(&mut h, "Key", "Blend to Ease");
    assert!(app(&h).ui.blend.is_none());
    assert_eq!(app(&h).ui.status.text, format!("Blend to Ease: {}", BlendError::Quat("q".into())));
    assert!(app(&h).ui.status.is_error);
}

/// Key > Insert time… of 0.5 s at the playhead with no key selected: every track's keys after
/// the playhead move later, those at or before it stay; one undo step restores them.
#[test]
fn insert_time_moves_only_later_keys_as_one_undo_step() {
    let originals = two_tracks();
    let mut h = with_selection(originals.clone(), &[]);
    h.state_mut().state.scrub(1.0);
    menu(&mut h, "Key", "Insert time");
    h.get_by_label_contains("4 keys move later, on every track (2)");
    h.get_by_role_and_label(Role::Button, "Apply").click();
    h.run();
    for (new, old) in app(&h).project().tracks.iter().zip(&originals) {
        for (n, o) in new.keys.iter().zip(&old.keys) {
            let shift = if o.time > 1.0 { 0.5 } else { 0.0 };
            assert_eq!((n.time, &n.value), (o.time + shift, &o.value), "{}", new.name);
        }
    }
    assert_eq!(app(&h).doc.document.undo_label(), Some("Insert time"));
    assert!(app(&h).ui.status.text.starts_with("Inserted 0.5 s at 1.000 s: 4 keys moved later on 2 tracks (every track)"), "{}", app(&h).ui.status.text);
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project().tracks, originals, "one undo step");
}

/// Key > Remove time… on the selected key's track only: the key inside (playhead, playhead +
/// amount] is deleted, the later one moves earlier, the other track is untouched.
#[test]
fn remove_time_deletes_the_span_on_the_selected_track() {
    let originals = two_tracks();
    let mut h = with_selection(originals.clone(), &[(1, 4)]);
    h.state_mut().state.scrub(1.0);
    menu(&mut h, "Key", "Remove time");
    h.get_by_role_and_label(Role::SpinButton, "time edit amount").set_value_accesskit(0.75);
    h.run();
    h.get_by_role_and_label(Role::Button, "Apply").click();
    h.run();
    let b = &app(&h).project().tracks[1];
    assert_eq!(b.keys.iter().map(|k| (k.time, k.value[0])).collect::<Vec<_>>(), [(0.0, 4.0), (0.5, -1.0), (1.0, 2.0), (1.25, 0.5)]);
    assert_eq!(app(&h).project().tracks[0], originals[0], "the unselected track stays");
    assert_eq!(app(&h).doc.selection.iter().copied().collect::<Vec<_>>(), [KeyRef { track: 1, key: 3 }], "the selection follows its key");
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project().tracks, originals);
}

/// The whole window rendered (wgpu): the Blend to Neighbor slider over the graph, the
/// selected key pulled toward the key after it.
#[test]
fn blend_slider_snapshot() {
    let state = super::AppState::new(Project { tracks: two_tracks(), ..Project::default() }, None);
    let mut h =
        Harness::builder().with_size(eframe::egui::vec2(1300.0, 820.0)).wgpu().build_ui_state(|ui, app: &mut TangentApp| app.ui(ui), TangentApp::new(state));
    h.run();
    h.state_mut().state.doc.selection = [KeyRef { track: 0, key: 2 }].into_iter().collect::<BTreeSet<_>>().into();
    h.run();
    menu(&mut h, "Key", "Blend to Neighbor");
    set_factor(&mut h, 0.8);
    h.run();
    h.snapshot("blend_slider");
}
