//! Slims a TrueType font subset for embedding (`/FontFile2` of a CID font with an Identity
//! `/CIDToGIDMap`): PDF viewers draw its glyphs by id from `glyf`, `loca`, `head`, `hhea`, `hmtx`
//! and `maxp`, the document supplying the widths and the Unicode map.
//!
//! What goes: the hinting (the `fpgm`, `prep` and `cvt ` programs and every glyph's
//! instructions), which grid-fits outlines at small pixel sizes on screens and is what PDF
//! renderers mostly ignore, and which is a third to a half of a hinted font's bytes; the glyph
//! names of `post` (version 3 keeps its metrics only); and of `name`, all but the copyright notice.

/// The tables kept, with `glyf`, `loca`, `post` and `name` rewritten.
const KEPT: [&[u8; 4]; 8] = [b"glyf", b"head", b"hhea", b"hmtx", b"loca", b"maxp", b"name", b"post"];

/// The slimmed font, or `None` when `font` is not a TrueType font this reads (then it is
/// embedded as it is).
pub(crate) fn slim_truetype(font: &[u8]) -> Option<Vec<u8>> {
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
    let table = |tag: &[u8; 4]| tables.iter().find(|(t, _)| t == tag).map(|(_, data)| *data);
    let mut head = table(b"head")?.to_vec();
    let long_loca = read_u16(&head, 50)? == 1;
    let glyph_count = usize::from(read_u16(table(b"maxp")?, 4)?);
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
            b"post" => post_v3(table(tag)?)?,
            b"name" => match table(tag).and_then(copyright_only) {
                Some(name) => name,
                None => continue,
            },
            _ => table(tag)?.to_vec(),
        };
        out_tables.push((*tag, data));
    }
    Some(write_sfnt(&out_tables))
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
        if glyph.is_empty() {
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

/// `post` version 3: the same metrics (italic angle, underline, fixed pitch), no glyph names.
fn post_v3(post: &[u8]) -> Option<Vec<u8>> {
    let mut out = post.get(..32)?.to_vec();
    out.get_mut(..4)?.copy_from_slice(&0x0003_0000_u32.to_be_bytes());
    // The memory hints of a Type 42 download: unknown.
    out.get_mut(16..32)?.fill(0);
    Some(out)
}

/// A `name` table (format 0) with only the copyright notices (name id 0), or `None` if it has
/// none.
fn copyright_only(name: &[u8]) -> Option<Vec<u8>> {
    if read_u16(name, 0)? != 0 {
        return None;
    }
    let count = usize::from(read_u16(name, 2)?);
    let storage = usize::from(read_u16(name, 4)?);
    let mut records = Vec::new();
    let mut strings = Vec::new();
    for index in 0..count {
        let record = name.get(6 + 12 * index..18 + 12 * index)?;
        if read_u16(record, 6)? != 0 {
            continue;
        }
        let length = usize::from(read_u16(record, 8)?);
        let start = storage + usize::from(read_u16(record, 10)?);
        let text = name.get(start..start + length)?;
        records.extend_from_slice(record.get(..8)?);
        records.extend_from_slice(&u16::try_from(length).ok()?.to_be_bytes());
        records.extend_from_slice(&u16::try_from(strings.len()).ok()?.to_be_bytes());
        strings.extend_from_slice(text);
    }
    if records.is_empty() {
        return None;
    }
    let kept = records.len() / 12;
    let mut out = Vec::with_capacity(6 + records.len() + strings.len());
    out.extend_from_slice(&0_u16.to_be_bytes());
    out.extend_from_slice(&u16::try_from(kept).ok()?.to_be_bytes());
    out.extend_from_slice(&u16::try_from(6 + records.len()).ok()?.to_be_bytes());
    out.extend_from_slice(&records);
    out.extend_from_slice(&strings);
    Some(out)
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
