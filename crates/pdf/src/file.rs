//! The document's objects as a compact PDF 1.5 file: the streams and the signature dictionary as
//! indirect objects of their own, every other object in one compressed object stream, and a
//! compressed cross-reference stream instead of a cross-reference table.
//!
//! The signature dictionary stays out of the object stream: its `/ByteRange` and `/Contents` are
//! written over in the file's bytes once it is saved (see `sign`). Written here rather than by
//! lopdf's object-stream writer, which packs every dictionary without exception.

use lopdf::{Document, Object, ObjectId, Writer};

use crate::writer::{Level, WriteError};

/// The file, `signature` kept out of the object stream.
pub(crate) fn save(doc: &Document, root: ObjectId, info: ObjectId, signature: ObjectId) -> Result<Vec<u8>, WriteError> {
    let mut out = Vec::with_capacity(16 * 1024);
    // A comment of high bytes: the file holds binary data.
    out.extend_from_slice(b"%PDF-1.7\n%\xE2\xE3\xCF\xD3\n");
    let object_stream_id = doc.max_id + 1;
    let xref_id = doc.max_id + 2;
    // By object number: (type, field 2, field 3) as in the cross-reference stream.
    let mut entries: Vec<(u8, usize, usize)> = vec![(0, 0, 0); usize::try_from(xref_id).unwrap_or(0) + 1];
    // Object 0 heads the list of free objects, with the highest generation.
    if let Some(head) = entries.first_mut() {
        *head = (0, 0, 65535);
    }

    let mut packed_header = Vec::new();
    let mut packed_body = Vec::new();
    let mut packed = 0_usize;
    for (&(number, generation), object) in &doc.objects {
        let index = usize::try_from(number).unwrap_or(usize::MAX);
        let Some(entry) = entries.get_mut(index) else { continue };
        if matches!(object, Object::Stream(_)) || (number, generation) == signature || generation != 0 {
            *entry = (1, out.len(), usize::from(generation));
            write_indirect(&mut out, number, generation, object)?;
        } else {
            *entry = (2, usize::try_from(object_stream_id).unwrap_or(0), packed);
            packed_header.extend_from_slice(format!("{number} {} ", packed_body.len()).as_bytes());
            Writer::write_object(&mut packed_body, object)?;
            packed_body.push(b'\n');
            packed += 1;
        }
    }

    let first = packed_header.len();
    packed_header.extend_from_slice(&packed_body);
    let data = crate::writer::deflate(&packed_header, Level::PerDocument)?;
    if let Some(entry) = entries.get_mut(usize::try_from(object_stream_id).unwrap_or(usize::MAX)) {
        *entry = (1, out.len(), 0);
    }
    out.extend_from_slice(
        format!(
            "{object_stream_id} 0 obj\n<</Type/ObjStm/N {packed}/First {first}/Filter/FlateDecode/Length {}>>stream\n",
            data.len()
        )
        .as_bytes(),
    );
    out.extend_from_slice(&data);
    out.extend_from_slice(b"\nendstream\nendobj\n");

    let xref_at = out.len();
    if let Some(entry) = entries.get_mut(usize::try_from(xref_id).unwrap_or(usize::MAX)) {
        *entry = (1, xref_at, 0);
    }
    let width = |value: usize| (usize::BITS - value.leading_zeros()).div_ceil(8).max(1) as usize;
    let second = width(entries.iter().map(|e| e.1).max().unwrap_or(0));
    let third = width(entries.iter().map(|e| e.2).max().unwrap_or(0));
    let mut table = Vec::with_capacity(entries.len() * (1 + second + third));
    for (kind, field2, field3) in &entries {
        table.push(*kind);
        table.extend_from_slice(field2.to_be_bytes().get(usize::BITS as usize / 8 - second..).unwrap_or_default());
        table.extend_from_slice(field3.to_be_bytes().get(usize::BITS as usize / 8 - third..).unwrap_or_default());
    }
    let table = crate::writer::deflate(&table, Level::PerDocument)?;
    out.extend_from_slice(
        format!(
            "{xref_id} 0 obj\n<</Type/XRef/Size {size}/W[1 {second} {third}]/Root {} {} R/Info {} {} R\
             /Filter/FlateDecode/Length {length}>>stream\n",
            root.0,
            root.1,
            info.0,
            info.1,
            size = entries.len(),
            length = table.len(),
        )
        .as_bytes(),
    );
    out.extend_from_slice(&table);
    out.extend_from_slice(format!("\nendstream\nendobj\nstartxref\n{xref_at}\n%%EOF\n").as_bytes());
    Ok(out)
}

fn write_indirect(out: &mut Vec<u8>, number: u32, generation: u16, object: &Object) -> Result<(), WriteError> {
    out.extend_from_slice(format!("{number} {generation} obj\n").as_bytes());
    Writer::write_object(out, object)?;
    out.extend_from_slice(b"\nendobj\n");
    Ok(())
}
