//! The one window frame of every tool ([`ToolWindow<T>`] for any `T: Tool`): it opens with
//! its `Window::Tool` flag and drops its preview when closed; while open it asks the tool what
//! its settings ask, makes the result for that and the document's basis on a worker
//! (`jobs::Job`, or at once for a few keys: [`Tool::INLINE_KEYS`]) whenever either changes —
//! cancelling the job in flight —, sends the result to the graph
//! (`AppCommand::ToolPreview`), shows the spinner, the report (the tool's summary, the body
//! line, the jumps warning, the per-track table) and Apply/Cancel, and closes on Escape.
//! Apply sends what the window shows (`AppCommand::ToolApply`) only while it was made for what
//! is asked and the basis now; the dispatcher checks the basis again before putting it in
//! place. A tool that is not previewed ([`Tool::PREVIEWS`]) lists its targets, starts the work
//! on Apply (with progress and Stop), and sends its result to be applied when it arrives.

use eframe::egui;

use super::basis::Basis;
use super::commands::AppCommand;
use super::jobs::{Job, Worker};
use super::panel::{Panel, PanelContext};
use super::preview_job::Previewed;
use super::style;
use super::tool::{id, make, window, Tool, ToolId, ToolInfo, ToolMade, ToolResult, ToolView};
use super::windows::Window;

/// A tool's window as the app holds it: a panel, and whether its worker is busy.
pub trait ToolPanel: Panel {
    fn id(&self) -> ToolId;
    fn is_busy(&self) -> bool;
}

/// A row of the table of tools (`tools::TOOLS`): the tool's row, and how its window is made.
pub struct ToolRow {
    pub info: &'static ToolInfo,
    pub window: fn() -> Box<dyn ToolPanel>,
}

impl ToolRow {
    /// `T`'s row.
    #[must_use]
    pub const fn of<T: Tool>() -> Self {
        Self { info: T::INFO, window: ToolWindow::<T>::boxed }
    }
}

/// What a result is made for: what the tool asks, and the document's basis.
type Asked<T> = (<T as Tool>::Asked, Basis);

/// The window of tool `T`: its settings, the preview made and the one in flight.
pub struct ToolWindow<T: Tool> {
    settings: T::Settings,
    preview: Previewed<Asked<T>, ToolResult<T>>,
}

impl<T: Tool> Default for ToolWindow<T> {
    fn default() -> Self {
        Self { settings: T::Settings::default(), preview: Previewed::default() }
    }
}

fn spinner(ui: &mut egui::Ui, text: &str) {
    ui.horizontal(|ui| {
        ui.spinner();
        ui.label(text);
    });
}

impl<T: Tool> ToolWindow<T> {
    fn boxed() -> Box<dyn ToolPanel> {
        Box::new(Self::default())
    }

    /// Makes the result for `asked`: at once for a few keys (then `true`: it is there), else on
    /// a worker unless one is already making it.
    fn start(&mut self, cx: &PanelContext<'_>, asked: Asked<T>, ctx: &egui::Context) -> bool {
        if self.preview.is_running(&asked) {
            return false;
        }
        let targets = T::targets(cx.doc);
        let keys: usize = targets.iter().filter_map(|(i, _)| cx.project().tracks.get(*i)).map(|t| t.keys.len()).sum();
        if keys <= T::INLINE_KEYS {
            if let Some(made) = make::<T>(cx.project(), &targets, asked.0, asked.1, &Worker::unattached()) {
                self.preview.set(made);
                return true;
            }
            return false;
        }
        // The document's project shared, not copied (a copy of a mocap take is 150 ms).
        let project = cx.doc.document.shared_project();
        let (what, basis) = asked.clone();
        let job = Job::spawn(T::INFO.name, Some(ctx), move |w| make::<T>(&project, &targets, what, basis, w));
        self.preview.run(asked, job.made_for(basis));
        false
    }

    /// The previewed tool's part under the controls: the preview kept current, the report,
    /// Apply and Cancel. Whether a new result is there, and whether the window closes.
    fn previewed(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, asked: Result<Asked<T>, String>, out: &mut Vec<AppCommand>) -> (bool, bool) {
        let mut arrived = false;
        let is = |c: &ToolResult<T>, a: &Asked<T>| c.asked == a.0 && c.made_for == a.1;
        let fresh = match &asked {
            Err(e) => {
                ui.colored_label(ui.visuals().error_fg_color, e);
                arrived |= self.preview.clear();
                None
            }
            Ok(a) => {
                if self.preview.computed.as_ref().is_none_or(|c| !is(c, a)) {
                    arrived |= self.start(cx, a.clone(), ui.ctx());
                }
                self.preview.computed.clone().filter(|c| is(c, a))
            }
        };
        match (&asked, &self.preview.computed) {
            (Err(_), _) => {}
            (Ok(_), None) => spinner(ui, T::TEXT.working),
            (Ok(_), Some(made)) => report(ui, made, fresh.is_some()),
        }
        let can = fresh.as_ref().is_some_and(|c| T::can_apply(c));
        let (apply, closes) = style::apply_or_cancel(ui, T::TEXT.apply, can, T::TEXT.apply_tips);
        if let (true, Some(made)) = (apply, fresh) {
            out.push(AppCommand::ToolApply(made.into()));
        }
        (arrived, closes)
    }

    /// The part of a tool that works on Apply: its targets as they will be, the progress, and
    /// Apply, Stop and Close. Whether the window closes.
    fn on_apply(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, asked: Result<Asked<T>, String>) -> bool {
        let targets = T::targets(cx.doc);
        match &asked {
            Err(e) => _ = ui.colored_label(ui.visuals().error_fg_color, e),
            Ok((a, _)) if !targets.is_empty() => {
                style::track_table(ui, T::INFO.name, |ui| {
                    egui::Grid::new((T::INFO.name, "targets")).num_columns(3).striped(true).show(ui, |ui| {
                        for (i, _) in &targets {
                            let track = &cx.project().tracks[*i];
                            ui.label(&track.name);
                            ui.label(format!("{} keys", track.keys.len()));
                            ui.label(T::planned(track, a));
                            ui.end_row();
                        }
                    });
                });
            }
            Ok(_) => {}
        }
        if let Some((label, (done, total))) = self.preview.progress() {
            spinner(ui, &format!("{label}: {done} of {total} tracks…"));
        }
        let busy = self.preview.is_busy();
        let mut close = false;
        ui.horizontal(|ui| {
            let go = ui.add_enabled(!busy && !targets.is_empty() && asked.is_ok(), egui::Button::new(T::TEXT.apply)).on_hover_text(T::TEXT.apply_tips.0);
            if let (true, Ok(a)) = (go.clicked(), &asked) {
                let project = cx.doc.document.shared_project();
                let (what, basis) = a.clone();
                let job = Job::spawn(T::INFO.name, Some(ui.ctx()), move |w| make::<T>(&project, &targets, what, basis, w));
                self.preview.run(a.clone(), job.made_for(basis));
            }
            if busy && ui.button("Stop").on_hover_text("Stop the work; nothing changes").clicked() {
                self.preview.clear();
            }
            close = ui.button("Close").clicked();
        });
        close
    }
}

impl<T: Tool> Panel for ToolWindow<T> {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        let (id, window) = (id::<T>(), window::<T>());
        if !cx.ui.windows.is_open(window) {
            if self.preview.clear() || cx.ui.previews.has(id) {
                out.push(AppCommand::ToolPreview(id, None));
            }
            return;
        }
        let ctx = ui.ctx().clone();
        let mut arrived = self.preview.poll();
        let mut close = false;
        if arrived && !T::PREVIEWS {
            // Made on Apply: put in place, and the window closes.
            if let Some(made) = self.preview.computed.take() {
                out.push(AppCommand::ToolApply(made.into()));
            }
            (arrived, close) = (false, true);
        }
        // Escape closes the window, unless a field has the keyboard or a menu or slider
        // (which Escape closes itself) is open.
        let menus = [Window::HandleTypeMenu, Window::InterpolationMenu, Window::EasingMenu];
        let escape_free = !ctx.egui_wants_keyboard_input() && cx.ui.blend.is_none() && !menus.iter().any(|&m| cx.ui.windows.is_open(m));
        close |= escape_free && ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape));
        let view = ToolView { doc: cx.doc, playhead: cx.playhead() };
        let busy = !T::PREVIEWS && self.preview.is_busy();
        let open = style::tool_window(ui, T::INFO.name, cx.view.dock_tools, |ui| {
            ui.add_enabled_ui(!busy, |ui| T::controls(ui, &mut self.settings, &view));
            let asked = T::asked(&self.settings, &view).map(|a| (a, cx.doc.basis()));
            if T::PREVIEWS {
                let (new, closes) = self.previewed(ui, cx, asked, out);
                arrived |= new;
                close |= closes;
            } else {
                close |= self.on_apply(ui, cx, asked);
            }
        });
        if arrived {
            out.push(AppCommand::ToolPreview(id, self.preview.computed.clone().map(ToolMade::from)));
        }
        if !open || close {
            self.preview.clear();
            out.push(AppCommand::CloseWindow(window));
        }
    }
}

impl<T: Tool> ToolPanel for ToolWindow<T> {
    fn id(&self) -> ToolId {
        id::<T>()
    }

    fn is_busy(&self) -> bool {
        self.preview.is_busy()
    }
}

/// The report of `made`: the tool's summary, its note, the body line, the jumps warning, and
/// the table of tracks (name, the tool's cells, or why not in red); a spinner while a newer
/// result is being made.
fn report<T: Tool>(ui: &mut egui::Ui, made: &ToolResult<T>, fresh: bool) {
    if made.tracks.is_empty() && made.note.is_none() {
        ui.label(T::TEXT.nothing);
        return;
    }
    T::summary(ui, made);
    if let Some(note) = &made.note {
        ui.label(note);
    }
    style::body_line(ui, &made.body);
    style::jumps_warning(ui, &made.crossed);
    if !made.tracks.is_empty() {
        let columns = T::TEXT.columns;
        style::track_table(ui, T::INFO.name, |ui| {
            egui::Grid::new((T::INFO.name, "report")).num_columns(1 + columns.len()).striped(true).show(ui, |ui| {
                ui.strong("track");
                for c in columns {
                    ui.strong(*c);
                }
                ui.end_row();
                for t in &made.tracks {
                    ui.label(&t.name);
                    match &t.result {
                        Ok(m) => T::row(ui, &m.report),
                        Err(e) => {
                            for _ in 1..columns.len() {
                                ui.label("");
                            }
                            ui.colored_label(ui.visuals().error_fg_color, e);
                        }
                    }
                    ui.end_row();
                }
            });
        });
    }
    if !fresh {
        spinner(ui, T::TEXT.again);
    }
}
