//! Finding a player by a piece of their name, the way a phone's "find me" box expects: case and
//! accents do not matter (`ann` finds `Anna`, `Änne` and `JOHANN`; `lodz` finds `Łódź`).
//!
//! Folding covers the Latin letters of Latin-1 and Latin Extended-A (every European
//! federation's alphabet): each letter becomes its base letter in lower case, `ß` becomes `ss`,
//! `æ` `ae`, `œ` `oe`, `ĳ` `ij`, `þ` `th`; combining accents (a name typed in decomposed form)
//! are dropped. Other characters are only lower-cased.

/// Base letters of U+0100..=U+017F (Latin Extended-A), one per code point; `*` marks the
/// ligatures that fold to two letters (Ĳ ĳ, Œ œ).
const EXTENDED_A: &str = concat!(
    "aaaaaa",       // Ā ā Ă ă Ą ą
    "cccccccc",     // Ć ć Ĉ ĉ Ċ ċ Č č
    "dddd",         // Ď ď Đ đ
    "eeeeeeeeee",   // Ē ē Ĕ ĕ Ė ė Ę ę Ě ě
    "gggggggg",     // Ĝ ĝ Ğ ğ Ġ ġ Ģ ģ
    "hhhh",         // Ĥ ĥ Ħ ħ
    "iiiiiiiiii",   // Ĩ ĩ Ī ī Ĭ ĭ Į į İ ı
    "**",           // Ĳ ĳ
    "jj",           // Ĵ ĵ
    "kkk",          // Ķ ķ ĸ
    "llllllllll",   // Ĺ ĺ Ļ ļ Ľ ľ Ŀ ŀ Ł ł
    "nnnnnnnnn",    // Ń ń Ņ ņ Ň ň ŉ Ŋ ŋ
    "oooooo",       // Ō ō Ŏ ŏ Ő ő
    "**",           // Œ œ
    "rrrrrr",       // Ŕ ŕ Ŗ ŗ Ř ř
    "ssssssss",     // Ś ś Ŝ ŝ Ş ş Š š
    "tttttt",       // Ţ ţ Ť ť Ŧ ŧ
    "uuuuuuuuuuuu", // Ũ ũ Ū ū Ŭ ŭ Ů ů Ű ű Ų ų
    "ww",           // Ŵ ŵ
    "yyy",          // Ŷ ŷ Ÿ
    "zzzzzz",       // Ź ź Ż ż Ž ž
    "s",            // ſ
);

/// Base letters of U+00C0..=U+00FF (Latin-1), `*` for the special cases, `.` for × and ÷.
const LATIN_1: &str = concat!(
    "aaaaaa*ceeeeiiii", // À Á Â Ã Ä Å Æ Ç È É Ê Ë Ì Í Î Ï
    "dnooooo.ouuuuy**", // Ð Ñ Ò Ó Ô Õ Ö × Ø Ù Ú Û Ü Ý Þ ß
    "aaaaaa*ceeeeiiii", // à á â ã ä å æ ç è é ê ë ì í î ï
    "dnooooo.ouuuuy*y", // ð ñ ò ó ô õ ö ÷ ø ù ú û ü ý þ ÿ
);

fn push_folded(c: char, out: &mut String) {
    let code = c as u32;
    let base = match code {
        0xC0..=0xFF => LATIN_1.as_bytes()[(code - 0xC0) as usize],
        0x100..=0x17F => EXTENDED_A.as_bytes()[(code - 0x100) as usize],
        // combining diacritical marks
        0x300..=0x36F => return,
        _ => {
            out.extend(c.to_lowercase());
            return;
        }
    };
    match (base, c) {
        (b'*', 'Æ' | 'æ') => out.push_str("ae"),
        (b'*', 'Þ' | 'þ') => out.push_str("th"),
        (b'*', 'ß') => out.push_str("ss"),
        (b'*', 'Ĳ' | 'ĳ') => out.push_str("ij"),
        (b'*', 'Œ' | 'œ') => out.push_str("oe"),
        (b'.', _) => out.push(c),
        (letter, _) => out.push(letter as char),
    }
}

/// The name in lower case without accents (see the module doc).
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        push_folded(c, &mut out);
    }
    out
}

/// Whether `name` contains `query`, case and accents aside. `query` is folded by the caller
/// once ([`fold`]), so a list is searched without folding it again for every name.
pub fn matches(name: &str, folded_query: &str) -> bool {
    fold(name).contains(folded_query)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_cover_their_blocks() {
        assert_eq!(EXTENDED_A.len(), 0x80);
        assert_eq!(LATIN_1.len(), 0x40);
    }

    #[test]
    fn folds_case_and_accents() {
        assert_eq!(fold("Łódź"), "lodz");
        assert_eq!(fold("ÄNNE Müller"), "anne muller");
        assert_eq!(fold("Ştefan Ğürsel"), "stefan gursel");
        assert_eq!(fold("Őrsi Žužek Ěva Ůna Ŷves"), "orsi zuzek eva una yves");
        assert_eq!(fold("İlkay ıssız"), "ilkay issiz");
        assert_eq!(
            fold("Straße Ærø Œuvre ĳs Þór"),
            "strasse aero oeuvre ijs thor"
        );
        assert_eq!(fold("Ðorđe Ñúñez Ÿvon ÿ"), "dorde nunez yvon y");
        // × and ÷ are not letters; other scripts are only lower-cased
        assert_eq!(fold("2×3÷1"), "2×3÷1");
        assert_eq!(fold("ΑΝΝΑ"), "αννα");
        // a decomposed é (e + U+0301) folds like the composed one
        assert_eq!(fold("Rene\u{301}e"), fold("Renée"));
    }

    #[test]
    fn a_piece_of_the_name_finds_it() {
        let q = fold("ann");
        assert!(matches("Anna Kowalska", &q));
        assert!(matches("Änne", &q));
        assert!(matches("JOHANN Schmidt", &q));
        assert!(!matches("Ben Åberg", &q));
        assert!(matches("Łukasz Łódź", &fold("LODZ")));
    }
}
