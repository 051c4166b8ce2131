//! The fonts the PDFs are set in, found once at start-up in the system's font directories.
//!
//! Each script the service supports has a list of font files to look for, best first (Noto Sans
//! and its siblings, then common alternatives). Fonts are read once per process and kept, with a
//! shaping plan per script, so that rendering does no IO. A script without a font is not an
//! error: its text falls back to the built-in Courier (for what WinAnsi can encode) and a warning
//! is logged, so that a missing font never fails a verification.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use rustybuzz::ttf_parser;

use crate::cache::BoundedCache;
use crate::layout::LaidOut;

/// The environment variable naming font directories (separated like `PATH`), searched instead
/// of the standard ones.
pub const FONT_DIR_ENV: &str = "CLICKWRAP_FONT_DIR";

/// Searched when [`FONT_DIR_ENV`] is not set.
const STANDARD_DIRS: &[&str] = &["/usr/share/fonts", "/usr/local/share/fonts"];

/// How deep below a font directory files are looked for (Debian: `truetype/noto/…`).
const MAX_DEPTH: usize = 4;

/// The writing systems text is classified into for font choice and shaping.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Script {
    Latin,
    Cyrillic,
    Greek,
    Devanagari,
    Cjk,
}

impl Script {
    pub(crate) const ALL: [Script; 5] =
        [Script::Latin, Script::Cyrillic, Script::Greek, Script::Devanagari, Script::Cjk];

    fn index(self) -> usize {
        match self {
            Script::Latin => 0,
            Script::Cyrillic => 1,
            Script::Greek => 2,
            Script::Devanagari => 3,
            Script::Cjk => 4,
        }
    }

    pub(crate) fn shaping_script(self) -> rustybuzz::Script {
        match self {
            Script::Latin => rustybuzz::script::LATIN,
            Script::Cyrillic => rustybuzz::script::CYRILLIC,
            Script::Greek => rustybuzz::script::GREEK,
            Script::Devanagari => rustybuzz::script::DEVANAGARI,
            Script::Cjk => rustybuzz::script::HAN,
        }
    }
}

/// What a font file is looked for as. Bold text is drawn in the same face, its outlines filled
/// and stroked: one embedded subset per script rather than two, which is most of a small
/// document's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Role {
    Text,
    Devanagari,
    Cjk,
}

impl Role {
    const ALL: [Role; 3] = [Role::Text, Role::Devanagari, Role::Cjk];

    fn describe(self) -> &'static str {
        match self {
            Role::Text => "Latin, Cyrillic and Greek text",
            Role::Devanagari => "Devanagari (Hindi) text",
            Role::Cjk => "Chinese text",
        }
    }

    /// A character the font must have to serve the role.
    fn probe(self) -> char {
        match self {
            Role::Text => 'Ж',
            Role::Devanagari => 'क',
            Role::Cjk => '意',
        }
    }

    /// Candidate files, best first: (file name, family-name substring that picks the face in a
    /// collection).
    fn candidates(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Role::Text => &[
                ("NotoSans-Regular.ttf", ""),
                ("NotoSans-Regular.otf", ""),
                ("DejaVuSans.ttf", ""),
                ("LiberationSans-Regular.ttf", ""),
                ("FreeSans.ttf", ""),
            ],
            Role::Devanagari => &[
                ("NotoSansDevanagari-Regular.ttf", ""),
                ("NotoSansDevanagari-Regular.otf", ""),
                ("NotoSansDevanagariUI-Regular.ttf", ""),
                ("Lohit-Devanagari.ttf", ""),
                ("NotoSerifDevanagari-Regular.ttf", ""),
                ("FreeSans.ttf", ""),
            ],
            Role::Cjk => &[
                ("NotoSansCJK-Regular.ttc", "CJK SC"),
                ("NotoSansCJKsc-Regular.otf", ""),
                ("NotoSansSC-Regular.otf", ""),
                ("NotoSansSC-Regular.ttf", ""),
                ("NotoSerifCJK-Regular.ttc", "CJK SC"),
                ("DroidSansFallbackFull.ttf", ""),
                ("wqy-microhei.ttc", ""),
                ("wqy-zenhei.ttc", ""),
            ],
        }
    }
}

/// One loaded font face, with its shaping plans.
pub(crate) struct Face {
    pub(crate) shaper: rustybuzz::Face<'static>,
    pub(crate) data: &'static [u8],
    pub(crate) index: u32,
    pub(crate) path: PathBuf,
    pub(crate) postscript_name: String,
    pub(crate) units_per_em: f32,
    /// In thousandths of an em, as PDF font descriptors want them.
    pub(crate) ascent: f32,
    pub(crate) descent: f32,
    pub(crate) cap_height: f32,
    pub(crate) bbox: [f32; 4],
    pub(crate) cff: bool,
    plans: Vec<rustybuzz::ShapePlan>,
    /// Glyph ids of the ASCII characters, looked up once.
    ascii: [Option<u16>; 128],
    /// Advance widths in thousandths of an em, by glyph id.
    widths: Vec<i32>,
    /// Shaping of plain ASCII without the shaper, for Latin text faces.
    pub(crate) ascii_shaper: Option<AsciiShaper>,
}

/// First and last character of the ASCII fast path.
const FIRST: u8 = b' ';
const LAST: u8 = b'~';
const COUNT: usize = (LAST - FIRST + 1) as usize;

/// What OpenType shaping does to printable ASCII in a face, measured once with the shaper: the
/// nominal glyph and advance of every character and the adjustment (kerning) of every pair. Pairs
/// the shaper changes in any other way (a ligature, an offset, a substitution) are marked, and
/// text containing them is shaped in full. The table is checked against the shaper on sample
/// text when it is built, and not used for a face where it would differ.
pub(crate) struct AsciiShaper {
    glyphs: [u16; COUNT],
    advances: [i32; COUNT],
    /// Adjustment of the first glyph's advance for each pair; `None`: shape in full.
    kerning: Vec<Option<i16>>,
}

impl AsciiShaper {
    fn build(face: &rustybuzz::Face<'_>, plan: &rustybuzz::ShapePlan) -> Option<AsciiShaper> {
        let mut glyphs = [0_u16; COUNT];
        let mut advances = [0_i32; COUNT];
        for (index, code) in (FIRST..=LAST).enumerate() {
            let (infos, positions) = shape_with(face, plan, &[code]);
            let ([info], [position]) = (infos.as_slice(), positions.as_slice()) else { return None };
            if position.x_offset != 0 || position.y_offset != 0 || info.glyph_id == 0 {
                return None;
            }
            *glyphs.get_mut(index)? = u16::try_from(info.glyph_id).ok()?;
            *advances.get_mut(index)? = position.x_advance;
        }
        let mut kerning = vec![None; COUNT * COUNT];
        for (first, a) in (FIRST..=LAST).enumerate() {
            for (second, b) in (FIRST..=LAST).enumerate() {
                let (infos, positions) = shape_with(face, plan, &[a, b]);
                let plain = match (infos.as_slice(), positions.as_slice()) {
                    ([i1, i2], [p1, p2]) => {
                        Some(i1.glyph_id) == glyphs.get(first).map(|&g| u32::from(g))
                            && Some(i2.glyph_id) == glyphs.get(second).map(|&g| u32::from(g))
                            && p1.x_offset == 0
                            && p1.y_offset == 0
                            && p2.x_offset == 0
                            && p2.y_offset == 0
                            && Some(&p2.x_advance) == advances.get(second)
                    }
                    _ => false,
                };
                if plain {
                    let kern =
                        positions.first().map(|p| p.x_advance).unwrap_or(0) - advances.get(first).copied().unwrap_or(0);
                    if let Some(entry) = kerning.get_mut(first * COUNT + second) {
                        *entry = i16::try_from(kern).ok();
                    }
                }
            }
        }
        let shaper = AsciiShaper { glyphs, advances, kerning };
        shaper.agrees_with(face, plan).then_some(shaper)
    }

    /// Glyph ids and advances (font units) of `text`, or `None` when it needs the full shaper.
    pub(crate) fn shape(&self, text: &[u8]) -> Option<Vec<(u16, i32)>> {
        let mut out = Vec::with_capacity(text.len());
        for (index, &byte) in text.iter().enumerate() {
            let code = usize::from(byte.checked_sub(FIRST)?);
            let glyph = *self.glyphs.get(code)?;
            let mut advance = *self.advances.get(code)?;
            if let Some(&next) = text.get(index + 1) {
                let next = usize::from(next.checked_sub(FIRST)?);
                advance += i32::from((*self.kerning.get(code * COUNT + next)?)?);
            }
            out.push((glyph, advance));
        }
        Some(out)
    }

    /// Whether the table gives what the shaper gives on sample text of every kind.
    fn agrees_with(&self, face: &rustybuzz::Face<'_>, plan: &rustybuzz::ShapePlan) -> bool {
        let mut samples: Vec<Vec<u8>> = vec![
            b"Certificate of Acceptance".to_vec(),
            b"The quick brown fox jumps over the lazy dog. AVATAR Type WAVE, Tj Yo.".to_vec(),
            b"2026-03-04T10:15:42.125Z 01927e3b-5c1a-7d2e-9f00-123456789abc".to_vec(),
            b"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)".to_vec(),
            b"sha256:0d636c9dcbd5d19f854701fbf17e929888dc2949d745e65138fc69b829927ce7".to_vec(),
            b"{\"ipAddress\":\"203.0.113.7\"} [a] <b> #1 $2 %3 &4 *5 +6 =7 ?8 @9 ^_ `|~".to_vec(),
        ];
        // Every character after every other, in a few long strings.
        for start in 0..4_u8 {
            samples.push(
                (FIRST..=LAST).flat_map(|a| [a, FIRST + (a - FIRST + start * 23) % (LAST - FIRST + 1)]).collect(),
            );
        }
        samples.iter().all(|sample| {
            let Some(fast) = self.shape(sample) else { return true };
            let (infos, positions) = shape_with(face, plan, sample);
            infos.len() == fast.len()
                && infos.iter().zip(&positions).zip(&fast).all(|((info, position), (glyph, advance))| {
                    info.glyph_id == u32::from(*glyph)
                        && position.x_advance == *advance
                        && position.x_offset == 0
                        && position.y_offset == 0
                })
        })
    }
}

fn shape_with(
    face: &rustybuzz::Face<'_>,
    plan: &rustybuzz::ShapePlan,
    text: &[u8],
) -> (Vec<rustybuzz::GlyphInfo>, Vec<rustybuzz::GlyphPosition>) {
    let mut buffer = rustybuzz::UnicodeBuffer::new();
    for (index, &byte) in text.iter().enumerate() {
        buffer.add(char::from(byte), u32::try_from(index).unwrap_or(0));
    }
    buffer.set_direction(rustybuzz::Direction::LeftToRight);
    buffer.set_script(Script::Latin.shaping_script());
    let output = rustybuzz::shape_with_plan(face, plan, buffer);
    (output.glyph_infos().to_vec(), output.glyph_positions().to_vec())
}

impl std::fmt::Debug for AsciiShaper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AsciiShaper").finish_non_exhaustive()
    }
}

impl std::fmt::Debug for Face {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Face").field("path", &self.path).field("index", &self.index).finish_non_exhaustive()
    }
}

impl Face {
    fn load(path: &Path, family_hint: &str) -> Option<Face> {
        let data = read_cached(path)?;
        let count = ttf_parser::fonts_in_collection(data).unwrap_or(1);
        let index = (0..count)
            .find(|&index| {
                family_hint.is_empty()
                    || ttf_parser::Face::parse(data, index).is_ok_and(|face| {
                        face.names().into_iter().any(|name| {
                            name.name_id == ttf_parser::name_id::FAMILY
                                && name.to_string().is_some_and(|family| family.contains(family_hint))
                        })
                    })
            })
            .unwrap_or(0);
        let shaper = rustybuzz::Face::from_slice(data, index)?;
        let units_per_em = shaper.units_per_em().max(16) as f32;
        let scale = 1000.0 / units_per_em;
        let postscript_name = shaper
            .names()
            .into_iter()
            .filter(|name| name.name_id == ttf_parser::name_id::POST_SCRIPT_NAME)
            .find_map(|name| name.to_string())
            .map(|name| name.chars().filter(|c| c.is_ascii_graphic() && !"[](){}<>/%#".contains(*c)).collect())
            .filter(|name: &String| !name.is_empty())
            .unwrap_or_else(|| "Font".to_owned());
        let rect = shaper.global_bounding_box();
        let widths = (0..shaper.number_of_glyphs())
            .map(|glyph| {
                let advance = shaper.glyph_hor_advance(ttf_parser::GlyphId(glyph)).unwrap_or(0);
                (f32::from(advance) * 1000.0 / units_per_em).round() as i32
            })
            .collect();
        let mut ascii = [None; 128];
        for (code, entry) in ascii.iter_mut().enumerate() {
            *entry = u8::try_from(code).ok().and_then(|b| shaper.glyph_index(char::from(b))).map(|g| g.0);
        }
        let plans = Script::ALL
            .iter()
            .map(|script| {
                rustybuzz::ShapePlan::new(
                    &shaper,
                    rustybuzz::Direction::LeftToRight,
                    Some(script.shaping_script()),
                    None,
                    &[],
                )
            })
            .collect();
        Some(Face {
            data,
            index,
            path: path.to_owned(),
            postscript_name,
            units_per_em,
            ascent: f32::from(shaper.ascender()) * scale,
            descent: f32::from(shaper.descender()) * scale,
            cap_height: f32::from(shaper.capital_height().unwrap_or(shaper.ascender())) * scale,
            bbox: [
                f32::from(rect.x_min) * scale,
                f32::from(rect.y_min) * scale,
                f32::from(rect.x_max) * scale,
                f32::from(rect.y_max) * scale,
            ],
            cff: shaper.tables().cff.is_some(),
            plans,
            ascii,
            widths,
            ascii_shaper: None,
            shaper,
        })
    }

    pub(crate) fn plan(&self, script: Script) -> Option<&rustybuzz::ShapePlan> {
        self.plans.get(script.index())
    }

    pub(crate) fn has_char(&self, c: char) -> bool {
        match self.ascii.get(c as usize) {
            Some(glyph) => glyph.is_some(),
            None => self.shaper.glyph_index(c).is_some(),
        }
    }

    /// Builds the table that shapes plain ASCII without the shaper (for the Latin text face).
    fn build_ascii_shaper(&mut self) {
        self.ascii_shaper = self.plan(Script::Latin).and_then(|plan| AsciiShaper::build(&self.shaper, plan));
        if self.ascii_shaper.is_none() {
            tracing::info!(font = %self.path.display(), "plain ASCII is shaped in full in this font");
        }
    }

    /// The glyph's advance in thousandths of an em, rounded as written to the PDF.
    pub(crate) fn width_1000(&self, glyph: u16) -> i32 {
        self.widths.get(usize::from(glyph)).copied().unwrap_or(0)
    }
}

/// Reads each font file once per process and keeps it for the life of the process, so that
/// faces borrowing it can be kept in renderers; a handful of files at most.
fn read_cached(path: &Path) -> Option<&'static [u8]> {
    static CACHE: OnceLock<Mutex<HashMap<PathBuf, &'static [u8]>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let canonical = path.canonicalize().unwrap_or_else(|_| path.to_owned());
    if let Some(data) = cache.lock().unwrap_or_else(PoisonError::into_inner).get(&canonical) {
        return Some(data);
    }
    let bytes = match std::fs::read(&canonical) {
        Ok(bytes) => bytes,
        Err(error) => {
            tracing::warn!(path = %canonical.display(), %error, "could not read a font file");
            return None;
        }
    };
    let mut cache = cache.lock().unwrap_or_else(PoisonError::into_inner);
    let data: &'static [u8] = cache.entry(canonical).or_insert_with(|| Box::leak(bytes.into_boxed_slice()));
    Some(data)
}

/// The fonts for every role that could be found.
#[derive(Debug)]
pub struct FontLibrary {
    pub(crate) faces: Vec<Face>,
    roles: HashMap<Role, usize>,
    /// Per script and weight (regular, bold): the faces to try, best first.
    chains: [[Option<usize>; 3]; 5],
    /// Embedded font programs by face and glyph list (see [`Face::seed`]).
    programs: BoundedCache<ProgramKey, Arc<FontProgram>>,
    /// Lines of the texts that are the same for many documents: fixed texts (labels, headings)
    /// and a template version's (its name, values, content).
    laid_out: BoundedCache<LayoutKey, Arc<LaidOut>>,
    /// Compressed ToUnicode maps by what they map.
    to_unicode: BoundedCache<ToUnicodeKey, Arc<Vec<u8>>>,
}

/// A face and the glyphs of a subset of it, in subset order.
type ProgramKey = (usize, Vec<u16>);

/// A subset font, compressed, ready to embed.
#[derive(Debug)]
pub(crate) struct FontProgram {
    pub(crate) compressed: Vec<u8>,
    /// The uncompressed length (`/Length1` of a TrueType font file).
    pub(crate) length: usize,
}

/// Bytes each cache holds at most (17 MiB together, well within the server's memory goal): room
/// for the font subsets and laid-out texts of dozens of template versions.
const PROGRAM_CACHE_BYTES: usize = 8 << 20;
const LAYOUT_CACHE_BYTES: usize = 8 << 20;
const TO_UNICODE_CACHE_BYTES: usize = 1 << 20;

impl FontLibrary {
    /// Fonts from the directories in `CLICKWRAP_FONT_DIR` (separated like `PATH`) when it is set,
    /// else from the standard font directories.
    pub fn from_env() -> Self {
        match std::env::var_os(FONT_DIR_ENV).filter(|value| !value.is_empty()) {
            Some(value) => Self::from_dirs(&std::env::split_paths(&value).collect::<Vec<_>>()),
            None => Self::from_dirs(&STANDARD_DIRS.iter().map(PathBuf::from).collect::<Vec<_>>()),
        }
    }

    /// Fonts found in `dirs` and their subdirectories. What is missing is logged as a warning.
    pub fn from_dirs(dirs: &[PathBuf]) -> Self {
        let mut files = HashMap::new();
        for dir in dirs {
            collect_files(dir, 0, &mut files);
        }
        let mut library = FontLibrary::empty();
        let mut loaded: HashMap<(PathBuf, &str), usize> = HashMap::new();
        for role in Role::ALL {
            let found = role.candidates().iter().find_map(|(name, hint)| {
                let path = files.get(*name)?;
                if let Some(&slot) = loaded.get(&(path.clone(), *hint)) {
                    return Some(slot);
                }
                let face = Face::load(path, hint).filter(|face| face.has_char(role.probe()))?;
                library.faces.push(face);
                let slot = library.faces.len() - 1;
                loaded.insert((path.clone(), *hint), slot);
                Some(slot)
            });
            match found {
                Some(slot) => {
                    library.roles.insert(role, slot);
                }
                None => tracing::warn!(
                    "no font for {} in {}; such text falls back to the built-in Courier where it can \
                     (install the Noto fonts, or set {FONT_DIR_ENV})",
                    role.describe(),
                    dirs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", ")
                ),
            }
        }
        if let Some(face) = library.roles.get(&Role::Text).copied().and_then(|slot| library.faces.get_mut(slot)) {
            face.build_ascii_shaper();
        }
        library.precompute();
        library
    }

    /// No font files: everything is set in the built-in Courier (Latin-1 text only).
    pub fn builtin_only() -> Self {
        FontLibrary::empty()
    }

    fn empty() -> Self {
        FontLibrary {
            faces: Vec::new(),
            roles: HashMap::new(),
            chains: [[None; 3]; 5],
            programs: BoundedCache::new(PROGRAM_CACHE_BYTES),
            laid_out: BoundedCache::new(LAYOUT_CACHE_BYTES),
            to_unicode: BoundedCache::new(TO_UNICODE_CACHE_BYTES),
        }
    }

    /// Precomputes what rendering asks for every character.
    fn precompute(&mut self) {
        for script in Script::ALL {
            let chain = self.compute_chain(script);
            if let Some(entry) = self.chains.get_mut(script.index()) {
                *entry = chain;
            }
        }
    }

    /// The font file used for each kind of text, for a start-up log line.
    pub fn describe(&self) -> Vec<(String, Option<PathBuf>)> {
        Role::ALL
            .iter()
            .map(|role| {
                let path = self.roles.get(role).and_then(|&slot| self.faces.get(slot)).map(|face| face.path.clone());
                (role.describe().to_owned(), path)
            })
            .collect()
    }

    /// Whether text of each supported language can be set in a real font (not the fallback).
    pub fn covers_all_languages(&self) -> bool {
        [Role::Text, Role::Devanagari, Role::Cjk].iter().all(|role| self.roles.contains_key(role))
    }

    pub(crate) fn face(&self, slot: usize) -> Option<&Face> {
        self.faces.get(slot)
    }

    /// The faces to try for a character of `script`, best first.
    pub(crate) fn chain(&self, script: Script) -> &[Option<usize>; 3] {
        const NONE: [Option<usize>; 3] = [None; 3];
        self.chains.get(script.index()).unwrap_or(&NONE)
    }

    fn compute_chain(&self, script: Script) -> [Option<usize>; 3] {
        let text = self.roles.get(&Role::Text).copied();
        let deva = self.roles.get(&Role::Devanagari).copied();
        let cjk = self.roles.get(&Role::Cjk).copied();
        let order = match script {
            Script::Latin | Script::Cyrillic | Script::Greek => [text, cjk, deva],
            Script::Devanagari => [deva, text, cjk],
            Script::Cjk => [cjk, text, deva],
        };
        let mut chain = [None; 3];
        let mut next = 0;
        for slot in order.into_iter().flatten() {
            if !chain.contains(&Some(slot)) {
                if let Some(entry) = chain.get_mut(next) {
                    *entry = Some(slot);
                }
                next += 1;
            }
        }
        chain
    }

    /// The embedded program for `glyphs` of a face, made by `make` unless cached. The key is the
    /// whole glyph list: a document whose text needs one glyph more gets a subset of its own.
    pub(crate) fn program<E>(
        &self,
        slot: usize,
        glyphs: Vec<u16>,
        make: impl FnOnce() -> Result<FontProgram, E>,
    ) -> Result<Arc<FontProgram>, E> {
        self.programs.get_or_try_insert(
            (slot, glyphs),
            || make().map(Arc::new),
            |(_, glyphs), program| glyphs.len() * 2 + program.compressed.len() + 64,
        )
    }

    /// The lines of a text that many documents share, made by `make` unless cached.
    pub(crate) fn laid_out(&self, key: LayoutKey, make: impl FnOnce() -> LaidOut) -> Arc<LaidOut> {
        self.laid_out.get_or_insert(
            key,
            || Arc::new(make()),
            |key, laid_out| key.text.len() + key.styles.len() * 24 + laid_out.bytes(),
        )
    }

    /// A compressed ToUnicode map for the glyph-to-text `registry`, its codes one byte or two,
    /// made by `make` unless cached.
    pub(crate) fn to_unicode<E>(
        &self,
        registry: &[Option<String>],
        one_byte_codes: bool,
        make: impl FnOnce() -> Result<Vec<u8>, E>,
    ) -> Result<Arc<Vec<u8>>, E> {
        let key = (one_byte_codes, registry.to_vec());
        if let Some(compressed) = self.to_unicode.get(&key) {
            return Ok(compressed);
        }
        let compressed = Arc::new(make()?);
        let bytes =
            registry.iter().map(|text| text.as_ref().map_or(0, String::len) + 24).sum::<usize>() + compressed.len();
        self.to_unicode.insert(key, Arc::clone(&compressed), bytes);
        Ok(compressed)
    }
}

/// A ToUnicode map is made from whether its codes are one byte, and the text of each glyph.
type ToUnicodeKey = (bool, Vec<Option<String>>);

/// What a text's lines are computed from: the text, its styles (range, size and gray as bits,
/// bold and italic) and the width it is set in.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct LayoutKey {
    pub(crate) text: String,
    pub(crate) styles: Vec<(usize, usize, [u32; 2], u8)>,
    pub(crate) width: u32,
}

fn collect_files(dir: &Path, depth: usize, files: &mut HashMap<String, PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().map(|entry| entry.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if depth < MAX_DEPTH {
                collect_files(&path, depth + 1, files);
            }
        } else if let Some(name) = path.file_name().and_then(|n| n.to_str()) {
            files.entry(name.to_owned()).or_insert(path);
        }
    }
}
