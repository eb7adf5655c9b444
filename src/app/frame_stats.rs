//! Frame statistics: per frame, the CPU time of the UI update (Tangent's `ui`, measured
//! here), the whole frame's CPU time as eframe reports it (update, tessellation and painting;
//! known one frame later, so the rest is tessellation and painting), and what caused the
//! frame — the input events it got and the repaint requests (egui's `repaint_causes`: file,
//! line and reason). View > Frame statistics shows the last [`KEPT`] frames; with
//! `TANGENT_FRAME_LOG=FILE` every frame is also written to FILE, one line each:
//! `time_s ui_ms cpu_ms cause` (`cpu_ms` is `-` until eframe reports it, on the next line's
//! frame; tab-separated).

use std::collections::VecDeque;
use std::io::Write;
use std::time::Instant;

use eframe::egui;

/// Frames kept for the window.
pub const KEPT: usize = 120;

/// One frame.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameRecord {
    /// Seconds since the editor started.
    pub at: f64,
    /// The UI update's CPU (wall) time, milliseconds.
    pub ui_ms: f64,
    /// The whole frame's CPU time (eframe's `cpu_usage`), once known.
    pub cpu_ms: Option<f64>,
    /// Input events and repaint requests that made this frame.
    pub cause: String,
}

/// The kept frames, and the log file if one was asked for.
pub struct FrameStats {
    started: Instant,
    frames: VecDeque<FrameRecord>,
    log: Option<(std::path::PathBuf, std::io::BufWriter<std::fs::File>)>,
    /// The frame begun and not yet ended: its start.
    open: Option<Instant>,
    /// The log could not be written (said once in the window).
    pub log_error: Option<String>,
}

impl Default for FrameStats {
    fn default() -> Self {
        Self { started: Instant::now(), frames: VecDeque::with_capacity(KEPT), log: None, open: None, log_error: None }
    }
}

impl std::fmt::Debug for FrameStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FrameStats").field("frames", &self.frames.len()).field("log", &self.log.as_ref().map(|l| &l.0)).finish_non_exhaustive()
    }
}

impl FrameStats {
    /// Statistics that also log to the file `TANGENT_FRAME_LOG` names, if it is set.
    #[must_use]
    pub fn from_env() -> Self {
        let mut stats = Self::default();
        if let Some(path) = std::env::var_os("TANGENT_FRAME_LOG").map(std::path::PathBuf::from) {
            match std::fs::File::create(&path) {
                Ok(f) => stats.log = Some((path, std::io::BufWriter::new(f))),
                Err(e) => stats.log_error = Some(format!("TANGENT_FRAME_LOG: cannot write {}: {e}", path.display())),
            }
        }
        stats
    }

    /// The frames kept, oldest first.
    pub fn frames(&self) -> impl DoubleEndedIterator<Item = &FrameRecord> + ExactSizeIterator {
        self.frames.iter()
    }

    /// The log file's path, if frames are logged.
    pub fn log_path(&self) -> Option<&std::path::Path> {
        self.log.as_ref().map(|l| l.0.as_path())
    }

    /// A frame starts; `previous_cpu` is eframe's CPU time of the frame before (seconds).
    pub fn begin(&mut self, previous_cpu: Option<f32>) {
        if let (Some(last), Some(cpu)) = (self.frames.back_mut(), previous_cpu) {
            last.cpu_ms.get_or_insert(f64::from(cpu) * 1000.0);
        }
        self.write_back();
        self.open = Some(Instant::now());
    }

    /// The frame's UI update is done: record it with its causes.
    pub fn end(&mut self, ctx: &egui::Context) {
        let Some(began) = self.open.take() else { return };
        let ui_ms = began.elapsed().as_secs_f64() * 1000.0;
        let record = FrameRecord { at: began.duration_since(self.started).as_secs_f64(), ui_ms, cpu_ms: None, cause: causes(ctx) };
        if self.frames.len() == KEPT {
            self.frames.pop_front();
        }
        self.frames.push_back(record);
    }

    /// Writes the frame before the last to the log once its CPU time is known (or the last
    /// one, when nothing will follow).
    fn write_back(&mut self) {
        let Some((_, out)) = &mut self.log else { return };
        let Some(last) = self.frames.back() else { return };
        let cpu = last.cpu_ms.map_or_else(|| "-".to_owned(), |c| format!("{c:.3}"));
        if let Err(e) = writeln!(out, "{:.4}\t{:.3}\t{cpu}\t{}", last.at, last.ui_ms, last.cause).and_then(|()| out.flush()) {
            self.log_error = Some(format!("TANGENT_FRAME_LOG: {e}"));
            self.log = None;
        }
    }
}

/// What made this frame: its input events (counted by kind) and the repaint requests of the
/// frame before; "idle" when neither (a scheduled repaint).
fn causes(ctx: &egui::Context) -> String {
    let mut kinds: Vec<(&'static str, usize)> = Vec::new();
    ctx.input(|i| {
        for e in &i.events {
            let kind = match e {
                egui::Event::PointerMoved(_) | egui::Event::MouseMoved(_) => "pointer moved",
                egui::Event::PointerButton { .. } => "pointer button",
                egui::Event::Key { .. } | egui::Event::Text(_) => "key",
                egui::Event::MouseWheel { .. } | egui::Event::Zoom(_) => "scroll",
                egui::Event::PointerGone => "pointer left",
                egui::Event::WindowFocused(_) => "focus",
                _ => "other input",
            };
            match kinds.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, n)) => *n += 1,
                None => kinds.push((kind, 1)),
            }
        }
    });
    let mut parts: Vec<String> = kinds.into_iter().map(|(k, n)| if n > 1 { format!("{k} ×{n}") } else { k.to_owned() }).collect();
    for cause in ctx.repaint_causes() {
        let file = cause.file.rsplit('/').next().unwrap_or(cause.file);
        let reason = if cause.reason.is_empty() { String::new() } else { format!(" {}", cause.reason) };
        parts.push(format!("repaint {file}:{}{reason}", cause.line));
    }
    if parts.is_empty() {
        "idle".to_owned()
    } else {
        parts.join("; ")
    }
}

/// View > Frame statistics: the last frames' times and causes, and their means.
pub fn window(ctx: &egui::Context, stats: &FrameStats, open: &mut bool) {
    egui::Window::new("Frame statistics").open(open).default_width(560.0).show(ctx, |ui| {
        let n = stats.frames.len().max(1) as f64;
        let mean_ui = stats.frames.iter().map(|f| f.ui_ms).sum::<f64>() / n;
        let cpus: Vec<f64> = stats.frames.iter().filter_map(|f| f.cpu_ms).collect();
        let mean_cpu = cpus.iter().sum::<f64>() / (cpus.len().max(1) as f64);
        ui.label(format!(
            "Last {} frames: UI update {mean_ui:.2} ms, whole frame {mean_cpu:.2} ms (tessellation and painting {:.2} ms) on average",
            stats.frames.len(),
            (mean_cpu - mean_ui).max(0.0)
        ))
        .on_hover_text("UI update: Tangent's panels; whole frame: eframe's CPU time of the frame (update, tessellation, painting)");
        match (stats.log_path(), &stats.log_error) {
            (_, Some(e)) => _ = ui.colored_label(egui::Color32::LIGHT_RED, e),
            (Some(p), None) => _ = ui.label(format!("Logging every frame to {}", p.display())),
            (None, None) => _ = ui.label("Set TANGENT_FRAME_LOG=FILE to log every frame"),
        }
        ui.separator();
        egui::ScrollArea::vertical().max_height(360.0).stick_to_bottom(true).show(ui, |ui| {
            egui::Grid::new("frames").num_columns(4).striped(true).show(ui, |ui| {
                for h in ["time (s)", "UI (ms)", "frame (ms)", "cause"] {
                    ui.strong(h);
                }
                ui.end_row();
                for f in &stats.frames {
                    ui.label(format!("{:.3}", f.at));
                    ui.label(format!("{:.2}", f.ui_ms));
                    ui.label(f.cpu_ms.map_or_else(|| "…".to_owned(), |c| format!("{c:.2}")));
                    ui.label(&f.cause);
                    ui.end_row();
                }
            });
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Frames are kept up to [`KEPT`], each with its causes, and the CPU time eframe reports
    /// at the next frame lands on the frame it belongs to; the log gets one line per frame.
    #[test]
    fn frames_are_recorded_with_their_causes_and_logged() {
        let path = std::env::temp_dir().join(format!("tangent-frames-{}.log", std::process::id()));
        let mut stats = FrameStats { log: Some((path.clone(), std::io::BufWriter::new(std::fs::File::create(&path).unwrap()))), ..FrameStats::default() };
        let ctx = egui::Context::default();
        for i in 0..(KEPT + 5) {
            stats.begin((i > 0).then_some(0.004));
            let input = egui::RawInput { events: vec![egui::Event::PointerMoved(egui::pos2(1.0, 2.0)); i % 3], ..Default::default() };
            ctx.run_ui(input, |_| {}).textures_delta.clear();
            stats.end(&ctx);
        }
        stats.begin(Some(0.002));
        assert_eq!(stats.frames().len(), KEPT);
        let last = stats.frames().last().unwrap();
        assert!((last.cpu_ms.unwrap() - 2.0).abs() < 1e-6, "the CPU time reported at the next frame: {:?}", last.cpu_ms);
        let causes: Vec<&str> = stats.frames().map(|f| f.cause.as_str()).collect();
        assert!(causes.iter().any(|c| c.contains("pointer moved ×2")), "{causes:?}");
        assert!(causes.iter().any(|c| *c == "pointer moved" || c.starts_with("pointer moved;")), "{causes:?}");
        drop(stats);
        let log = std::fs::read_to_string(&path).unwrap();
        assert_eq!(log.lines().count(), KEPT + 5, "one line per frame:\n{log}");
        let second: Vec<&str> = log.lines().nth(1).unwrap().split('\t').collect();
        assert_eq!((second.len(), second[2]), (4, "4.000"), "{second:?}");
        let _ = std::fs::remove_file(&path);
    }
}
