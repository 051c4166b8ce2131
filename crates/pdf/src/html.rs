//! The agreement's HTML as blocks of styled text: headings, paragraphs, list items with bullets or
//! numbers, quotes, preformatted text, table rows and rules. The content was sanitized when it was
//! saved (a small allow-list of elements), so a tokenizer and a little state are enough; anything
//! unexpected is read as text, never as an error.

use std::cell::RefCell;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts};

use crate::layout::Para;
use crate::text::TextStyle;

pub(crate) const BODY_SIZE: f32 = 10.5;
/// Indentation per list or quote level, points.
pub(crate) const INDENT: f32 = 18.0;

#[derive(Debug, Clone)]
pub(crate) enum Block {
    Heading { level: u8, para: Para },
    Paragraph { para: Para, indent: f32 },
    ListItem { marker: Para, para: Para, indent: f32 },
    Rule,
}

/// The blocks of `html`, in order.
pub(crate) fn blocks(html: &str) -> Vec<Block> {
    let sink = Collector::default();
    let tokenizer = Tokenizer::new(sink, TokenizerOpts::default());
    let queue = BufferQueue::default();
    queue.push_back(StrTendril::from_slice(html));
    let _ = tokenizer.feed(&queue);
    tokenizer.end();
    let mut builder = Builder::default();
    for token in tokenizer.sink.tokens.take() {
        builder.token(token);
    }
    builder.flush();
    builder.blocks
}

#[derive(Default)]
struct Collector {
    tokens: RefCell<Vec<Token>>,
}

impl TokenSink for Collector {
    type Handle = ();

    fn process_token(&self, token: Token, _line_number: u64) -> TokenSinkResult<()> {
        if matches!(token, Token::TagToken(_) | Token::CharacterTokens(_)) {
            self.tokens.borrow_mut().push(token);
        }
        TokenSinkResult::Continue
    }
}

struct List {
    ordered: bool,
    next: i64,
}

#[derive(Default)]
struct Builder {
    blocks: Vec<Block>,
    current: Para,
    pending_space: bool,
    bold: u32,
    italic: u32,
    quote: u32,
    pre: u32,
    heading: Option<u8>,
    marker: Option<String>,
    lists: Vec<List>,
    /// Open links: their `href` and where their text started.
    links: Vec<(Option<String>, usize)>,
    cell_in_row: usize,
}

fn heading_size(level: u8) -> f32 {
    match level {
        1 => 17.0,
        2 => 14.5,
        3 => 12.5,
        _ => 11.0,
    }
}

impl Builder {
    fn style(&self) -> TextStyle {
        let size = self.heading.map_or(BODY_SIZE, heading_size);
        TextStyle {
            size,
            bold: self.bold > 0 || self.heading.is_some(),
            italic: self.italic > 0,
            gray: if self.quote > 0 { 0.25 } else { 0.0 },
        }
    }

    fn indent(&self) -> f32 {
        (self.lists.len() as f32 + self.quote as f32) * INDENT
    }

    fn flush(&mut self) {
        let para = std::mem::take(&mut self.current);
        self.pending_space = false;
        let marker = self.marker.take();
        if para.is_blank() {
            return;
        }
        let para = trim_end(para);
        let block = match (self.heading, marker) {
            (Some(level), _) => Block::Heading { level, para },
            (None, Some(marker)) => Block::ListItem {
                marker: Para::styled(&marker, TextStyle::regular(BODY_SIZE)),
                para,
                indent: self.indent().max(INDENT),
            },
            (None, None) => Block::Paragraph { para, indent: self.indent() },
        };
        self.blocks.push(block);
    }

    fn text(&mut self, text: &str) {
        let style = self.style();
        if self.pre > 0 {
            let text = text.replace("\r\n", "\n").replace(['\r', '\t'], " ");
            self.current.push(&text, style);
            return;
        }
        let mut collapsed = String::with_capacity(text.len());
        for c in text.chars() {
            if c.is_whitespace() && c != '\u{a0}' {
                self.pending_space = true;
                continue;
            }
            if self.pending_space {
                let last = collapsed.chars().last().or_else(|| self.current.text.chars().last());
                if last.is_some_and(|last| last != ' ' && last != '\n') {
                    collapsed.push(' ');
                }
                self.pending_space = false;
            }
            collapsed.push(c);
        }
        self.current.push(&collapsed, style);
    }

    fn token(&mut self, token: Token) {
        match token {
            Token::CharacterTokens(text) => self.text(&text),
            Token::TagToken(tag) => match tag.kind {
                TagKind::StartTag => self.start(&tag),
                TagKind::EndTag => self.end(&tag),
            },
            _ => {}
        }
    }

    fn start(&mut self, tag: &Tag) {
        let name: &str = &tag.name;
        match name {
            "p" | "div" | "dt" | "dd" | "caption" | "table" | "dl" => self.flush(),
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                self.flush();
                self.heading = name.get(1..).and_then(|level| level.parse().ok());
            }
            "ul" | "ol" => {
                self.flush();
                let start = attribute(tag, "start").and_then(|s| s.trim().parse().ok()).unwrap_or(1);
                self.lists.push(List { ordered: name == "ol", next: start });
            }
            "li" => {
                self.flush();
                let depth = self.lists.len();
                self.marker = Some(match self.lists.last_mut() {
                    Some(list) if list.ordered => {
                        let marker = format!("{}.", list.next);
                        list.next += 1;
                        marker
                    }
                    _ if depth > 1 => "–".to_owned(),
                    _ => "•".to_owned(),
                });
            }
            "blockquote" => {
                self.flush();
                self.quote += 1;
            }
            "pre" => {
                self.flush();
                self.pre += 1;
            }
            "tr" => {
                self.flush();
                self.cell_in_row = 0;
            }
            "td" | "th" => {
                if self.cell_in_row > 0 {
                    let style = TextStyle { bold: false, ..self.style() };
                    self.current.push(" | ", style);
                }
                self.cell_in_row += 1;
                self.pending_space = false;
                if name == "th" {
                    self.bold += 1;
                }
            }
            "br" => {
                let style = self.style();
                self.current.push("\n", style);
                self.pending_space = false;
            }
            "hr" => {
                self.flush();
                self.blocks.push(Block::Rule);
            }
            "strong" | "b" => self.bold += 1,
            "em" | "i" => self.italic += 1,
            "a" => {
                let href = attribute(tag, "href");
                self.links.push((href, self.current.text.len()));
            }
            _ => {}
        }
    }

    fn end(&mut self, tag: &Tag) {
        let name: &str = &tag.name;
        match name {
            "p" | "div" | "dt" | "dd" | "caption" | "table" | "dl" | "li" | "tr" => self.flush(),
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                self.flush();
                self.heading = None;
            }
            "ul" | "ol" => {
                self.flush();
                self.lists.pop();
            }
            "blockquote" => {
                self.flush();
                self.quote = self.quote.saturating_sub(1);
            }
            "pre" => {
                self.flush();
                self.pre = self.pre.saturating_sub(1);
            }
            "th" => self.bold = self.bold.saturating_sub(1),
            "strong" | "b" => self.bold = self.bold.saturating_sub(1),
            "em" | "i" => self.italic = self.italic.saturating_sub(1),
            "a" => {
                if let Some((Some(href), start)) = self.links.pop() {
                    let text = self.current.text.get(start..).unwrap_or_default().trim();
                    let shown = href.strip_prefix("mailto:").unwrap_or(&href);
                    if !text.is_empty() && text != href && text != shown {
                        let style = TextStyle { bold: false, italic: false, ..self.style() };
                        self.current.push(&format!(" ({href})"), style);
                    } else if text.is_empty() {
                        let style = self.style();
                        self.current.push(&href, style);
                    }
                }
            }
            _ => {}
        }
    }
}

fn attribute(tag: &Tag, name: &str) -> Option<String> {
    tag.attrs.iter().find(|attr| &*attr.name.local == name).map(|attr| attr.value.to_string())
}

/// Without trailing white space (and line feeds).
fn trim_end(mut para: Para) -> Para {
    let trimmed = para.text.trim_end().len();
    para.text.truncate(trimmed);
    para.styles.retain(|(range, _)| range.start < trimmed);
    if let Some((range, _)) = para.styles.last_mut() {
        range.end = range.end.min(trimmed);
    }
    para
}

#[cfg(test)]
mod tests {
    use super::*;

    fn describe(html: &str) -> Vec<String> {
        blocks(html)
            .into_iter()
            .map(|block| match block {
                Block::Heading { level, para } => format!("h{level} {}", para.text),
                Block::Paragraph { para, indent } => format!("p{indent} {}", para.text),
                Block::ListItem { marker, para, indent } => format!("li{indent} {} {}", marker.text, para.text),
                Block::Rule => "hr".to_owned(),
            })
            .collect()
    }

    #[test]
    fn headings_paragraphs_and_lists() {
        let html = "<h1>Terms</h1><p>Hello <strong>Ada</strong>,\n  welcome.</p>\
            <ul><li>one</li><li>two<ol start=\"3\"><li>three</li><li>four</li></ol></li></ul><hr><p>end</p>";
        assert_eq!(
            describe(html),
            [
                "h1 Terms",
                "p0 Hello Ada, welcome.",
                "li18 • one",
                "li18 • two",
                "li36 3. three",
                "li36 4. four",
                "hr",
                "p0 end"
            ]
        );
    }

    #[test]
    fn links_show_their_address() {
        let html = "<p>See <a href=\"https://example.com/privacy\" target=\"_blank\">our policy</a> or \
            <a href=\"https://example.com\">https://example.com</a>.</p>";
        assert_eq!(describe(html), ["p0 See our policy (https://example.com/privacy) or https://example.com."]);
    }

    #[test]
    fn entities_breaks_and_bold_styles() {
        let blocks = blocks("<p>a &amp; b<br>c <b>d</b></p>");
        let Some(Block::Paragraph { para, .. }) = blocks.first() else { panic!("{blocks:?}") };
        assert_eq!(para.text, "a & b\nc d");
        assert!(para.styles.last().is_some_and(|(_, style)| style.bold));
    }

    #[test]
    fn tables_become_rows() {
        let html = "<table><tr><th>Plan</th><th>Price</th></tr><tr><td>Pro</td><td>10 €</td></tr></table>";
        assert_eq!(describe(html), ["p0 Plan | Price", "p0 Pro | 10 €"]);
    }

    #[test]
    fn plain_text_and_broken_markup_are_still_text() {
        assert_eq!(describe("just text"), ["p0 just text"]);
        assert_eq!(describe("<p>open <b>bold"), ["p0 open bold"]);
        assert!(describe("").is_empty());
    }
}
