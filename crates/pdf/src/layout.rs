//! Lines and pages: shaped paragraphs are broken into lines at the Unicode line-break
//! opportunities (UAX #14: spaces, between CJK ideographs, after hyphens), words wider than the
//! line are broken between clusters, and lines are stacked onto A4 pages.

use std::ops::Range;
use std::sync::Arc;

use unicode_linebreak::{BreakOpportunity, linebreaks};

use crate::fonts::{FontLibrary, LayoutKey};
use crate::text::{FontSlot, Glyph, Shaped, TextStyle, shape};

pub(crate) const PAGE_WIDTH: f32 = 595.276;
pub(crate) const PAGE_HEIGHT: f32 = 841.89;
pub(crate) const MARGIN_X: f32 = 56.7;
pub(crate) const MARGIN_TOP: f32 = 42.5;
pub(crate) const MARGIN_BOTTOM: f32 = 50.0;
pub(crate) const CONTENT_WIDTH: f32 = PAGE_WIDTH - 2.0 * MARGIN_X;
/// Line height as a multiple of the font size (room for Devanagari marks above and below).
const LEADING: f32 = 1.35;

/// Paragraph text with its styles.
#[derive(Debug, Clone, Default)]
pub(crate) struct Para {
    pub(crate) text: String,
    pub(crate) styles: Vec<(Range<usize>, TextStyle)>,
    /// A text many documents share (a label, a heading, a template version's name or content):
    /// its lines are cached. Per-event texts are not, so that they cannot crowd those out.
    pub(crate) shared: bool,
}

impl Para {
    pub(crate) fn new() -> Self {
        Para::default()
    }

    pub(crate) fn styled(text: &str, style: TextStyle) -> Self {
        let mut para = Para::new();
        para.push(text, style);
        para
    }

    /// A fixed text, whose lines are cached.
    pub(crate) fn fixed(text: &str, style: TextStyle) -> Self {
        Para::styled(text, style).shared()
    }

    /// This text is the same for many documents (every event of a template version, of an app):
    /// its lines are cached.
    pub(crate) fn shared(mut self) -> Self {
        self.shared = true;
        self
    }

    fn cache_key(&self, width: f32) -> LayoutKey {
        let styles = self
            .styles
            .iter()
            .map(|(range, style)| {
                let flags = u8::from(style.bold) | (u8::from(style.italic) << 1);
                (range.start, range.end, [style.size.to_bits(), style.gray.to_bits()], flags)
            })
            .collect();
        LayoutKey { text: self.text.clone(), styles, width: width.to_bits() }
    }

    pub(crate) fn push(&mut self, text: &str, style: TextStyle) -> &mut Self {
        if text.is_empty() {
            return self;
        }
        let start = self.text.len();
        self.text.push_str(text);
        match self.styles.last_mut() {
            Some((range, last)) if *last == style && range.end == start => range.end = self.text.len(),
            _ => self.styles.push((start..self.text.len(), style)),
        }
        self
    }

    pub(crate) fn is_blank(&self) -> bool {
        self.text.trim().is_empty()
    }

    fn max_size(&self) -> f32 {
        self.styles.iter().map(|(_, style)| style.size).fold(0.0, f32::max)
    }
}

/// A glyph placed in a run.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RunGlyph {
    pub(crate) id: u16,
    /// From the run's origin, points.
    pub(crate) x: f32,
    pub(crate) dy: f32,
    /// Where the text of the glyph's cluster is in the run's `source`.
    pub(crate) text: Range<usize>,
    /// Its cluster has more than one glyph (reordered or decomposed): the text cannot be told
    /// glyph by glyph.
    pub(crate) shared_cluster: bool,
}

/// Glyphs of one font and style on one line.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LineRun {
    pub(crate) font: FontSlot,
    pub(crate) style: TextStyle,
    pub(crate) fake_bold: bool,
    /// From the line's start, points.
    pub(crate) x: f32,
    pub(crate) glyphs: Vec<RunGlyph>,
    /// The paragraph's text.
    pub(crate) source: Arc<str>,
    /// Where the characters the run shows are in `source`.
    pub(crate) text: Range<usize>,
    pub(crate) width: f32,
}

impl LineRun {
    /// The characters the run shows, in logical order.
    pub(crate) fn text(&self) -> &str {
        self.source.get(self.text.clone()).unwrap_or_default()
    }

    pub(crate) fn glyph_text(&self, glyph: &RunGlyph) -> &str {
        self.source.get(glyph.text.clone()).unwrap_or_default()
    }
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Line {
    /// Shared with the page items that show them (and with the cache).
    pub(crate) runs: Vec<Arc<LineRun>>,
    pub(crate) width: f32,
}

/// A paragraph broken into lines, and how many of its characters no font has.
#[derive(Debug, Clone, Default)]
pub(crate) struct LaidOut {
    pub(crate) lines: Vec<Line>,
    pub(crate) missing: usize,
}

impl LaidOut {
    /// About the memory it takes (its text is shared with the cache key's, counted there).
    pub(crate) fn bytes(&self) -> usize {
        let runs = self.lines.iter().flat_map(|line| &line.runs);
        let glyphs: usize = runs.clone().map(|run| run.glyphs.len()).sum();
        let runs = runs.count();
        self.lines.len() * std::mem::size_of::<Line>()
            + runs * (std::mem::size_of::<LineRun>() + 2 * std::mem::size_of::<usize>())
            + glyphs * std::mem::size_of::<RunGlyph>()
    }
}

struct Segment {
    glyphs: Range<usize>,
    width: f32,
    trailing_space: f32,
    mandatory: bool,
}

/// Breaks a shaped paragraph into lines at most `width` wide.
pub(crate) fn break_lines(shaped: &Shaped, width: f32) -> Vec<Line> {
    let text = &shaped.text;
    let glyphs = &shaped.glyphs;
    let mut segments: Vec<Segment> = Vec::new();
    let mut next = 0;
    for (position, opportunity) in linebreaks(text) {
        let start = next;
        while glyphs.get(next).is_some_and(|g| (g.cluster as usize) < position) {
            next += 1;
        }
        let range = start..next;
        let slice = glyphs.get(range.clone()).unwrap_or_default();
        let width: f32 = slice.iter().map(|g| g.advance).sum();
        let trailing_space: f32 = slice
            .iter()
            .rev()
            .take_while(|g| char_at(text, g.cluster).is_some_and(char::is_whitespace))
            .map(|g| g.advance)
            .sum();
        segments.push(Segment {
            glyphs: range,
            width,
            trailing_space,
            mandatory: opportunity == BreakOpportunity::Mandatory,
        });
    }

    let mut lines = Vec::new();
    let mut line_start = 0;
    let mut line_width = 0.0;
    let mut has_content = false;
    for segment in segments {
        let fitting = segment.width - segment.trailing_space;
        if has_content && line_width + fitting > width + 0.01 {
            lines.push(make_line(shaped, line_start..segment.glyphs.start));
            line_start = segment.glyphs.start;
            line_width = 0.0;
            has_content = false;
        }
        if !has_content && fitting > width + 0.01 {
            // Wider than a line on its own (a long hash or URL): break between clusters.
            let mut chunk_width = 0.0;
            let mut index = segment.glyphs.start;
            while index < segment.glyphs.end {
                let cluster_end = cluster_end(glyphs, index, segment.glyphs.end);
                let cluster_width: f32 =
                    glyphs.get(index..cluster_end).unwrap_or_default().iter().map(|g| g.advance).sum();
                if chunk_width > 0.0 && chunk_width + cluster_width > width + 0.01 {
                    lines.push(make_line(shaped, line_start..index));
                    line_start = index;
                    chunk_width = 0.0;
                }
                chunk_width += cluster_width;
                index = cluster_end;
            }
            line_width = chunk_width;
            has_content = chunk_width > 0.0;
        } else {
            line_width += segment.width;
            has_content |= !segment.glyphs.is_empty();
        }
        if segment.mandatory {
            if has_content || line_start == segment.glyphs.end {
                lines.push(make_line(shaped, line_start..segment.glyphs.end));
            }
            line_start = segment.glyphs.end;
            line_width = 0.0;
            has_content = false;
        }
    }
    if has_content {
        lines.push(make_line(shaped, line_start..glyphs.len()));
    }
    // A paragraph ends with a mandatory break: drop the empty line that would follow a final `\n`.
    while lines.len() > 1 && lines.last().is_some_and(|line: &Line| line.runs.is_empty()) {
        lines.pop();
    }
    lines
}

fn char_at(text: &str, cluster: u32) -> Option<char> {
    text.get(cluster as usize..)?.chars().next()
}

fn cluster_end(glyphs: &[Glyph], start: usize, end: usize) -> usize {
    let Some(cluster) = glyphs.get(start).map(|g| g.cluster) else { return end };
    let mut index = start + 1;
    while index < end && glyphs.get(index).is_some_and(|g| g.cluster == cluster) {
        index += 1;
    }
    index
}

/// Where the text of the cluster starting at `cluster` ends: at the next glyph's cluster, without
/// trailing control characters (a line feed from `<br>`).
fn cluster_text_end(text: &str, cluster: usize, next_cluster: Option<u32>) -> usize {
    let end = next_cluster.map_or(text.len(), |next| next as usize);
    let slice = text.get(cluster..end).unwrap_or_default();
    cluster + slice.trim_end_matches(|c: char| c.is_control()).len()
}

fn make_line(shaped: &Shaped, range: Range<usize>) -> Line {
    let glyphs = &shaped.glyphs;
    let mut end = range.end;
    while end > range.start
        && glyphs.get(end - 1).is_some_and(|g| char_at(&shaped.text, g.cluster).is_some_and(char::is_whitespace))
    {
        end -= 1;
    }
    let mut runs: Vec<LineRun> = Vec::new();
    let mut pen = 0.0;
    let mut index = range.start;
    while index < end {
        let cluster_stop = cluster_end(glyphs, index, end);
        let Some(first) = glyphs.get(index) else { break };
        let next_cluster = glyphs.get(cluster_stop).map(|g| g.cluster);
        let start = first.cluster as usize;
        let text = start..cluster_text_end(&shaped.text, start, next_cluster);
        let shared = cluster_stop - index > 1;
        for glyph in glyphs.get(index..cluster_stop).unwrap_or_default() {
            let starts_run = runs.last().is_none_or(|run: &LineRun| {
                run.font != glyph.font || run.style != glyph.style || run.fake_bold != glyph.fake_bold
            });
            if starts_run {
                runs.push(LineRun {
                    font: glyph.font,
                    style: glyph.style,
                    fake_bold: glyph.fake_bold,
                    x: pen,
                    glyphs: Vec::new(),
                    source: Arc::clone(&shaped.text),
                    text: text.start..text.start,
                    width: 0.0,
                });
            }
            if let Some(run) = runs.last_mut() {
                run.text.end = run.text.end.max(text.end);
                run.glyphs.push(RunGlyph {
                    id: glyph.id,
                    x: pen - run.x + glyph.dx,
                    dy: glyph.dy,
                    text: text.clone(),
                    shared_cluster: shared,
                });
                run.width = pen + glyph.advance - run.x;
            }
            pen += glyph.advance;
        }
        index = cluster_stop;
    }
    Line { runs: runs.into_iter().map(Arc::new).collect(), width: pen }
}

/// What a page shows.
#[derive(Debug, Clone)]
pub(crate) enum Item {
    /// A run whose baseline starts at (`x`, `y`), points from the bottom left.
    Text {
        x: f32,
        y: f32,
        run: Arc<LineRun>,
    },
    Rule {
        x1: f32,
        y1: f32,
        x2: f32,
        y2: f32,
        width: f32,
        gray: f32,
    },
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Page {
    pub(crate) items: Vec<Item>,
}

/// Stacks paragraphs onto pages, top to bottom.
#[derive(Debug)]
pub(crate) struct Composer<'a> {
    library: &'a FontLibrary,
    pub(crate) pages: Vec<Page>,
    /// The top of the next line, points from the bottom.
    y: f32,
    pub(crate) missing: usize,
}

impl<'a> Composer<'a> {
    pub(crate) fn new(library: &'a FontLibrary) -> Self {
        Composer { library, pages: vec![Page::default()], y: PAGE_HEIGHT - MARGIN_TOP, missing: 0 }
    }

    pub(crate) fn new_page(&mut self) {
        self.pages.push(Page::default());
        self.y = PAGE_HEIGHT - MARGIN_TOP;
    }

    /// Starts a new page unless the current one is still empty.
    pub(crate) fn fresh_page(&mut self) {
        if self.pages.last().is_some_and(|page| !page.items.is_empty()) {
            self.new_page();
        }
    }

    pub(crate) fn space(&mut self, points: f32) {
        if self.y < PAGE_HEIGHT - MARGIN_TOP {
            self.y -= points;
        }
    }

    /// A new page unless `points` of height are left on this one.
    pub(crate) fn ensure(&mut self, points: f32) {
        if self.y - points < MARGIN_BOTTOM {
            self.new_page();
        }
    }

    /// The paragraph's lines at most `width` wide; from the cache if it is a shared text.
    pub(crate) fn lines(&mut self, para: &Para, width: f32) -> Arc<LaidOut> {
        let lay_out = || {
            let shaped = shape(self.library, &para.text, &para.styles);
            LaidOut { lines: break_lines(&shaped, width), missing: shaped.missing }
        };
        let laid_out =
            if para.shared { self.library.laid_out(para.cache_key(width), lay_out) } else { Arc::new(lay_out()) };
        self.missing += laid_out.missing;
        laid_out
    }

    /// Places `lines` at `x`, breaking pages as needed; `size` sets the line height.
    pub(crate) fn place_lines(&mut self, lines: &[Line], x: f32, size: f32) {
        let height = size * LEADING;
        for line in lines {
            self.ensure(height);
            let baseline = self.y - size * 1.1;
            self.place_line(line, x, baseline);
            self.y -= height;
        }
    }

    fn place_line(&mut self, line: &Line, x: f32, baseline: f32) {
        if let Some(page) = self.pages.last_mut() {
            for run in &line.runs {
                page.items.push(Item::Text { x: x + run.x, y: baseline, run: Arc::clone(run) });
            }
        }
    }

    /// A paragraph at `indent` from the left margin.
    pub(crate) fn paragraph(&mut self, para: &Para, indent: f32) {
        let size = para.max_size().max(1.0);
        let laid_out = self.lines(para, CONTENT_WIDTH - indent);
        self.place_lines(&laid_out.lines, MARGIN_X + indent, size);
    }

    /// A paragraph with a marker (bullet or number) set before its first line.
    pub(crate) fn marked_paragraph(&mut self, marker: &Para, para: &Para, indent: f32) {
        let size = para.max_size().max(marker.max_size()).max(1.0);
        let laid_out = self.lines(para, CONTENT_WIDTH - indent);
        let empty = [Line::default()];
        let lines = if laid_out.lines.is_empty() { &empty[..] } else { &laid_out.lines[..] };
        let marker = self.lines(marker, indent);
        self.ensure(size * LEADING);
        if let Some(marker_line) = marker.lines.first() {
            let x = MARGIN_X + indent - marker_line.width - size * 0.5;
            let baseline = self.y - size * 1.1;
            self.place_line(marker_line, x.max(MARGIN_X), baseline);
        }
        self.place_lines(lines, MARGIN_X + indent, size);
    }

    /// A label and its value side by side; the value may run onto the next page.
    pub(crate) fn row(&mut self, label: &Para, value: &Para, label_width: f32) {
        let size = value.max_size().max(label.max_size()).max(1.0);
        let label_lines = self.lines(label, label_width - 8.0);
        let value_lines = self.lines(value, CONTENT_WIDTH - label_width);
        // Keep short rows together; a long value may continue on the next page.
        let needed = label_lines.lines.len().max(value_lines.lines.len()).clamp(1, 3) as f32 * size * LEADING;
        self.ensure(needed);
        let top = self.y;
        let page = self.pages.len();
        self.place_lines(&label_lines.lines, MARGIN_X, size);
        let label_bottom = self.y;
        self.y = top;
        self.place_lines(&value_lines.lines, MARGIN_X + label_width, size);
        if self.pages.len() == page {
            self.y = self.y.min(label_bottom);
        }
    }

    /// A horizontal rule across the text width.
    pub(crate) fn rule(&mut self, width: f32, gray: f32) {
        self.ensure(4.0);
        let y = self.y - 2.0;
        if let Some(page) = self.pages.last_mut() {
            page.items.push(Item::Rule { x1: MARGIN_X, y1: y, x2: PAGE_WIDTH - MARGIN_X, y2: y, width, gray });
        }
        self.y -= 4.0;
    }

    /// Places one line of text at a fixed position (headers, footers), aligned left or right.
    pub(crate) fn fixed_text(&mut self, page: usize, para: &Para, x: f32, baseline: f32, align_right: bool) {
        let laid_out = self.lines(para, CONTENT_WIDTH);
        let Some(line) = laid_out.lines.first() else { return };
        let x = if align_right { x - line.width } else { x };
        if let Some(page) = self.pages.get_mut(page) {
            for run in &line.runs {
                page.items.push(Item::Text { x: x + run.x, y: baseline, run: Arc::clone(run) });
            }
        }
    }

    pub(crate) fn finish(self) -> (Vec<Page>, usize) {
        (self.pages, self.missing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(text: &str, width: f32) -> Vec<String> {
        let library = FontLibrary::builtin_only();
        let shaped = shape(&library, text, &[(0..text.len(), TextStyle::regular(10.0))]);
        break_lines(&shaped, width).iter().map(|line| line.runs.iter().map(|run| run.text()).collect()).collect()
    }

    #[test]
    fn breaks_at_spaces_and_drops_trailing_ones() {
        // Courier 10 pt: 6 pt per character, 10 characters per 60 pt.
        assert_eq!(lines_of("aaaa bbbb cccc", 60.0), ["aaaa bbbb", "cccc"]);
        assert_eq!(lines_of("aaaa bbbb cccc", 200.0), ["aaaa bbbb cccc"]);
    }

    #[test]
    fn long_words_are_broken_between_characters() {
        assert_eq!(lines_of("0123456789abcdef", 60.0), ["0123456789", "abcdef"]);
    }

    #[test]
    fn line_feeds_are_mandatory_breaks() {
        assert_eq!(lines_of("one\ntwo\n\nthree", 600.0), ["one", "two", "", "three"]);
        assert_eq!(lines_of("one\n", 600.0), ["one"]);
    }

    #[test]
    fn an_empty_paragraph_has_no_lines() {
        assert!(lines_of("", 600.0).is_empty());
    }
}
