//! Pages to a signed PDF file: content streams, fonts embedded as subsets (a simple TrueType font
//! with one byte a glyph when the subset has 256 glyphs or fewer, else Type 0 with Identity-H; either
//! with a ToUnicode CMap so that text extraction works), an invisible signature field and the
//! signature itself.
//!
//! This module assembles the document (pages, resources, the signature field, catalog and info)
//! and compresses its streams; `fonts` makes the fonts' dictionaries, subsets and ToUnicode maps,
//! `content` writes each page's content stream.

mod content;
mod fonts;

use std::cell::RefCell;
use std::collections::HashMap;

use flate2::{Compress, Compression, FlushCompress, Status};
use lopdf::{Dictionary, Document, Object, Stream, StringFormat};
use time::OffsetDateTime;

use self::content::page_content;
use self::fonts::{UsedFont, courier, embedded_font, number_glyphs_in_text_order};
use crate::fonts::FontLibrary;
use crate::identity::SigningIdentity;
use crate::layout::{PAGE_HEIGHT, PAGE_WIDTH, Page};
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

pub(super) fn utf16be(text: &str) -> Vec<u8> {
    let mut bytes = vec![0xfe, 0xff];
    for unit in text.encode_utf16() {
        bytes.extend_from_slice(&unit.to_be_bytes());
    }
    bytes
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

pub(super) fn flate_stream(mut dict: Dictionary, compressed: Vec<u8>) -> Result<Stream, WriteError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_strings() {
        assert_eq!(text_string("Plain"), Object::String(b"Plain".to_vec(), StringFormat::Literal));
        assert_eq!(text_string("Ж"), Object::String(vec![0xfe, 0xff, 0x04, 0x16], StringFormat::Hexadecimal));
    }
}
