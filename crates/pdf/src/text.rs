//! From a paragraph's text to positioned glyphs: each character is given a script and a font
//! (the first in the script's chain that has it), runs of the same font, script and style are
//! shaped (ligatures, kerning, Devanagari conjuncts, matras and mark positioning), and what no
//! font has falls back to the built-in Courier.

use std::ops::Range;
use std::sync::Arc;

use crate::fonts::{FontLibrary, Script};

/// How a span of text looks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct TextStyle {
    pub(crate) size: f32,
    pub(crate) bold: bool,
    pub(crate) italic: bool,
    /// 0 is black, 1 white.
    pub(crate) gray: f32,
}

impl TextStyle {
    pub(crate) const fn regular(size: f32) -> Self {
        TextStyle { size, bold: false, italic: false, gray: 0.0 }
    }

    pub(crate) const fn bold(size: f32) -> Self {
        TextStyle { size, bold: true, italic: false, gray: 0.0 }
    }

    pub(crate) const fn with_gray(mut self, gray: f32) -> Self {
        self.gray = gray;
        self
    }
}

/// Which font a glyph is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum FontSlot {
    /// A face of the [`FontLibrary`]; glyph ids are the face's.
    Face(usize),
    /// The standard Courier (or Courier-Bold), WinAnsi-encoded; glyph ids are the codes.
    Courier { bold: bool },
}

/// One shaped glyph.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Glyph {
    pub(crate) font: FontSlot,
    pub(crate) id: u16,
    /// Points.
    pub(crate) advance: f32,
    pub(crate) dx: f32,
    pub(crate) dy: f32,
    /// Byte offset in the paragraph's text of the cluster the glyph belongs to.
    pub(crate) cluster: u32,
    pub(crate) style: TextStyle,
    /// Bold asked for but the face is not bold: drawn with a stroke.
    pub(crate) fake_bold: bool,
}

/// A paragraph's text and its glyphs in logical order.
#[derive(Debug, Clone)]
pub(crate) struct Shaped {
    pub(crate) text: Arc<str>,
    pub(crate) glyphs: Vec<Glyph>,
    /// Characters no font has, drawn as `?`.
    pub(crate) missing: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Strong(Script),
    Common,
    /// Combining marks and joiners: they belong to the character before them.
    Inherited,
    /// Line feeds and other controls: no glyph.
    Control,
}

fn classify(c: char) -> Class {
    let u = u32::from(c);
    match u {
        0x00..=0x1f | 0x7f..=0x9f | 0x2028 | 0x2029 => Class::Control,
        0x0300..=0x036f
        | 0x1ab0..=0x1aff
        | 0x1dc0..=0x1dff
        | 0x20d0..=0x20ff
        | 0xfe00..=0xfe0f
        | 0xfe20..=0xfe2f
        | 0x200c
        | 0x200d => Class::Inherited,
        0x41..=0x5a
        | 0x61..=0x7a
        | 0xaa
        | 0xba
        | 0xc0..=0xd6
        | 0xd8..=0xf6
        | 0xf8..=0x024f
        | 0x1e00..=0x1eff
        | 0x2c60..=0x2c7f
        | 0xa720..=0xa7ff
        | 0xfb00..=0xfb06 => Class::Strong(Script::Latin),
        0x0400..=0x052f | 0x1c80..=0x1c8f | 0x2de0..=0x2dff | 0xa640..=0xa69f => Class::Strong(Script::Cyrillic),
        0x0370..=0x03ff | 0x1f00..=0x1fff => Class::Strong(Script::Greek),
        0x0900..=0x097f | 0xa8e0..=0xa8ff | 0x1cd0..=0x1cff => Class::Strong(Script::Devanagari),
        0x2e80..=0x2fdf
        | 0x3000..=0x30ff
        | 0x3100..=0x312f
        | 0x3190..=0x31ff
        | 0x3400..=0x4dbf
        | 0x4e00..=0x9fff
        | 0xac00..=0xd7af
        | 0xf900..=0xfaff
        | 0xfe30..=0xfe4f
        | 0xff00..=0xffef
        | 0x20000..=0x3ffff => Class::Strong(Script::Cjk),
        _ => Class::Common,
    }
}

/// The WinAnsi code of a character, for the built-in fonts.
pub(crate) fn winansi(c: char) -> Option<u8> {
    let code = match c {
        ' '..='~' | '\u{a0}'..='\u{ff}' => return u8::try_from(u32::from(c)).ok(),
        '€' => 0x80,
        '‚' => 0x82,
        'ƒ' => 0x83,
        '„' => 0x84,
        '…' => 0x85,
        '†' => 0x86,
        '‡' => 0x87,
        'ˆ' => 0x88,
        '‰' => 0x89,
        'Š' => 0x8a,
        '‹' => 0x8b,
        'Œ' => 0x8c,
        'Ž' => 0x8e,
        '‘' => 0x91,
        '’' => 0x92,
        '“' => 0x93,
        '”' => 0x94,
        '•' => 0x95,
        '–' => 0x96,
        '—' => 0x97,
        '˜' => 0x98,
        '™' => 0x99,
        'š' => 0x9a,
        '›' => 0x9b,
        'œ' => 0x9c,
        'ž' => 0x9e,
        'Ÿ' => 0x9f,
        _ => return None,
    };
    Some(code)
}

/// A run of characters set in one font, script and style.
struct Run {
    range: Range<usize>,
    font: FontSlot,
    script: Script,
    style: TextStyle,
}

/// Shapes a paragraph. `styles` cover `text` in order; text outside them gets `fallback_style`.
pub(crate) fn shape(library: &FontLibrary, text: &str, styles: &[(Range<usize>, TextStyle)]) -> Shaped {
    let runs = itemize(library, text, styles);
    let mut shaped = Shaped { text: Arc::from(text), glyphs: Vec::with_capacity(text.len()), missing: 0 };
    for run in runs {
        let Some(slice) = text.get(run.range.clone()) else { continue };
        match run.font {
            FontSlot::Face(slot) => {
                let Some(face) = library.face(slot) else { continue };
                let scale = run.style.size / face.units_per_em;
                // Bold is simulated: the text faces come in one weight (see `fonts::Role`).
                let fake_bold = run.style.bold;
                let fast = face
                    .ascii_shaper
                    .as_ref()
                    .filter(|_| run.script == Script::Latin)
                    .and_then(|ascii| ascii.shape(slice.as_bytes()));
                if let Some(glyphs) = fast {
                    for (offset, (id, advance)) in glyphs.into_iter().enumerate() {
                        shaped.glyphs.push(Glyph {
                            font: run.font,
                            id,
                            advance: advance as f32 * scale,
                            dx: 0.0,
                            dy: 0.0,
                            cluster: u32::try_from(run.range.start + offset).unwrap_or(u32::MAX),
                            style: run.style,
                            fake_bold,
                        });
                    }
                    continue;
                }
                let Some(plan) = face.plan(run.script) else { continue };
                let mut buffer = rustybuzz::UnicodeBuffer::new();
                for (offset, c) in slice.char_indices() {
                    buffer.add(c, u32::try_from(run.range.start + offset).unwrap_or(u32::MAX));
                }
                buffer.set_direction(rustybuzz::Direction::LeftToRight);
                buffer.set_script(run.script.shaping_script());
                let output = rustybuzz::shape_with_plan(&face.shaper, plan, buffer);
                for (info, position) in output.glyph_infos().iter().zip(output.glyph_positions()) {
                    shaped.glyphs.push(Glyph {
                        font: run.font,
                        id: u16::try_from(info.glyph_id).unwrap_or(0),
                        advance: position.x_advance as f32 * scale,
                        dx: position.x_offset as f32 * scale,
                        dy: position.y_offset as f32 * scale,
                        cluster: info.cluster,
                        style: run.style,
                        fake_bold,
                    });
                }
            }
            FontSlot::Courier { .. } => {
                for (offset, c) in slice.char_indices() {
                    let id = match winansi(c) {
                        Some(code) => code,
                        None => {
                            shaped.missing += 1;
                            b'?'
                        }
                    };
                    shaped.glyphs.push(Glyph {
                        font: run.font,
                        id: u16::from(id),
                        advance: 0.6 * run.style.size,
                        dx: 0.0,
                        dy: 0.0,
                        cluster: u32::try_from(run.range.start + offset).unwrap_or(u32::MAX),
                        style: run.style,
                        fake_bold: false,
                    });
                }
            }
        }
    }
    shaped
}

fn itemize(library: &FontLibrary, text: &str, styles: &[(Range<usize>, TextStyle)]) -> Vec<Run> {
    let default_script = text
        .chars()
        .find_map(|c| match classify(c) {
            Class::Strong(script) => Some(script),
            _ => None,
        })
        .unwrap_or(Script::Latin);
    let mut runs: Vec<Run> = Vec::new();
    let mut script = default_script;
    let mut style_index = 0;
    let mut previous_font: Option<FontSlot> = None;
    for (offset, c) in text.char_indices() {
        while styles.get(style_index).is_some_and(|(range, _)| range.end <= offset) {
            style_index += 1;
        }
        let style = styles
            .get(style_index)
            .filter(|(range, _)| range.contains(&offset))
            .map_or(TextStyle::regular(10.0), |(_, style)| *style);
        let class = classify(c);
        if class == Class::Control {
            previous_font = None;
            continue;
        }
        if let Class::Strong(strong) = class {
            script = strong;
        }
        let font = match (class, previous_font) {
            (Class::Inherited, Some(font)) => font,
            (Class::Common, Some(font)) if has_char(library, font, c) && suits(library, font, script, style.bold) => {
                font
            }
            _ => choose_font(library, script, style.bold, c),
        };
        previous_font = Some(font);
        let end = offset + c.len_utf8();
        match runs.last_mut() {
            Some(run) if run.font == font && run.script == script && run.style == style && run.range.end == offset => {
                run.range.end = end;
            }
            _ => runs.push(Run { range: offset..end, font, script, style }),
        }
    }
    runs
}

/// Whether `font` is one the script's chain would pick from, for the weight asked.
fn suits(library: &FontLibrary, font: FontSlot, script: Script, bold: bool) -> bool {
    match font {
        FontSlot::Face(slot) => library.chain(script).contains(&Some(slot)),
        FontSlot::Courier { bold: courier_bold } => courier_bold == bold,
    }
}

fn has_char(library: &FontLibrary, font: FontSlot, c: char) -> bool {
    match font {
        FontSlot::Face(slot) => library.face(slot).is_some_and(|face| face.has_char(c)),
        FontSlot::Courier { .. } => winansi(c).is_some(),
    }
}

fn choose_font(library: &FontLibrary, script: Script, bold: bool, c: char) -> FontSlot {
    library
        .chain(script)
        .iter()
        .flatten()
        .copied()
        .find(|&slot| library.face(slot).is_some_and(|face| face.has_char(c)))
        .map_or(FontSlot::Courier { bold }, FontSlot::Face)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        assert_eq!(classify('a'), Class::Strong(Script::Latin));
        assert_eq!(classify('é'), Class::Strong(Script::Latin));
        assert_eq!(classify('Ж'), Class::Strong(Script::Cyrillic));
        assert_eq!(classify('क'), Class::Strong(Script::Devanagari));
        assert_eq!(classify('意'), Class::Strong(Script::Cjk));
        assert_eq!(classify('。'), Class::Strong(Script::Cjk));
        assert_eq!(classify('1'), Class::Common);
        assert_eq!(classify('\u{301}'), Class::Inherited);
        assert_eq!(classify('\n'), Class::Control);
    }

    #[test]
    fn winansi_codes() {
        assert_eq!(winansi('A'), Some(b'A'));
        assert_eq!(winansi('é'), Some(0xe9));
        assert_eq!(winansi('€'), Some(0x80));
        assert_eq!(winansi('Ж'), None);
    }

    /// The installed fonts, or `None` (with a note) where they are missing.
    fn system_fonts() -> Option<FontLibrary> {
        let library = FontLibrary::from_env();
        if library.covers_all_languages() {
            Some(library)
        } else {
            let required = std::env::var_os("CLICKWRAP_REQUIRE_VALIDATORS").is_some_and(|v| !v.is_empty() && v != "0");
            assert!(!required, "the Noto fonts are missing but CLICKWRAP_REQUIRE_VALIDATORS is set");
            use std::io::Write as _;
            let _ =
                writeln!(std::io::stderr(), "\n*** SKIPPED: the Noto fonts are not installed (CI installs them) ***\n");
            None
        }
    }

    #[test]
    fn devanagari_is_shaped_into_conjuncts_with_reordered_matras() {
        let Some(library) = system_fonts() else { return };
        let style = [(0..100, TextStyle::regular(10.0))];
        // क + ि: the vowel sign is drawn before the consonant, in the same cluster.
        let shaped = shape(&library, "कि", &style);
        assert_eq!(shaped.glyphs.len(), 2);
        assert!(shaped.glyphs.iter().all(|g| g.cluster == 0 && matches!(g.font, FontSlot::Face(_))));
        let face = match shaped.glyphs.first().map(|g| g.font) {
            Some(FontSlot::Face(slot)) => library.face(slot).unwrap(),
            other => panic!("{other:?}"),
        };
        let nominal = |c| face.shaper.glyph_index(c).unwrap().0;
        // The font may pick an i-matra variant that fits the consonant's width; the consonant is second.
        assert_ne!(shaped.glyphs.first().map(|g| g.id), Some(nominal('क')));
        assert_eq!(shaped.glyphs.get(1).map(|g| g.id), Some(nominal('क')));
        // क्ष (ka, virama, ssa) is one conjunct glyph.
        let conjunct = shape(&library, "क्ष", &style);
        assert_eq!(conjunct.glyphs.len(), 1, "{conjunct:?}");
        assert!(conjunct.glyphs.iter().all(|g| g.id != nominal('क') && g.id != nominal('ष')));
    }

    #[test]
    fn scripts_go_to_their_fonts() {
        let Some(library) = system_fonts() else { return };
        let text = "Terms Условия शर्तें 条款 1.";
        let shaped = shape(&library, text, &[(0..text.len(), TextStyle::regular(10.0))]);
        assert_eq!(shaped.missing, 0);
        let font_of = |needle: &str| {
            let at = u32::try_from(text.find(needle).unwrap()).unwrap();
            shaped.glyphs.iter().find(|g| g.cluster == at).map(|g| g.font)
        };
        assert_eq!(font_of("Terms"), font_of("Условия"));
        assert_ne!(font_of("Terms"), font_of("शर्तें"));
        assert_ne!(font_of("Terms"), font_of("条款"));
        assert_ne!(font_of("शर्तें"), font_of("条款"));
    }

    #[test]
    fn the_ascii_fast_path_gives_what_the_shaper_gives() {
        let Some(library) = system_fonts() else { return };
        let samples = [
            "Certificate of Acceptance",
            "AVATAR WAVE Type Tj Yo LT VA",
            "01927e3b-5c1a-7d2e-9f00-123456789abc 2026-03-04T10:15:42.125Z",
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0",
            "office affine fluff waffle",
        ];
        let mut fast_faces = 0;
        for slot in 0..library.faces.len() {
            let face = library.face(slot).unwrap();
            let (Some(ascii), Some(plan)) = (&face.ascii_shaper, face.plan(Script::Latin)) else { continue };
            fast_faces += 1;
            for sample in samples {
                let Some(fast) = ascii.shape(sample.as_bytes()) else { continue };
                let mut buffer = rustybuzz::UnicodeBuffer::new();
                buffer.push_str(sample);
                buffer.set_direction(rustybuzz::Direction::LeftToRight);
                buffer.set_script(Script::Latin.shaping_script());
                let full = rustybuzz::shape_with_plan(&face.shaper, plan, buffer);
                let full: Vec<(u16, i32)> = full
                    .glyph_infos()
                    .iter()
                    .zip(full.glyph_positions())
                    .map(|(info, position)| (u16::try_from(info.glyph_id).unwrap(), position.x_advance))
                    .collect();
                assert_eq!(fast, full, "{sample:?} in {:?}", face.path);
            }
        }
        assert!(fast_faces >= 1, "the Latin text faces use the fast path");
    }

    #[test]
    fn without_fonts_everything_is_courier() {
        let library = FontLibrary::builtin_only();
        let text = "Ab é Ж";
        let shaped = shape(&library, text, &[(0..text.len(), TextStyle::bold(10.0))]);
        assert_eq!(shaped.glyphs.len(), 6);
        assert!(shaped.glyphs.iter().all(|g| g.font == FontSlot::Courier { bold: true }));
        assert_eq!(shaped.missing, 1);
        assert_eq!(shaped.glyphs.last().map(|g| g.id), Some(u16::from(b'?')));
    }
}
