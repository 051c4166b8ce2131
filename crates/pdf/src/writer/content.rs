//! A page's content stream: rules and text runs as PDF operators, with numbers written short.

use std::collections::HashMap;

use lopdf::Document;

use super::fonts::{UsedFont, used_font};
use super::{WriteError, utf16be};
use crate::fonts::{Face, FontLibrary};
use crate::layout::{Item, LineRun, Page};
use crate::text::FontSlot;

/// A page's content stream, uncompressed: its rules and text runs in order.
pub(super) fn page_content(
    library: &FontLibrary,
    page: &Page,
    doc: &mut Document,
    fonts: &mut HashMap<FontSlot, UsedFont>,
    font_order: &mut Vec<FontSlot>,
) -> Result<Vec<u8>, WriteError> {
    let mut out = Vec::with_capacity(4096);
    for item in &page.items {
        match item {
            Item::Rule { x1, y1, x2, y2, width, gray } => {
                out.extend_from_slice(b"q ");
                num(&mut out, *gray);
                out.extend_from_slice(b" G ");
                num(&mut out, *width);
                out.extend_from_slice(b" w ");
                position(&mut out, *x1);
                out.push(b' ');
                position(&mut out, *y1);
                out.extend_from_slice(b" m ");
                position(&mut out, *x2);
                out.push(b' ');
                position(&mut out, *y2);
                out.extend_from_slice(b" l S Q\n");
            }
            Item::Text { x, y, run } => {
                let used = used_font(run.font, doc, fonts, font_order)?;
                let face = match run.font {
                    FontSlot::Face(index) => library.face(index),
                    FontSlot::Courier { .. } => None,
                };
                text_run(&mut out, used, face, *x, *y, run)?;
            }
        }
    }
    Ok(out)
}

/// One run: `BT`, font, position, glyphs with their adjustments, `ET`. Its glyphs must have been
/// numbered by [`number_glyphs_in_text_order`]: a glyph first met here could take a number past
/// what the font's codes (one byte or two), its widths and its ToUnicode map were decided for.
fn text_run(
    out: &mut Vec<u8>,
    used: &mut UsedFont,
    face: Option<&Face>,
    x: f32,
    y: f32,
    run: &LineRun,
) -> Result<(), WriteError> {
    let size = run.style.size;
    // Subset glyph ids, widths as written to /W, and whether the text needs /ActualText.
    let mut glyphs: Vec<(u16, i32)> = Vec::with_capacity(run.glyphs.len());
    let mut actual_text = false;
    for glyph in &run.glyphs {
        match face {
            Some(face) => {
                let id = used.remapper.get(glyph.id).ok_or_else(|| {
                    WriteError::Font(format!("{}: glyph {} was not numbered", face.postscript_name, glyph.id))
                })?;
                let text = run.glyph_text(glyph);
                let index = usize::from(id);
                if used.to_unicode.len() <= index {
                    used.to_unicode.resize(index + 1, None);
                }
                if glyph.shared_cluster {
                    // Several glyphs for one cluster (a reordered matra, a split vowel): map each
                    // glyph to the character it is the plain form of, if any, and give the
                    // cluster's text in logical order as /ActualText.
                    actual_text = true;
                    if let Some(entry @ None) = used.to_unicode.get_mut(index) {
                        let plain = text.chars().find(|&c| face.shaper.glyph_index(c).map(|g| g.0) == Some(glyph.id));
                        *entry = plain.map(String::from);
                    }
                } else {
                    match used.to_unicode.get_mut(index) {
                        Some(Some(registered)) if registered != text => actual_text = true,
                        Some(entry @ None) => *entry = Some(text.to_owned()),
                        _ => {}
                    }
                }
                glyphs.push((id, face.width_1000(glyph.id)));
            }
            None => glyphs.push((glyph.id, 600)),
        }
    }

    let styled = run.style.gray > 0.0 || run.fake_bold;
    if styled {
        out.extend_from_slice(b"q ");
        num(out, run.style.gray);
        out.extend_from_slice(b" g ");
        if run.fake_bold {
            num(out, run.style.gray);
            out.extend_from_slice(b" G ");
            num(out, size * 0.035);
            out.extend_from_slice(b" w 2 Tr ");
        }
    }
    out.extend_from_slice(b"BT /");
    out.extend_from_slice(used.name.as_bytes());
    out.push(b' ');
    num(out, size);
    out.extend_from_slice(b" Tf ");
    // Upright text is moved to its place (`Td` from the origin that `BT` starts at), italic text
    // is slanted with a text matrix.
    if run.style.italic {
        out.extend_from_slice(b"1 0 0.2 1 ");
    }
    position(out, x);
    out.push(b' ');
    position(out, y);
    out.extend_from_slice(if run.style.italic { b" Tm\n" } else { b" Td\n" });
    if actual_text {
        out.extend_from_slice(b"/Span<</ActualText<");
        hex(out, &utf16be(run.text()));
        out.extend_from_slice(b">>>BDC\n");
    }

    // Glyph codes as literal strings of bytes (two per glyph in the Type 0 fonts, Identity-H):
    // half the size of hex before compression, and smaller after it.
    let two_bytes = face.is_some() && !used.one_byte_codes;
    let mut cursor = 0.0_f32;
    let mut rise = 0.0_f32;
    let mut open = false;
    let mut in_string = false;
    for (glyph, (id, width)) in run.glyphs.iter().zip(&glyphs) {
        if (glyph.dy - rise).abs() > 0.001 {
            if in_string {
                out.push(b')');
                in_string = false;
            }
            if open {
                out.extend_from_slice(b"]TJ ");
                open = false;
            }
            num(out, glyph.dy);
            out.extend_from_slice(b" Ts ");
            rise = glyph.dy;
        }
        if !open {
            out.push(b'[');
            open = true;
        }
        let delta = glyph.x - cursor;
        if delta.abs() > size * 0.0005 {
            if in_string {
                out.push(b')');
                in_string = false;
            }
            // In thousandths of the font size: whole ones are exact to a two-hundredth of a point.
            num(out, (-delta * 1000.0 / size).round());
        }
        if !in_string {
            out.push(b'(');
            in_string = true;
        }
        let bytes = id.to_be_bytes();
        literal(out, if two_bytes { &bytes } else { bytes.get(1..).unwrap_or_default() });
        cursor = glyph.x + *width as f32 * size / 1000.0;
    }
    if in_string {
        out.push(b')');
    }
    if open {
        out.extend_from_slice(b"]TJ");
    }
    if rise != 0.0 {
        out.extend_from_slice(b" 0 Ts");
    }
    if actual_text {
        out.extend_from_slice(b" EMC");
    }
    out.extend_from_slice(b" ET");
    if styled {
        // `Q` restores the text rendering mode with the rest of the graphics state.
        out.extend_from_slice(b" Q");
    }
    out.push(b'\n');
    Ok(())
}

/// Bytes in a literal string: parentheses and backslashes escaped, and carriage returns, which a
/// reader would take for a line end.
fn literal(out: &mut Vec<u8>, bytes: &[u8]) {
    for &byte in bytes {
        match byte {
            b'(' | b')' | b'\\' => out.extend_from_slice(&[b'\\', byte]),
            b'\r' => out.extend_from_slice(b"\\r"),
            _ => out.push(byte),
        }
    }
}

fn hex(out: &mut Vec<u8>, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    for byte in bytes {
        out.push(DIGITS.get(usize::from(byte >> 4)).copied().unwrap_or(b'0'));
        out.push(DIGITS.get(usize::from(byte & 0x0f)).copied().unwrap_or(b'0'));
    }
}

/// A place on the page, to a tenth of a point (1/28 mm: finer than any printer or screen shows).
fn position(out: &mut Vec<u8>, value: f32) {
    num(out, (value * 10.0).round() / 10.0);
}

/// A number with at most two decimals, without trailing zeros.
fn num(out: &mut Vec<u8>, value: f32) {
    let hundredths = (f64::from(value) * 100.0).round() as i64;
    if hundredths < 0 {
        out.push(b'-');
    }
    let magnitude = hundredths.unsigned_abs();
    let mut digits = [0_u8; 20];
    let mut start = digits.len();
    let mut whole = magnitude / 100;
    loop {
        start -= 1;
        if let Some(digit) = digits.get_mut(start) {
            *digit = b'0' + u8::try_from(whole % 10).unwrap_or(0);
        }
        whole /= 10;
        if whole == 0 || start == 0 {
            break;
        }
    }
    out.extend_from_slice(digits.get(start..).unwrap_or_default());
    let fraction = magnitude % 100;
    if fraction != 0 {
        out.push(b'.');
        out.push(b'0' + u8::try_from(fraction / 10).unwrap_or(0));
        if !fraction.is_multiple_of(10) {
            out.push(b'0' + u8::try_from(fraction % 10).unwrap_or(0));
        }
    }
}

#[cfg(test)]
mod tests {
    use subsetter::GlyphRemapper;

    use super::*;

    #[test]
    fn numbers_are_short() {
        let cases = [(0.0, "0"), (1.0, "1"), (-2.5, "-2.5"), (10.126, "10.13"), (-0.004, "0"), (595.276, "595.28")];
        for (value, expected) in cases {
            let mut out = Vec::new();
            num(&mut out, value);
            assert_eq!(String::from_utf8(out).unwrap(), expected, "{value}");
        }
    }

    #[test]
    fn a_run_writes_only_glyphs_numbered_before_the_content() {
        let library = FontLibrary::from_env();
        let Some((index, face)) = (0..8).find_map(|slot| library.face(slot).map(|face| (slot, face))) else {
            return;
        };
        let Some(a) = face.shaper.glyph_index('a').map(|glyph| glyph.0) else { return };
        let run = LineRun {
            font: FontSlot::Face(index),
            style: crate::text::TextStyle::regular(10.0),
            fake_bold: false,
            x: 0.0,
            glyphs: vec![crate::layout::RunGlyph { id: a, x: 0.0, dy: 0.0, text: 0..1, shared_cluster: false }],
            source: "a".into(),
            text: 0..1,
            width: 5.0,
        };
        let mut used = UsedFont {
            name: "F0".to_owned(),
            id: (1, 0),
            remapper: GlyphRemapper::new(),
            to_unicode: Vec::new(),
            one_byte_codes: true,
        };
        // Not numbered: numbering it now could take a code the font was not decided for.
        let mut out = Vec::new();
        assert!(text_run(&mut out, &mut used, Some(face), 0.0, 0.0, &run).is_err());
        // Numbered: its one-byte code.
        let code = used.remapper.remap(a);
        text_run(&mut out, &mut used, Some(face), 0.0, 0.0, &run).unwrap();
        let content = String::from_utf8_lossy(&out);
        assert!(content.contains(&format!("[({})]TJ", char::from(u8::try_from(code).unwrap()))), "{content}");
        assert_eq!(used.remapper.num_gids(), 2);
    }
}
