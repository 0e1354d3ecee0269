//! QR codes of the club night: the join link drawn on the organiser's screen, and read back from
//! a phone's camera frames. Pure code: the screens send modules out and frames in.

use partie_core::Error;

/// The largest frame read (the app sends a downscaled one; a bigger one is a mistake).
pub const MAX_FRAME_PIXELS: usize = 1920 * 1080;

/// The QR code of `text` (error correction M), its modules row by row (`true`: dark), quiet
/// zone not included; empty for a text too long for any QR code.
pub fn qr_modules(text: &str) -> Vec<Vec<bool>> {
    use qrcodegen::{QrCode, QrCodeEcc};
    match QrCode::encode_text(text, QrCodeEcc::Medium) {
        Ok(qr) => {
            let n = qr.size();
            (0..n)
                .map(|y| (0..n).map(|x| qr.get_module(x, y)).collect())
                .collect()
        }
        Err(_) => Vec::new(),
    }
}

/// Reads a camera frame sent as `[width: u16 LE][height: u16 LE][one luma byte per pixel, row
/// by row]` and gives the text of the first QR code in it, if any. `bad_action` when the bytes
/// are not such a frame.
pub fn read_frame(bytes: &[u8]) -> Result<Option<String>, Error> {
    let bad = |why: &str| Error::bad_action(format!("not a camera frame: {why}"));
    if bytes.len() < 4 {
        return Err(bad("no size"));
    }
    let width = u16::from_le_bytes([bytes[0], bytes[1]]) as usize;
    let height = u16::from_le_bytes([bytes[2], bytes[3]]) as usize;
    let pixels = &bytes[4..];
    if width == 0 || height == 0 || width * height > MAX_FRAME_PIXELS {
        return Err(bad("its size is out of range"));
    }
    if pixels.len() != width * height {
        return Err(bad("its length does not match its size"));
    }
    // rqrr has asserted on some real camera images (upstream issue 54): such a frame reads as
    // no code, and the camera goes on to the next one, rather than fail the command.
    std::panic::catch_unwind(|| {
        let mut image = rqrr::PreparedImage::prepare_from_greyscale(width, height, |x, y| {
            pixels[y * width + x]
        });
        image
            .detect_grids()
            .into_iter()
            .find_map(|grid| grid.decode().ok().map(|(_, text)| text))
    })
    .or(Ok(None))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frame of the QR code of `text`, `scale` pixels a module, with a quiet zone and the
    /// grey of a screen seen by a camera.
    fn frame(text: &str, scale: usize) -> Vec<u8> {
        let modules = qr_modules(text);
        let side = (modules.len() + 8) * scale;
        let mut bytes = Vec::with_capacity(4 + side * side);
        bytes.extend_from_slice(&(side as u16).to_le_bytes());
        bytes.extend_from_slice(&(side as u16).to_le_bytes());
        for y in 0..side {
            for x in 0..side {
                let (mx, my) = ((x / scale) as isize - 4, (y / scale) as isize - 4);
                let dark = mx >= 0
                    && my >= 0
                    && modules
                        .get(my as usize)
                        .and_then(|r| r.get(mx as usize))
                        .copied()
                        .unwrap_or(false);
                bytes.push(if dark { 30 } else { 220 });
            }
        }
        bytes
    }

    #[test]
    fn a_join_link_drawn_is_read_back() {
        let link =
            "partie://join?hub=http://192.168.1.5:7878&token=0123456789abcdef0123456789abcdef";
        assert_eq!(read_frame(&frame(link, 4)).unwrap().as_deref(), Some(link));
    }

    #[test]
    fn a_frame_without_a_code_reads_nothing_and_a_broken_frame_is_refused() {
        let mut blank = vec![8, 0, 8, 0];
        blank.extend(std::iter::repeat_n(200u8, 64));
        assert_eq!(read_frame(&blank).unwrap(), None);
        for broken in [
            &[][..],
            &[1, 0, 1][..],
            &[2, 0, 2, 0, 1][..],
            &[0, 0, 0, 0][..],
        ] {
            assert_eq!(
                read_frame(broken).unwrap_err().kind,
                partie_core::ErrorKind::BadAction
            );
        }
    }
}
