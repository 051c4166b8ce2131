//! A line diff of two versions' HTML, for the console's compare page.
//!
//! Published content is often one long line of HTML, so the text is first cut into "lines" at
//! newlines and around block-level tags (a paragraph, a list item, a heading is a line each); then
//! the longest common subsequence of those lines (`similar`'s Myers diff) says what stayed, what
//! went and what came.

use similar::{Algorithm, ChangeTag, capture_diff_slices};

/// One line of a diff from an old text to a new one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiffLine {
    /// In both texts.
    Same(String),
    /// Only in the old text.
    Removed(String),
    /// Only in the new text.
    Added(String),
}

/// Beyond this many lines on either side (after the common start and end are set aside) the diff
/// could take too long (its time grows with the lines times the differences): everything in
/// between is shown as removed, then added.
pub const MAX_DIFF_LINES: usize = 2_000;

/// The lines of `a` and `b` (HTML or plain text) as `Same`, `Removed` and `Added`, in order: reading
/// the `Same` and `Removed` lines gives `a`'s lines, the `Same` and `Added` lines `b`'s.
pub fn diff_lines(a: &str, b: &str) -> Vec<DiffLine> {
    let old = split_lines(a);
    let new = split_lines(b);
    let prefix = old.iter().zip(&new).take_while(|(x, y)| x == y).count();
    let old_rest = old.get(prefix..).unwrap_or_default();
    let new_rest = new.get(prefix..).unwrap_or_default();
    let suffix = old_rest.iter().rev().zip(new_rest.iter().rev()).take_while(|(x, y)| x == y).count();
    let old_middle = old_rest.get(..old_rest.len() - suffix).unwrap_or_default();
    let new_middle = new_rest.get(..new_rest.len() - suffix).unwrap_or_default();

    let mut lines: Vec<DiffLine> = old.iter().take(prefix).map(|line| DiffLine::Same((*line).to_owned())).collect();
    if old_middle.len() > MAX_DIFF_LINES || new_middle.len() > MAX_DIFF_LINES {
        lines.extend(old_middle.iter().map(|line| DiffLine::Removed((*line).to_owned())));
        lines.extend(new_middle.iter().map(|line| DiffLine::Added((*line).to_owned())));
    } else {
        lines.extend(myers_diff(old_middle, new_middle));
    }
    lines.extend(old_rest.iter().skip(old_rest.len() - suffix).map(|line| DiffLine::Same((*line).to_owned())));
    lines
}

/// The diff of two line lists by Myers' algorithm: a shortest edit script, so the `Same` lines
/// are a longest common subsequence.
fn myers_diff(old: &[&str], new: &[&str]) -> Vec<DiffLine> {
    capture_diff_slices(Algorithm::Myers, old, new)
        .iter()
        .flat_map(|op| op.iter_changes(old, new))
        .map(|change| {
            let line = change.value().to_owned();
            match change.tag() {
                ChangeTag::Equal => DiffLine::Same(line),
                ChangeTag::Delete => DiffLine::Removed(line),
                ChangeTag::Insert => DiffLine::Added(line),
            }
        })
        .collect()
}

/// Elements that start a line of their own and end one when closed.
const BLOCK_TAGS: [&str; 30] = [
    "address",
    "article",
    "aside",
    "blockquote",
    "br",
    "dd",
    "div",
    "dl",
    "dt",
    "figure",
    "footer",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "li",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "tr",
    "ul",
    "tbody",
];

/// The text cut at newlines, before each block-level tag and after each block-level closing tag
/// (and after `<br>`/`<hr>`); lines are trimmed and blank ones dropped.
fn split_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((index, c)) = chars.next() {
        match c {
            '\n' => {
                push_line(text, start, index, &mut lines);
                start = index + 1;
            }
            '<' => {
                let rest = text.get(index + 1..).unwrap_or_default();
                let closing = rest.starts_with('/');
                let name: String = rest
                    .trim_start_matches('/')
                    .chars()
                    .take_while(char::is_ascii_alphanumeric)
                    .map(|c| c.to_ascii_lowercase())
                    .collect();
                if !BLOCK_TAGS.contains(&name.as_str()) {
                    continue;
                }
                let ends_line = closing || name == "br" || name == "hr";
                if !closing && name != "br" {
                    push_line(text, start, index, &mut lines);
                    start = index;
                }
                if ends_line {
                    let Some(close) = rest.find('>') else { continue };
                    let end = index + 1 + close + 1;
                    push_line(text, start, end, &mut lines);
                    start = end;
                    while chars.peek().is_some_and(|(at, _)| *at < end) {
                        chars.next();
                    }
                }
            }
            _ => {}
        }
    }
    push_line(text, start, text.len(), &mut lines);
    lines
}

/// `text[from..to]`, trimmed, unless blank.
fn push_line<'t>(text: &'t str, from: usize, to: usize, lines: &mut Vec<&'t str>) {
    if let Some(line) = text.get(from..to).map(str::trim).filter(|line| !line.is_empty()) {
        lines.push(line);
    }
}

/// A row of the compare page's side-by-side view: (old side, new side); `None` is an empty cell.
pub type DiffRow<'a> = (Option<&'a DiffLine>, Option<&'a DiffLine>);

/// Moves the pending removed and added lines into rows, pairing them up.
fn flush_rows<'a>(rows: &mut Vec<DiffRow<'a>>, removed: &mut Vec<&'a DiffLine>, added: &mut Vec<&'a DiffLine>) {
    let count = removed.len().max(added.len());
    for index in 0..count {
        rows.push((removed.get(index).copied(), added.get(index).copied()));
    }
    removed.clear();
    added.clear();
}

/// Pairs each run of removed lines with the run of added lines that follows it, row by row.
pub fn diff_rows(lines: &[DiffLine]) -> Vec<DiffRow<'_>> {
    let mut rows = Vec::with_capacity(lines.len());
    let mut removed: Vec<&DiffLine> = Vec::new();
    let mut added: Vec<&DiffLine> = Vec::new();
    for line in lines {
        match line {
            DiffLine::Same(_) => {
                flush_rows(&mut rows, &mut removed, &mut added);
                rows.push((Some(line), Some(line)));
            }
            DiffLine::Removed(_) => {
                if !added.is_empty() {
                    flush_rows(&mut rows, &mut removed, &mut added);
                }
                removed.push(line);
            }
            DiffLine::Added(_) => added.push(line),
        }
    }
    flush_rows(&mut rows, &mut removed, &mut added);
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use DiffLine::*;

    fn s(text: &str) -> String {
        text.to_owned()
    }

    #[test]
    fn one_line_html_is_cut_at_block_tags() {
        let html = "<h1>Terms</h1><p>Hello <b>world</b>.</p><ul><li>a</li><li>b</li></ul>line<br>next";
        assert_eq!(
            split_lines(html),
            vec![
                "<h1>Terms</h1>",
                "<p>Hello <b>world</b>.</p>",
                "<ul>",
                "<li>a</li>",
                "<li>b</li>",
                "</ul>",
                "line<br>",
                "next"
            ]
        );
        assert_eq!(split_lines("  a\n\n  b  \r\n"), vec!["a", "b"]);
        assert_eq!(split_lines("a < b and <unclosed"), vec!["a < b and <unclosed"]);
        assert!(split_lines("").is_empty());
    }

    #[test]
    fn changed_paragraph_is_removed_and_added_the_rest_is_same() {
        let a = "<h1>Terms</h1><p>Old text.</p><p>Keep.</p>";
        let b = "<h1>Terms</h1><p>New text.</p><p>Keep.</p><p>Extra.</p>";
        assert_eq!(
            diff_lines(a, b),
            vec![
                Same(s("<h1>Terms</h1>")),
                Removed(s("<p>Old text.</p>")),
                Added(s("<p>New text.</p>")),
                Same(s("<p>Keep.</p>")),
                Added(s("<p>Extra.</p>")),
            ]
        );
    }

    #[test]
    fn identical_and_empty_texts() {
        assert_eq!(diff_lines("<p>x</p>", "<p>x</p>"), vec![Same(s("<p>x</p>"))]);
        assert!(diff_lines("", "").is_empty());
        assert_eq!(diff_lines("", "a\nb"), vec![Added(s("a")), Added(s("b"))]);
        assert_eq!(diff_lines("a\nb", ""), vec![Removed(s("a")), Removed(s("b"))]);
    }

    #[test]
    fn lcs_finds_the_longest_common_lines() {
        let lines = diff_lines("a\nb\nc\nd\ne", "x\nb\nd\ny\ne");
        let same: Vec<&DiffLine> = lines.iter().filter(|l| matches!(l, Same(_))).collect();
        assert_eq!(same, vec![&Same(s("b")), &Same(s("d")), &Same(s("e"))]);
        assert_old_and_new_read_back(&lines, "a\nb\nc\nd\ne", "x\nb\nd\ny\ne");
    }

    #[test]
    fn huge_inputs_fall_back_to_removed_then_added() {
        let a: String = (0..MAX_DIFF_LINES + 5).map(|i| format!("a{i}\n")).collect();
        let b: String = (0..MAX_DIFF_LINES + 5).map(|i| format!("b{i}\n")).collect();
        let a = format!("same\n{a}end");
        let b = format!("same\n{b}end");
        let lines = diff_lines(&a, &b);
        assert_eq!(lines.first(), Some(&Same(s("same"))));
        assert_eq!(lines.last(), Some(&Same(s("end"))));
        assert_eq!(lines.get(1), Some(&Removed(s("a0"))));
        assert_eq!(lines.get(MAX_DIFF_LINES + 6), Some(&Added(s("b0"))));
        assert_old_and_new_read_back(&lines, &a, &b);
    }

    fn assert_old_and_new_read_back(lines: &[DiffLine], a: &str, b: &str) {
        let old: Vec<&str> = lines
            .iter()
            .filter_map(|l| match l {
                Same(t) | Removed(t) => Some(t.as_str()),
                Added(_) => None,
            })
            .collect();
        let new: Vec<&str> = lines
            .iter()
            .filter_map(|l| match l {
                Same(t) | Added(t) => Some(t.as_str()),
                Removed(_) => None,
            })
            .collect();
        assert_eq!(old, split_lines(a));
        assert_eq!(new, split_lines(b));
    }

    #[test]
    fn reading_back_holds_for_assorted_inputs() {
        let texts = ["", "a", "a\nb", "b\na", "<p>1</p><p>2</p><p>3</p>", "<p>3</p><p>1</p>", "x\nx\nx", "x\ny\nx"];
        for a in texts {
            for b in texts {
                assert_old_and_new_read_back(&diff_lines(a, b), a, b);
            }
        }
    }

    #[test]
    fn diff_rows_pair_removed_with_added() {
        use DiffLine::*;
        let lines = vec![
            Same("a".into()),
            Removed("b".into()),
            Removed("c".into()),
            Added("B".into()),
            Same("d".into()),
            Added("e".into()),
        ];
        let rows = diff_rows(&lines);
        let shape: Vec<(bool, bool)> = rows.iter().map(|(l, r)| (l.is_some(), r.is_some())).collect();
        assert_eq!(shape, vec![(true, true), (true, true), (true, false), (true, true), (false, true)]);
    }
}
