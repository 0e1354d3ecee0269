//! CSV for spreadsheets: one quoting rule for every export.

/// A cell, quoted when it holds a comma, a quote or a line break.
pub fn cell(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}
