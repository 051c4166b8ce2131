//! The document's fonts: each font's entry on first use, the numbering of an embedded face's
//! glyphs in text order, and the dictionaries of the fonts as written: the standard Courier, or an
//! embedded subset (its font program, widths and ToUnicode CMap).

use std::collections::HashMap;

use lopdf::{Dictionary, Document, Object, ObjectId};
use rustybuzz::ttf_parser;
use subsetter::GlyphRemapper;

use super::{Level, WriteError, deflate, flate_stream};
use crate::fonts::{Face, FontLibrary, FontProgram};
use crate::layout::{Item, Page};
use crate::text::FontSlot;

/// A font as used in this document.
pub(super) struct UsedFont {
    pub(super) name: String,
    pub(super) id: ObjectId,
    /// Embedded faces: original glyph ids to the subset's.
    pub(super) remapper: GlyphRemapper,
    /// By subset glyph id: the text the glyph stands for.
    pub(super) to_unicode: Vec<Option<String>>,
    /// Whether its text is one byte a glyph (a simple TrueType font) rather than two (Type 0):
    /// decided once every glyph of the document is numbered.
    pub(super) one_byte_codes: bool,
}

pub(super) fn courier(bold: bool) -> Dictionary {
    let mut dict = Dictionary::new();
    dict.set("Type", "Font");
    dict.set("Subtype", "Type1");
    dict.set("BaseFont", if bold { "Courier-Bold" } else { "Courier" });
    dict.set("Encoding", "WinAnsiEncoding");
    dict
}

/// The font dictionary of an embedded subset: a simple TrueType font when its glyphs are numbered
/// by one byte, else a Type 0 font with an Identity-H encoding over a CID font.
pub(super) fn embedded_font(
    doc: &mut Document,
    library: &FontLibrary,
    slot: usize,
    face: &Face,
    used: &UsedFont,
) -> Result<Dictionary, WriteError> {
    let base_font = format!("{}+{}", subset_tag(&face.postscript_name, &used.remapper), face.postscript_name);
    let glyphs: Vec<u16> = used.remapper.remapped_gids().collect();
    let program = library.program(slot, glyphs, || font_program(face, &used.remapper, used.one_byte_codes))?;
    let mut dict = Dictionary::new();
    if face.cff {
        dict.set("Subtype", "CIDFontType0C");
    } else {
        dict.set("Length1", i64::try_from(program.length).unwrap_or(i64::MAX));
    }
    let font_file_id = doc.try_add_object(flate_stream(dict, program.compressed.clone())?)?;

    let mut descriptor = Dictionary::new();
    descriptor.set("Type", "FontDescriptor");
    descriptor.set("FontName", Object::Name(base_font.as_bytes().to_vec()));
    descriptor.set("Flags", 4);
    descriptor.set("FontBBox", face.bbox.iter().map(|&v| Object::Integer(v.round() as i64)).collect::<Vec<_>>());
    descriptor.set("ItalicAngle", 0);
    descriptor.set("Ascent", face.ascent.round() as i64);
    descriptor.set("Descent", face.descent.round() as i64);
    descriptor.set("CapHeight", face.cap_height.round() as i64);
    descriptor.set("StemV", 80);
    descriptor.set(if face.cff { "FontFile3" } else { "FontFile2" }, font_file_id);
    let descriptor_id = doc.try_add_object(descriptor)?;

    let widths: Vec<Object> =
        used.remapper.remapped_gids().map(|old| Object::Integer(i64::from(face.width_1000(old)))).collect();
    // Documents with the same text in a subset have the same map: compressed once.
    let to_unicode = library.to_unicode(&used.to_unicode, used.one_byte_codes, || {
        deflate(&to_unicode_cmap(&used.to_unicode, used.one_byte_codes), Level::Best)
    })?;
    let to_unicode_id = doc.try_add_object(flate_stream(Dictionary::new(), to_unicode.to_vec())?)?;

    let mut font = Dictionary::new();
    font.set("Type", "Font");
    if used.one_byte_codes {
        // Symbolic (descriptor flag 4) and without /Encoding: byte n is glyph n, through the
        // font's (1, 0) cmap.
        font.set("Subtype", "TrueType");
        font.set("BaseFont", Object::Name(base_font.into_bytes()));
        font.set("FirstChar", 0);
        font.set("LastChar", i64::try_from(widths.len()).unwrap_or(1) - 1);
        font.set("Widths", widths);
        font.set("FontDescriptor", descriptor_id);
        font.set("ToUnicode", to_unicode_id);
        return Ok(font);
    }
    let mut cid_system_info = Dictionary::new();
    cid_system_info.set("Registry", Object::string_literal("Adobe"));
    cid_system_info.set("Ordering", Object::string_literal("Identity"));
    cid_system_info.set("Supplement", 0);
    let mut cid_font = Dictionary::new();
    cid_font.set("Type", "Font");
    cid_font.set("Subtype", if face.cff { "CIDFontType0" } else { "CIDFontType2" });
    cid_font.set("BaseFont", Object::Name(base_font.as_bytes().to_vec()));
    cid_font.set("CIDSystemInfo", cid_system_info);
    cid_font.set("FontDescriptor", descriptor_id);
    cid_font.set("DW", 1000);
    cid_font.set("W", vec![Object::Integer(0), Object::Array(widths)]);
    if !face.cff {
        cid_font.set("CIDToGIDMap", "Identity");
    }
    let cid_font_id = doc.try_add_object(cid_font)?;

    font.set("Subtype", "Type0");
    font.set("BaseFont", Object::Name(base_font.into_bytes()));
    font.set("Encoding", "Identity-H");
    font.set("DescendantFonts", vec![Object::Reference(cid_font_id)]);
    font.set("ToUnicode", to_unicode_id);
    Ok(font)
}

/// The subset of the face's font program (for CFF outlines, the bare CFF table), compressed; with
/// `byte_cmap`, the map from one-byte codes to its glyphs that a simple TrueType font needs.
fn font_program(face: &Face, remapper: &GlyphRemapper, byte_cmap: bool) -> Result<FontProgram, WriteError> {
    let subset = subsetter::subset(face.data, face.index, remapper)
        .map_err(|e| WriteError::Font(format!("{}: {e}", face.postscript_name)))?;
    let slim;
    let program: &[u8] = if face.cff {
        let raw = ttf_parser::RawFace::parse(&subset, 0).map_err(|e| WriteError::Font(e.to_string()))?;
        raw.table(ttf_parser::Tag::from_bytes(b"CFF ")).ok_or(WriteError::Font("no CFF table".to_owned()))?
    } else {
        let slimmed = crate::sfnt::slim_truetype(&subset);
        let slimmed = slimmed.as_deref().unwrap_or(&subset);
        slim = if byte_cmap {
            crate::sfnt::with_byte_cmap(slimmed)
                .ok_or_else(|| WriteError::Font(format!("{}: no one-byte cmap", face.postscript_name)))?
        } else {
            slimmed.to_vec()
        };
        &slim
    };
    Ok(FontProgram { compressed: deflate(program, Level::Best)?, length: program.len() })
}

/// Six capital letters that name the subset, derived from the glyphs in it.
fn subset_tag(name: &str, remapper: &GlyphRemapper) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |byte: u8| {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    };
    name.bytes().for_each(&mut mix);
    for gid in remapper.remapped_gids() {
        gid.to_be_bytes().into_iter().for_each(&mut mix);
    }
    (0..6).map(|i| char::from(b'A' + u8::try_from((hash >> (i * 5)) % 26).unwrap_or(0))).collect()
}

/// The ToUnicode CMap: from glyph codes (one byte or two, as the font's text is written) to text.
fn to_unicode_cmap(registry: &[Option<String>], one_byte_codes: bool) -> Vec<u8> {
    let mut out = String::with_capacity(256 + registry.len() * 24);
    out.push_str(
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n\
         /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n\
         /CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n",
    );
    out.push_str(if one_byte_codes {
        "1 begincodespacerange\n<00> <FF>\nendcodespacerange\n"
    } else {
        "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n"
    });
    let code = |gid: usize| if one_byte_codes { format!("{gid:02X}") } else { format!("{gid:04X}") };
    let entries: Vec<(usize, &String)> = registry
        .iter()
        .enumerate()
        .filter_map(|(gid, text)| text.as_ref().filter(|text| !text.is_empty()).map(|text| (gid, text)))
        .collect();
    // Runs of consecutive glyph ids standing for consecutive characters (one UTF-16 unit each,
    // within one block of 256 on both sides) become ranges.
    let single_unit = |text: &str| {
        let mut units = text.encode_utf16();
        units.next().filter(|_| units.next().is_none())
    };
    let mut ranges: Vec<(usize, usize, u16)> = Vec::new();
    let mut chars: Vec<(usize, &String)> = Vec::new();
    let mut index = 0;
    while let Some(&(gid, text)) = entries.get(index) {
        let mut end = index;
        if let Some(unit) = single_unit(text) {
            while let Some(&(next_gid, next_text)) = entries.get(end + 1) {
                let step = next_gid - gid;
                let continues = next_gid >> 8 == gid >> 8
                    && next_gid == gid + (end + 1 - index)
                    && single_unit(next_text)
                        .is_some_and(|next| usize::from(next) == usize::from(unit) + step && next >> 8 == unit >> 8);
                if !continues {
                    break;
                }
                end += 1;
            }
            if end > index {
                ranges.push((gid, gid + (end - index), unit));
            }
        }
        if end == index {
            chars.push((gid, text));
        }
        index = end + 1;
    }
    for chunk in chars.chunks(100) {
        out.push_str(&format!("{} beginbfchar\n", chunk.len()));
        for (gid, text) in chunk {
            out.push_str(&format!("<{}> <", code(*gid)));
            for unit in text.encode_utf16() {
                out.push_str(&format!("{unit:04X}"));
            }
            out.push_str(">\n");
        }
        out.push_str("endbfchar\n");
    }
    for chunk in ranges.chunks(100) {
        out.push_str(&format!("{} beginbfrange\n", chunk.len()));
        for (first, last, unit) in chunk {
            out.push_str(&format!("<{}> <{}> <{unit:04X}>\n", code(*first), code(*last)));
        }
        out.push_str("endbfrange\n");
    }
    out.push_str("endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n");
    out.into_bytes()
}

/// The font's entry in this document, made on first use.
pub(super) fn used_font<'a>(
    slot: FontSlot,
    doc: &mut Document,
    fonts: &'a mut HashMap<FontSlot, UsedFont>,
    font_order: &mut Vec<FontSlot>,
) -> Result<&'a mut UsedFont, WriteError> {
    if !fonts.contains_key(&slot) {
        let name = format!("F{}", fonts.len());
        let id = doc.try_new_object_id()?;
        // Only the glyphs used: the subset (cached by its glyph list) is the smallest.
        fonts.insert(
            slot,
            UsedFont { name, id, remapper: GlyphRemapper::new(), to_unicode: Vec::new(), one_byte_codes: false },
        );
        font_order.push(slot);
    }
    fonts.get_mut(&slot).ok_or_else(|| WriteError::Font("a font vanished".to_owned()))
}

/// Numbers each embedded face's glyphs in the order of the text they stand for, before the
/// content is written: consecutive characters get consecutive subset glyph ids, which the
/// ToUnicode map then writes as ranges instead of one entry each.
pub(super) fn number_glyphs_in_text_order(
    library: &FontLibrary,
    pages: &[Page],
    doc: &mut Document,
    fonts: &mut HashMap<FontSlot, UsedFont>,
    font_order: &mut Vec<FontSlot>,
) -> Result<(), WriteError> {
    // Each glyph once, with the text it first stands for: a page repeats the few dozen glyphs
    // of its text, and sorting them all was a tenth of a certificate's time.
    let mut first_text: HashMap<(FontSlot, u16), &str> = HashMap::new();
    // Glyphs that share a cluster with others stand for no text of their own: numbered last.
    let mut in_shared_clusters: Vec<(FontSlot, u16)> = Vec::new();
    for page in pages {
        for item in &page.items {
            let Item::Text { run, .. } = item else { continue };
            if !matches!(run.font, FontSlot::Face(_)) {
                continue;
            }
            used_font(run.font, doc, fonts, font_order)?;
            for glyph in &run.glyphs {
                if glyph.shared_cluster {
                    in_shared_clusters.push((run.font, glyph.id));
                } else {
                    first_text.entry((run.font, glyph.id)).or_insert_with(|| run.glyph_text(glyph));
                }
            }
        }
    }
    let mut glyphs: Vec<(&str, FontSlot, u16)> =
        first_text.into_iter().map(|((slot, glyph), text)| (text, slot, glyph)).collect();
    glyphs.sort_unstable_by(|a, b| (a.0, a.2).cmp(&(b.0, b.2)));
    let in_text_order = glyphs.into_iter().map(|(_, slot, glyph)| (slot, glyph));
    for (slot, glyph) in in_text_order.chain(in_shared_clusters) {
        if let Some(used) = fonts.get_mut(&slot) {
            used.remapper.remap(glyph);
        }
    }
    for (slot, used) in fonts.iter_mut() {
        let FontSlot::Face(index) = slot else { continue };
        let truetype = library.face(*index).is_some_and(|face| !face.cff);
        used.one_byte_codes = truetype && used.remapper.num_gids() <= 256;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cmap_maps_glyphs_to_text() {
        let registry = [None, Some("A".to_owned()), Some("fi".to_owned()), Some(String::new()), None];
        let cmap = String::from_utf8(to_unicode_cmap(&registry, false)).unwrap();
        assert!(cmap.contains("<0000> <FFFF>\nendcodespacerange"), "{cmap}");
        assert!(cmap.contains("2 beginbfchar\n<0001> <0041>\n<0002> <00660069>\nendbfchar"));
        // A simple font's codes are one byte.
        let cmap = String::from_utf8(to_unicode_cmap(&registry, true)).unwrap();
        assert!(cmap.contains("<00> <FF>\nendcodespacerange"), "{cmap}");
        assert!(cmap.contains("2 beginbfchar\n<01> <0041>\n<02> <00660069>\nendbfchar"), "{cmap}");
        // Consecutive glyphs for consecutive characters: one range.
        let registry: Vec<Option<String>> = [None, Some("a"), Some("b"), Some("c"), Some("x"), Some("ff")]
            .into_iter()
            .map(|text| text.map(str::to_owned))
            .collect();
        let cmap = String::from_utf8(to_unicode_cmap(&registry, false)).unwrap();
        assert!(cmap.contains("2 beginbfchar\n<0004> <0078>\n<0005> <00660066>\nendbfchar"), "{cmap}");
        assert!(cmap.contains("1 beginbfrange\n<0001> <0003> <0061>\nendbfrange"), "{cmap}");
    }
}
