//! Pages to a signed PDF file: content streams, fonts embedded as subsets (a simple TrueType font
//! with one byte a glyph when the subset has 256 glyphs or fewer, else Type 0 with Identity-H; either
//! with a ToUnicode CMap so that text extraction works), an invisible signature field and the
//! signature itself.

use std::cell::RefCell;
use std::collections::HashMap;

use flate2::{Compress, Compression, FlushCompress, Status};
use lopdf::{Dictionary, Document, Object, ObjectId, Stream, StringFormat};
use rustybuzz::ttf_parser;
use subsetter::GlyphRemapper;
use time::OffsetDateTime;

use crate::fonts::{Face, FontLibrary, FontProgram};
use crate::identity::SigningIdentity;
use crate::layout::{Item, LineRun, PAGE_HEIGHT, PAGE_WIDTH, Page};
use crate::sign::{PendingSignature, SignError, prepare, reserved_signature_len, signature_dictionary};
use crate::text::FontSlot;

#[derive(Debug, thiserror::Error)]
pub(crate) enum WriteError {
    #[error("the PDF could not be assembled: {0}")]
    Pdf(#[from] lopdf::Error),
    #[error("a font could not be embedded: {0}")]
    Font(String),
    #[error(transparent)]
    Sign(#[from] SignError),
    #[error("writing failed: {0}")]
    Io(#[from] std::io::Error),
}

/// What the document says about itself.
#[derive(Debug, Clone)]
pub(crate) struct DocumentInfo {
    pub(crate) title: String,
    pub(crate) subject: String,
    pub(crate) language: String,
    pub(crate) signing_time: OffsetDateTime,
    pub(crate) reason: String,
    /// The page (0-based) that carries the (invisible) signature field.
    pub(crate) signature_page: usize,
    /// The room to reserve in the signature for a timestamp token, in bytes; `None`: not timestamped.
    pub(crate) token_room: Option<usize>,
}

/// A PDF text string: literal when plain ASCII, else UTF-16BE with a byte-order mark.
pub(crate) fn text_string(text: &str) -> Object {
    if text.chars().all(|c| c.is_ascii() && !c.is_ascii_control()) {
        Object::String(text.as_bytes().to_vec(), StringFormat::Literal)
    } else {
        Object::String(utf16be(text), StringFormat::Hexadecimal)
    }
}

fn utf16be(text: &str) -> Vec<u8> {
    let mut bytes = vec![0xfe, 0xff];
    for unit in text.encode_utf16() {
        bytes.extend_from_slice(&unit.to_be_bytes());
    }
    bytes
}

/// A font as used in this document.
struct UsedFont {
    name: String,
    id: ObjectId,
    /// Embedded faces: original glyph ids to the subset's.
    remapper: GlyphRemapper,
    /// By subset glyph id: the text the glyph stands for.
    to_unicode: Vec<Option<String>>,
    /// Whether its text is one byte a glyph (a simple TrueType font) rather than two (Type 0):
    /// decided once every glyph of the document is numbered.
    one_byte_codes: bool,
}

/// Writes the pages as a PDF and signs it; the CMS is written in by [`PendingSignature::signed_pdf`].
pub(crate) fn write_pdf(
    library: &FontLibrary,
    pages: &[Page],
    info: &DocumentInfo,
    identity: &SigningIdentity,
) -> Result<PendingSignature, WriteError> {
    let mut doc = Document::with_version("1.7");
    let pages_id = doc.try_new_object_id()?;
    let resources_id = doc.try_new_object_id()?;
    let mut fonts: HashMap<FontSlot, UsedFont> = HashMap::new();
    let mut font_order: Vec<FontSlot> = Vec::new();

    number_glyphs_in_text_order(library, pages, &mut doc, &mut fonts, &mut font_order)?;
    let mut page_ids = Vec::with_capacity(pages.len());
    for page in pages {
        let content = page_content(library, page, &mut doc, &mut fonts, &mut font_order)?;
        let content_id = doc.try_add_object(compressed_stream(Dictionary::new(), &content)?)?;
        let page_id = doc.try_new_object_id()?;
        let mut dict = Dictionary::new();
        dict.set("Type", "Page");
        dict.set("Parent", pages_id);
        dict.set("MediaBox", vec![0.into(), 0.into(), Object::Real(PAGE_WIDTH), Object::Real(PAGE_HEIGHT)]);
        dict.set("Resources", resources_id);
        dict.set("Contents", content_id);
        doc.objects.insert(page_id, Object::Dictionary(dict));
        page_ids.push(page_id);
    }

    let mut font_resources = Dictionary::new();
    for slot in &font_order {
        let Some(used) = fonts.get(slot) else { continue };
        let font = match slot {
            FontSlot::Courier { bold } => courier(*bold),
            FontSlot::Face(index) => {
                let face = library.face(*index).ok_or_else(|| WriteError::Font("unknown face".to_owned()))?;
                embedded_font(&mut doc, library, *index, face, used)?
            }
        };
        doc.objects.insert(used.id, Object::Dictionary(font));
        font_resources.set(used.name.as_bytes().to_vec(), used.id);
    }
    let mut resources = Dictionary::new();
    resources.set("Font", font_resources);
    doc.objects.insert(resources_id, Object::Dictionary(resources));

    let mut pages_dict = Dictionary::new();
    pages_dict.set("Type", "Pages");
    pages_dict.set("Kids", page_ids.iter().map(|&id| Object::Reference(id)).collect::<Vec<_>>());
    pages_dict.set("Count", i64::try_from(page_ids.len()).unwrap_or(i64::MAX));
    doc.objects.insert(pages_id, Object::Dictionary(pages_dict));

    // The signature: an invisible widget on the certificate's page, its field in the AcroForm.
    let reserved = reserved_signature_len(identity, info.token_room)?;
    let signature_id = doc.try_add_object(signature_dictionary(reserved, info.signing_time, &info.reason))?;
    let signature_page =
        page_ids.get(info.signature_page).or(page_ids.last()).copied().ok_or(WriteError::Font("no page".to_owned()))?;
    let mut widget = Dictionary::new();
    widget.set("Type", "Annot");
    widget.set("Subtype", "Widget");
    widget.set("FT", "Sig");
    widget.set("T", Object::string_literal("Certificate signature"));
    widget.set("V", signature_id);
    widget.set("F", 132);
    widget.set("Rect", vec![0.into(), 0.into(), 0.into(), 0.into()]);
    widget.set("P", signature_page);
    let widget_id = doc.try_add_object(widget)?;
    if let Ok(page) = doc.get_dictionary_mut(signature_page) {
        page.set("Annots", vec![Object::Reference(widget_id)]);
    }
    let mut acro_form = Dictionary::new();
    acro_form.set("Fields", vec![Object::Reference(widget_id)]);
    acro_form.set("SigFlags", 3);

    let mut catalog = Dictionary::new();
    catalog.set("Type", "Catalog");
    catalog.set("Pages", pages_id);
    catalog.set("AcroForm", acro_form);
    catalog.set("Lang", text_string(&info.language));
    let catalog_id = doc.try_add_object(catalog)?;

    let mut document_info = Dictionary::new();
    document_info.set("Title", text_string(&info.title));
    document_info.set("Subject", text_string(&info.subject));
    document_info.set("Producer", Object::string_literal("Clickwrap consent service"));
    let date = crate::sign::pdf_date(info.signing_time);
    document_info.set("CreationDate", Object::String(date.into_bytes(), StringFormat::Literal));
    let info_id = doc.try_add_object(document_info)?;

    let bytes = crate::file::save(&doc, catalog_id, info_id, signature_id)?;
    Ok(prepare(bytes, reserved, identity)?)
}

/// A stream made for this document only (page content).
fn compressed_stream(dict: Dictionary, content: &[u8]) -> Result<Stream, WriteError> {
    flate_stream(dict, deflate(content, Level::PerDocument)?)
}

fn flate_stream(mut dict: Dictionary, compressed: Vec<u8>) -> Result<Stream, WriteError> {
    dict.set("Filter", "FlateDecode");
    let mut stream = Stream::new(dict, compressed);
    stream.allows_compression = false;
    Ok(stream)
}

/// zlib's level for [`Level::PerDocument`].
const PER_DOCUMENT_LEVEL: u32 = 6;

#[derive(Debug, Clone, Copy)]
pub(crate) enum Level {
    /// For what is made once per document (page contents, the object and cross-reference
    /// streams): within a few bytes of the best level for a page of text, at a fraction of its
    /// time.
    PerDocument,
    /// For font programs and ToUnicode maps, which are cached and reused.
    Best,
}

/// zlib (`/FlateDecode`) with one compressor per thread and level, reset between uses: a
/// compressor's tables are large, and allocating them for every stream was most of the cost of
/// a document.
pub(crate) fn deflate(data: &[u8], level: Level) -> Result<Vec<u8>, WriteError> {
    thread_local! {
        static PER_DOCUMENT: RefCell<Compress> = RefCell::new(Compress::new(Compression::new(PER_DOCUMENT_LEVEL), true));
        static BEST: RefCell<Compress> = RefCell::new(Compress::new(Compression::best(), true));
    }
    let key = match level {
        Level::PerDocument => &PER_DOCUMENT,
        Level::Best => &BEST,
    };
    key.with(|compressor| {
        let mut compressor = compressor.borrow_mut();
        compressor.reset();
        let mut out = Vec::with_capacity(data.len() / 2 + 256);
        loop {
            let consumed = usize::try_from(compressor.total_in()).unwrap_or(usize::MAX);
            let input = data.get(consumed..).unwrap_or_default();
            let status = compressor
                .compress_vec(input, &mut out, FlushCompress::Finish)
                .map_err(|e| WriteError::Io(std::io::Error::other(e)))?;
            if status == Status::StreamEnd {
                return Ok(out);
            }
            out.reserve(out.capacity().max(1024));
        }
    })
}

fn courier(bold: bool) -> Dictionary {
    let mut dict = Dictionary::new();
    dict.set("Type", "Font");
    dict.set("Subtype", "Type1");
    dict.set("BaseFont", if bold { "Courier-Bold" } else { "Courier" });
    dict.set("Encoding", "WinAnsiEncoding");
    dict
}

/// The font dictionary of an embedded subset: a simple TrueType font when its glyphs are numbered
/// by one byte, else a Type 0 font with an Identity-H encoding over a CID font.
fn embedded_font(
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
fn used_font<'a>(
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
fn number_glyphs_in_text_order(
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

fn page_content(
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
    fn text_strings() {
        assert_eq!(text_string("Plain"), Object::String(b"Plain".to_vec(), StringFormat::Literal));
        assert_eq!(text_string("Ж"), Object::String(vec![0xfe, 0xff, 0x04, 0x16], StringFormat::Hexadecimal));
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
