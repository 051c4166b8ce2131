//! Slims a TrueType font subset for embedding (`/FontFile2` of a CID font with an Identity
//! `/CIDToGIDMap`): PDF viewers draw its glyphs by id from `glyf`, `loca`, `head`, `hhea`, `hmtx`
//! and `maxp`, the document supplying the widths and the Unicode map.
//!
//! What goes: the hinting (the `fpgm`, `prep` and `cvt ` programs and every glyph's
//! instructions), which grid-fits outlines at small pixel sizes on screens and is what PDF
//! renderers mostly ignore, and which is a third to a half of a hinted font's bytes; the `post`
//! and `name` tables (glyph names and notices, which PDF does not use; the licences of the fonts
//! looked for let a font embedded in a document go without its notices); the advance widths but
//! one (the PDF's `/W` array gives every glyph's width, which viewers use; the outlines' side
//! bearings stay); and the outline of `.notdef`, which a document never shows (a character no
//! font has is drawn as `?`).
//!
//! A subset of 256 glyphs or fewer is embedded as a simple TrueType font instead, whose text takes
//! one byte a glyph rather than two: [`with_byte_cmap`] gives it the (1, 0) `cmap` through which
//! a viewer finds glyph `n` for byte `n` (PDF 32000-1, 9.6.6.4).

/// The tables kept, with `glyf`, `loca`, `hhea` and `hmtx` rewritten.
const KEPT: [&[u8; 4]; 6] = [b"glyf", b"head", b"hhea", b"hmtx", b"loca", b"maxp"];

/// The slimmed font, or `None` when `font` is not a TrueType font this reads (then it is
/// embedded as it is).
pub(crate) fn slim_truetype(font: &[u8]) -> Option<Vec<u8>> {
    let tables = read_tables(font)?;
    let table = |tag: &[u8; 4]| tables.iter().find(|(t, _)| t == tag).map(|(_, data)| *data);
    let mut head = table(b"head")?.to_vec();
    let long_loca = read_u16(&head, 50)? == 1;
    let glyph_count = usize::from(read_u16(table(b"maxp")?, 4)?);
    let (hhea, hmtx) = one_advance(table(b"hhea")?, table(b"hmtx")?, glyph_count)?;
    let (glyf, loca, long_loca) = strip_instructions(table(b"glyf")?, table(b"loca")?, long_loca, glyph_count)?;
    head.get_mut(50..52)?.copy_from_slice(&u16::from(long_loca).to_be_bytes());
    // The checksum adjustment is computed over the whole font, with itself zero.
    head.get_mut(8..12)?.fill(0);

    let mut out_tables: Vec<([u8; 4], Vec<u8>)> = Vec::with_capacity(KEPT.len());
    for tag in KEPT {
        let data = match tag {
            b"glyf" => glyf.clone(),
            b"loca" => loca.clone(),
            b"head" => head.clone(),
            b"hhea" => hhea.clone(),
            b"hmtx" => hmtx.clone(),
            _ => table(tag)?.to_vec(),
        };
        out_tables.push((*tag, data));
    }
    Some(write_sfnt(&out_tables))
}

/// The font with a `cmap` of one subtable, (1, 0) format 0, mapping each byte `n` below the font's
/// glyph count to glyph `n` (and every other byte to `.notdef`); `None` when `font` is not a
/// TrueType font this reads, or has more than 256 glyphs.
pub(crate) fn with_byte_cmap(font: &[u8]) -> Option<Vec<u8>> {
    let tables = read_tables(font)?;
    let maxp = tables.iter().find(|(tag, _)| tag == b"maxp")?.1;
    let glyph_count = usize::from(read_u16(maxp, 4)?);
    if glyph_count > 256 {
        return None;
    }
    let mut cmap = Vec::with_capacity(12 + 262);
    // Version 0, one encoding record: Macintosh (1), Roman (0), its subtable at offset 12.
    for value in [0_u16, 1, 1, 0] {
        cmap.extend_from_slice(&value.to_be_bytes());
    }
    cmap.extend_from_slice(&12_u32.to_be_bytes());
    // Format 0: length 262, language 0, then a glyph id for each of the 256 byte values.
    for value in [0_u16, 262, 0] {
        cmap.extend_from_slice(&value.to_be_bytes());
    }
    cmap.extend((0..256_usize).map(|byte| if byte < glyph_count { u8::try_from(byte).unwrap_or(0) } else { 0 }));

    let mut out_tables: Vec<([u8; 4], Vec<u8>)> =
        tables.iter().filter(|(tag, _)| tag != b"cmap").map(|(tag, data)| (*tag, data.to_vec())).collect();
    out_tables.push((*b"cmap", cmap));
    if let Some((_, head)) = out_tables.iter_mut().find(|(tag, _)| tag == b"head") {
        head.get_mut(8..12)?.fill(0);
    }
    Some(write_sfnt(&out_tables))
}

/// The tables of a TrueType font (`0x00010000` outlines), by tag.
fn read_tables(font: &[u8]) -> Option<Vec<([u8; 4], &[u8])>> {
    if read_u32(font, 0)? != 0x0001_0000 {
        return None;
    }
    let count = usize::from(read_u16(font, 4)?);
    let mut tables: Vec<([u8; 4], &[u8])> = Vec::with_capacity(count);
    for index in 0..count {
        let record = font.get(12 + 16 * index..28 + 16 * index)?;
        let tag: [u8; 4] = record.get(..4)?.try_into().ok()?;
        let offset = usize::try_from(read_u32(record, 8)?).ok()?;
        let length = usize::try_from(read_u32(record, 12)?).ok()?;
        tables.push((tag, font.get(offset..offset.checked_add(length)?)?));
    }
    Some(tables)
}

/// `glyf` without instructions and its new `loca` (short when it fits).
fn strip_instructions(
    glyf: &[u8],
    loca: &[u8],
    long_loca: bool,
    glyph_count: usize,
) -> Option<(Vec<u8>, Vec<u8>, bool)> {
    let offset = |index: usize| -> Option<usize> {
        if long_loca {
            usize::try_from(read_u32(loca, 4 * index)?).ok()
        } else {
            Some(usize::from(read_u16(loca, 2 * index)?) * 2)
        }
    };
    let mut out = Vec::with_capacity(glyf.len());
    let mut offsets = Vec::with_capacity(glyph_count + 1);
    for index in 0..glyph_count {
        offsets.push(out.len());
        let glyph = glyf.get(offset(index)?..offset(index + 1)?)?;
        if glyph.is_empty() || index == 0 {
            continue;
        }
        let contours = i16::from_be_bytes([*glyph.first()?, *glyph.get(1)?]);
        if contours >= 0 {
            // Header (10 bytes), end points of the contours, instruction length and instructions.
            let at = 10 + 2 * usize::try_from(contours).ok()?;
            let instructions = usize::from(read_u16(glyph, at)?);
            out.extend_from_slice(glyph.get(..at)?);
            out.extend_from_slice(&[0, 0]);
            out.extend_from_slice(glyph.get(at + 2 + instructions..)?);
        } else {
            out.extend_from_slice(&composite_without_instructions(glyph)?);
        }
        // Short `loca` counts in words.
        if out.len() % 2 == 1 {
            out.push(0);
        }
    }
    offsets.push(out.len());
    let short = out.len() / 2 <= usize::from(u16::MAX);
    let mut loca = Vec::with_capacity(offsets.len() * if short { 2 } else { 4 });
    for offset in offsets {
        if short {
            loca.extend_from_slice(&u16::try_from(offset / 2).ok()?.to_be_bytes());
        } else {
            loca.extend_from_slice(&u32::try_from(offset).ok()?.to_be_bytes());
        }
    }
    Some((out, loca, !short))
}

/// A composite glyph: its components, the "we have instructions" flag cleared and the
/// instructions after the last one dropped.
fn composite_without_instructions(glyph: &[u8]) -> Option<Vec<u8>> {
    const ARG_1_AND_2_ARE_WORDS: u16 = 0x0001;
    const WE_HAVE_A_SCALE: u16 = 0x0008;
    const MORE_COMPONENTS: u16 = 0x0020;
    const WE_HAVE_AN_X_AND_Y_SCALE: u16 = 0x0040;
    const WE_HAVE_A_TWO_BY_TWO: u16 = 0x0080;
    const WE_HAVE_INSTRUCTIONS: u16 = 0x0100;
    let mut out = glyph.get(..10)?.to_vec();
    let mut at = 10;
    loop {
        let flags = read_u16(glyph, at)?;
        let mut len = 4 + if flags & ARG_1_AND_2_ARE_WORDS != 0 { 4 } else { 2 };
        if flags & WE_HAVE_A_SCALE != 0 {
            len += 2;
        } else if flags & WE_HAVE_AN_X_AND_Y_SCALE != 0 {
            len += 4;
        } else if flags & WE_HAVE_A_TWO_BY_TWO != 0 {
            len += 8;
        }
        out.extend_from_slice(&(flags & !WE_HAVE_INSTRUCTIONS).to_be_bytes());
        out.extend_from_slice(glyph.get(at + 2..at + len)?);
        at += len;
        if flags & MORE_COMPONENTS == 0 {
            return Some(out);
        }
    }
}

/// `hhea` and `hmtx` with one advance width (the first glyph's) and every glyph's left side
/// bearing: `numberOfHMetrics` 1.
fn one_advance(hhea: &[u8], hmtx: &[u8], glyph_count: usize) -> Option<(Vec<u8>, Vec<u8>)> {
    let metrics = usize::from(read_u16(hhea, 34)?);
    let bearing = |glyph: usize| -> Option<[u8; 2]> {
        let at = if glyph < metrics { 4 * glyph + 2 } else { 4 * metrics + 2 * (glyph - metrics) };
        hmtx.get(at..at + 2)?.try_into().ok()
    };
    let mut out = hmtx.get(..4)?.to_vec();
    for glyph in 1..glyph_count {
        out.extend_from_slice(&bearing(glyph)?);
    }
    let mut hhea = hhea.to_vec();
    hhea.get_mut(34..36)?.copy_from_slice(&1_u16.to_be_bytes());
    Some((hhea, out))
}

/// The font file: the table directory, sorted by tag, and the tables, each 4-byte aligned, with
/// their checksums and the `head` checksum adjustment.
fn write_sfnt(tables: &[([u8; 4], Vec<u8>)]) -> Vec<u8> {
    let mut sorted: Vec<&([u8; 4], Vec<u8>)> = tables.iter().collect();
    sorted.sort_by_key(|(tag, _)| *tag);
    let count = u16::try_from(sorted.len()).unwrap_or(u16::MAX);
    let entry_selector = u16::try_from(count.max(1).ilog2()).unwrap_or(0);
    let search_range = (1_u16 << entry_selector) * 16;
    let mut out = Vec::new();
    out.extend_from_slice(&0x0001_0000_u32.to_be_bytes());
    for value in [count, search_range, entry_selector, count * 16 - search_range] {
        out.extend_from_slice(&value.to_be_bytes());
    }
    let mut offset = 12 + 16 * sorted.len();
    let mut head_at = None;
    for (tag, data) in &sorted {
        out.extend_from_slice(tag);
        out.extend_from_slice(&checksum(data).to_be_bytes());
        out.extend_from_slice(&u32::try_from(offset).unwrap_or(u32::MAX).to_be_bytes());
        out.extend_from_slice(&u32::try_from(data.len()).unwrap_or(u32::MAX).to_be_bytes());
        if tag == b"head" {
            head_at = Some(offset);
        }
        offset += data.len().next_multiple_of(4);
    }
    for (_, data) in &sorted {
        out.extend_from_slice(data);
        out.resize(out.len().next_multiple_of(4), 0);
    }
    if let Some(at) = head_at {
        let whole = 0xB1B0_AFBA_u32.wrapping_sub(checksum(&out));
        if let Some(adjustment) = out.get_mut(at + 8..at + 12) {
            adjustment.copy_from_slice(&whole.to_be_bytes());
        }
    }
    out
}

/// The sum of the big-endian 32-bit words, zero-padded.
fn checksum(data: &[u8]) -> u32 {
    data.chunks(4).fold(0_u32, |sum, chunk| {
        let mut word = [0_u8; 4];
        word.get_mut(..chunk.len()).unwrap_or_default().copy_from_slice(chunk);
        sum.wrapping_add(u32::from_be_bytes(word))
    })
}

fn read_u16(data: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(data.get(at..at + 2)?.try_into().ok()?))
}

fn read_u32(data: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(data.get(at..at + 4)?.try_into().ok()?))
}

#[cfg(test)]
mod tests {
    use rustybuzz::ttf_parser;
    use subsetter::GlyphRemapper;

    use super::*;

    /// Records an outline as text, to compare two.
    #[derive(Default)]
    struct Path(Vec<String>);

    impl ttf_parser::OutlineBuilder for Path {
        fn move_to(&mut self, x: f32, y: f32) {
            self.0.push(format!("M{x},{y}"));
        }
        fn line_to(&mut self, x: f32, y: f32) {
            self.0.push(format!("L{x},{y}"));
        }
        fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
            self.0.push(format!("Q{x1},{y1},{x},{y}"));
        }
        fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
            self.0.push(format!("C{x1},{y1},{x2},{y2},{x},{y}"));
        }
        fn close(&mut self) {
            self.0.push("Z".to_owned());
        }
    }

    #[test]
    fn a_byte_cmap_maps_each_byte_to_the_glyph_of_that_number() {
        let library = crate::FontLibrary::from_env();
        let Some(face) = (0..8).filter_map(|slot| library.face(slot)).find(|face| !face.cff) else {
            return;
        };
        let glyphs: Vec<u16> = "Bytes: abc".chars().filter_map(|c| face.shaper.glyph_index(c)).map(|g| g.0).collect();
        let subset = subsetter::subset(face.data, face.index, &GlyphRemapper::new_from_glyphs(&glyphs)).unwrap();
        let font = with_byte_cmap(&slim_truetype(&subset).unwrap()).unwrap();
        let parsed = ttf_parser::Face::parse(&font, 0).unwrap();
        let count = parsed.number_of_glyphs();
        let table = parsed.tables().cmap.unwrap().subtables.into_iter().next().unwrap();
        assert_eq!((table.platform_id, table.encoding_id), (ttf_parser::PlatformId::Macintosh, 0));
        for byte in 0..=255_u32 {
            let expected = if byte < u32::from(count) { byte } else { 0 };
            assert_eq!(table.glyph_index(byte).map_or(0, |g| u32::from(g.0)), expected, "byte {byte}");
        }
        // A font of more glyphs than a byte can number gets no such map.
        let many: Vec<u16> = (1..300).collect();
        let big = subsetter::subset(face.data, face.index, &GlyphRemapper::new_from_glyphs(&many)).unwrap();
        assert!(with_byte_cmap(&big).is_none());
    }

    #[test]
    fn a_slimmed_subset_has_the_same_outlines_without_hinting() {
        let library = crate::FontLibrary::from_env();
        let Some(face) = (0..8).filter_map(|slot| library.face(slot)).find(|face| !face.cff) else {
            let required = std::env::var_os("CLICKWRAP_REQUIRE_VALIDATORS").is_some_and(|v| !v.is_empty() && v != "0");
            assert!(!required, "no TrueType font is installed");
            return;
        };
        // Composite glyphs (accented letters) among them.
        let glyphs: Vec<u16> = "Slim fonts: Größe, café, Жж 0123"
            .chars()
            .filter_map(|c| face.shaper.glyph_index(c))
            .map(|g| g.0)
            .collect();
        let subset = subsetter::subset(face.data, face.index, &GlyphRemapper::new_from_glyphs(&glyphs)).unwrap();
        let slim = slim_truetype(&subset).unwrap();
        assert!(slim.len() < subset.len(), "{} bytes, {} before", slim.len(), subset.len());

        let before = ttf_parser::Face::parse(&subset, 0).unwrap();
        let after = ttf_parser::Face::parse(&slim, 0).unwrap();
        assert_eq!(before.number_of_glyphs(), after.number_of_glyphs());
        for tag in [b"fpgm", b"prep", b"cvt ", b"name", b"post"] {
            assert!(after.raw_face().table(ttf_parser::Tag::from_bytes(tag)).is_none(), "{tag:?}");
        }
        for id in 1..before.number_of_glyphs() {
            let (mut old, mut new) = (Path::default(), Path::default());
            let old_box = before.outline_glyph(ttf_parser::GlyphId(id), &mut old);
            let new_box = after.outline_glyph(ttf_parser::GlyphId(id), &mut new);
            assert_eq!(old_box, new_box, "glyph {id}");
            assert_eq!(old.0, new.0, "glyph {id}");
            assert_eq!(
                before.glyph_hor_side_bearing(ttf_parser::GlyphId(id)),
                after.glyph_hor_side_bearing(ttf_parser::GlyphId(id)),
                "glyph {id}"
            );
        }
    }
}
