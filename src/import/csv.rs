//! CSV import (SPEC §11), read with the `csv` crate: a header row with `time` first; columns
//! `NAME.x`, `NAME.y` (, `NAME.z`, `NAME.w`) in that order become one Vec2–Vec4 track NAME,
//! a column `NAME.v` the Scalar track NAME (as `tangent bake --format csv` writes them), any
//! other column a Scalar track named by its header. Every track is Linear, one key per row.
//!
//! A ragged row, an empty or non-numeric cell, or a time before the previous row's is an
//! error naming the row (the line in the file) and the column.

use std::collections::HashMap;

use super::{Ctx, ImportError, Read};
use crate::model::{Interpolation, Key, Track, TrackKind};

/// Component suffixes in the order a vector's columns must come.
const COMPONENTS: [&str; 4] = ["x", "y", "z", "w"];

/// How often (in rows) progress is reported.
const PROGRESS_ROWS: usize = 8192;

/// A track to build: its name, kind and the columns (indices into the row) it reads.
#[derive(Debug)]
struct Group {
    name: String,
    kind: TrackKind,
    columns: Vec<usize>,
}

/// Reads a CSV file with a header.
pub(super) fn read(bytes: &[u8], ctx: &Ctx<'_>) -> Result<Read, ImportError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut reader = ::csv::ReaderBuilder::new().has_headers(true).flexible(true).trim(::csv::Trim::All).from_reader(bytes);
    let headers: Vec<String> = reader.headers().map_err(|e| ctx.invalid(format!("the header row cannot be read: {e}")))?.iter().map(str::to_owned).collect();
    if !headers.first().is_some_and(|h| h.eq_ignore_ascii_case("time")) {
        let first = headers.first().map_or("", String::as_str);
        return Err(ctx.invalid(format!("the first column is \"{first}\"; the header must start with \"time\"")));
    }
    let mut warnings = Vec::new();
    let groups = groups(&headers, &mut warnings).map_err(|m| ctx.invalid(m))?;
    let cell = |row: usize, column: usize, message: String| ImportError::Cell {
        path: ctx.path.to_owned(),
        row,
        column: column + 1,
        header: headers.get(column).cloned().unwrap_or_default(),
        message,
    };
    let mut columns: Vec<Vec<f64>> = vec![Vec::new(); headers.len()];
    let mut record = ::csv::StringRecord::new();
    let mut rows = 0;
    loop {
        let more = reader.read_record(&mut record).map_err(|e| ctx.invalid(format!("{e}")))?;
        if !more {
            break;
        }
        let row = record.position().map_or(rows + 2, |p| p.line() as usize);
        if record.len() != headers.len() {
            let column = record.len().min(headers.len());
            return Err(cell(row, column, format!("the row has {} cells, the header {}", record.len(), headers.len())));
        }
        for (c, text) in record.iter().enumerate() {
            let v: f64 =
                text.parse().map_err(|_| cell(row, c, if text.is_empty() { "empty cell".to_owned() } else { format!("\"{text}\" is not a number") }))?;
            if !v.is_finite() {
                return Err(cell(row, c, format!("{text} is not a finite number")));
            }
            columns[c].push(v);
        }
        if let [.., previous, time] = columns[0][..] {
            if time < previous {
                return Err(cell(row, 0, format!("time {time} is before the previous row's time {previous}")));
            }
        }
        rows += 1;
        if rows % PROGRESS_ROWS == 0 {
            ctx.progress(record.position().map_or(0, |p| p.byte() as usize), bytes.len())?;
        }
    }
    if rows == 0 {
        return Err(ImportError::Empty { path: ctx.path.to_owned(), reason: "the CSV has a header but no rows".to_owned() });
    }
    ctx.progress(bytes.len(), bytes.len())?;
    let times = &columns[0];
    let tracks = groups
        .into_iter()
        .map(|g| {
            let keys: Vec<crate::Key> = (0..rows).map(|r| Key::new(times[r], g.columns.iter().map(|&c| columns[c][r]).collect())).collect();
            Track::new(g.name, g.kind, Interpolation::Linear).with_keys(keys)
        })
        .collect();
    Ok(Read { tracks, warnings, ..Read::default() })
}

/// The tracks the header's columns (after `time`) make, in the order they first appear.
fn groups(headers: &[String], warnings: &mut Vec<String>) -> Result<Vec<Group>, String> {
    let mut seen = HashMap::new();
    for (c, h) in headers.iter().enumerate() {
        if let Some(first) = seen.insert(h.as_str(), c) {
            return Err(format!("columns {} and {} are both called \"{h}\"", first + 1, c + 1));
        }
    }
    // NAME → [(suffix, column)] for NAME.x/.y/.z/.w/.v columns.
    let mut order: Vec<&str> = Vec::new();
    let mut parts: HashMap<&str, Vec<(&str, usize)>> = HashMap::new();
    let mut plain = Vec::new();
    for (c, h) in headers.iter().enumerate().skip(1) {
        match h.rsplit_once('.') {
            Some((name, suffix)) if !name.is_empty() && (COMPONENTS.contains(&suffix) || suffix == "v") => {
                if !parts.contains_key(name) {
                    order.push(name);
                }
                parts.entry(name).or_default().push((suffix, c));
            }
            _ => plain.push(c),
        }
    }
    let mut groups: Vec<Group> = Vec::new();
    for name in order {
        let cols = &parts[name];
        let suffixes: Vec<&str> = cols.iter().map(|p| p.0).collect();
        let kind = match suffixes.as_slice() {
            ["v"] => Some(TrackKind::Scalar),
            ["x", "y"] => Some(TrackKind::Vec2),
            ["x", "y", "z"] => Some(TrackKind::Vec3),
            ["x", "y", "z", "w"] => Some(TrackKind::Vec4),
            [_] => None,
            _ => {
                warnings.push(format!(
                    "columns {} are not .x, .y[, .z[, .w]] in order; each is its own Scalar track",
                    suffixes.iter().map(|s| format!("{name}.{s}")).collect::<Vec<_>>().join(", ")
                ));
                None
            }
        };
        match kind {
            Some(kind) => groups.push(Group { name: name.to_owned(), kind, columns: cols.iter().map(|p| p.1).collect() }),
            None => plain.extend(cols.iter().map(|p| p.1)),
        }
    }
    groups.extend(plain.into_iter().map(|c| Group { name: headers[c].clone(), kind: TrackKind::Scalar, columns: vec![c] }));
    groups.sort_by_key(|g| g.columns[0]);
    let mut names = std::collections::HashSet::new();
    for g in &groups {
        if !names.insert(g.name.as_str()) {
            return Err(format!("two tracks would be called \"{}\" (a column and a group of .x/.y/… columns)", g.name));
        }
    }
    Ok(groups)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(header: &str) -> Vec<(String, TrackKind)> {
        let headers: Vec<String> = header.split(',').map(str::to_owned).collect();
        groups(&headers, &mut Vec::new()).unwrap().into_iter().map(|g| (g.name, g.kind)).collect()
    }

    #[test]
    fn header_groups() {
        assert_eq!(
            names("time,pos.x,pos.y,pos.z,speed,tint.x,tint.y,tint.z,tint.w,w.v"),
            [("pos".into(), TrackKind::Vec3), ("speed".into(), TrackKind::Scalar), ("tint".into(), TrackKind::Vec4), ("w".into(), TrackKind::Scalar)]
        );
        // Out of order or incomplete: separate Scalar tracks named by their headers.
        assert_eq!(names("time,p.y,p.x"), [("p.y".into(), TrackKind::Scalar), ("p.x".into(), TrackKind::Scalar)]);
        assert_eq!(names("time,a.x"), [("a.x".into(), TrackKind::Scalar)]);
        let dup: Vec<String> = ["time", "a", "a"].map(String::from).to_vec();
        assert!(groups(&dup, &mut Vec::new()).unwrap_err().contains("both called"));
    }
}
