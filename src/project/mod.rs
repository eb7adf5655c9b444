//! Project files: loading with line and column errors and atomic saving (`io`), opening any
//! file Tangent reads, a project or an import (`open`), and the big file's fast paths — the
//! text cut at its tracks and parsed on every core (`ron_split`), a key list in the plain form
//! read fast (`ron_keys`), and the writer of that form (`ron_write`). The crate root re-exports
//! each (`tangent::io`, …), the paths every caller uses.

pub mod io;
pub mod open;
pub mod ron_keys;
pub mod ron_split;
pub mod ron_write;
