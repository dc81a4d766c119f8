//! The public text of the catalogue: what `GET /v1/variants/{id}` serves as `name`, `sources`,
//! `notes`, `provisional_reason` and the texts of the end and draw rules cites public references
//! only (no internal file, section or seed names), every variant has a source, and the names
//! other programs write in a PDN `Variant` tag lead to one variant only.

use std::collections::BTreeMap;

use arbiter_rules::catalogue::variant_for_tag;
use arbiter_rules::{variants, Variant};

/// Every public text of a variant, each with what it is (for the failure message).
fn public_texts(v: &Variant) -> Vec<(String, &'static str)> {
    let spec = v.spec();
    let mut texts = vec![("name".to_string(), spec.name)];
    texts.extend(spec.sources.iter().map(|s| ("source".to_string(), *s)));
    texts.extend(spec.notes.iter().map(|s| ("note".to_string(), *s)));
    texts.extend(spec.provisional.map(|s| ("provisional".to_string(), s)));
    texts.extend(
        spec.rules
            .ends
            .iter()
            .map(|e| (format!("end rule {:?}", e.code), e.text)),
    );
    texts.extend(
        spec.rules
            .draws
            .iter()
            .map(|d| (format!("draw rule {:?}", d.code), d.text)),
    );
    texts
}

#[test]
fn public_texts_name_no_internal_document() {
    let mut bad = Vec::new();
    for v in variants() {
        for (what, text) in public_texts(v) {
            let lower = text.to_lowercase();
            let internal = lower.contains("seed")
                || text.contains(".md")
                || text.contains("shared/")
                || text.contains('§')
                || text.contains("README");
            if internal {
                bad.push(format!("{} {what}: {text}", v.id()));
            }
        }
    }
    assert!(bad.is_empty(), "internal references:\n{}", bad.join("\n"));
}

#[test]
fn every_variant_cites_a_source() {
    for v in variants() {
        let sources = v.spec().sources;
        assert!(!sources.is_empty(), "{} has no source", v.id());
        for s in sources {
            assert!(!s.trim().is_empty(), "{} has an empty source", v.id());
        }
    }
}

/// The key `variant_for_tag` (rules/src/catalogue/names.rs) compares: without spaces, `_` and
/// `-`, in lower case.
fn pdn_key(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// A looser key, letters and digits only, so that no two names are one punctuation mark apart
/// (`Frysk!` and `Frysk`).
fn loose_key(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Each key of an id or a variant tag, with the variants that carry it.
fn names_by_key(key: fn(&str) -> String) -> BTreeMap<String, Vec<&'static Variant>> {
    let mut by_key: BTreeMap<String, Vec<&'static Variant>> = BTreeMap::new();
    for v in variants() {
        let names = std::iter::once(v.id()).chain(v.spec().variant_tags.iter().copied());
        for name in names {
            let k = key(name);
            assert!(
                !k.is_empty(),
                "{}: the tag {name:?} has an empty key",
                v.id()
            );
            let holders = by_key.entry(k).or_default();
            if !holders.iter().any(|h| h.id() == v.id()) {
                holders.push(v);
            }
        }
    }
    by_key
}

#[test]
fn no_tag_or_id_names_two_variants_of_one_board_size() {
    for (label, key) in [("pdn", pdn_key as fn(&str) -> String), ("loose", loose_key)] {
        for (k, holders) in names_by_key(key) {
            for (i, a) in holders.iter().enumerate() {
                for b in &holders[i + 1..] {
                    let (sa, sb) = (a.spec(), b.spec());
                    assert!(
                        (sa.width, sa.height) != (sb.width, sb.height),
                        "{label} key {k:?} names both {} and {}, on the same board size",
                        a.id(),
                        b.id()
                    );
                }
            }
        }
    }
}

#[test]
fn every_tag_leads_back_to_its_variant() {
    let shared = names_by_key(pdn_key);
    for v in variants() {
        for tag in v.spec().variant_tags {
            if shared[&pdn_key(tag)].len() > 1 {
                continue; // another board size shares it; the GameType decides there
            }
            assert_eq!(
                variant_for_tag(tag).map(Variant::id),
                Some(v.id()),
                "tag {tag:?}"
            );
        }
    }
}

#[test]
fn the_names_other_programs_write_are_read() {
    let tag = |t| variant_for_tag(t).map(Variant::id);
    // lidraughts' names and keys.
    for (t, id) in [
        ("Standard", "international"),
        ("From Position", "international"),
        ("fromPosition", "international"),
        ("Antidraughts", "antidraughts"),
        ("Frysk!", "frysk"),
        ("Breakthrough", "breakthrough"),
        ("Frisian", "frisian"),
        ("Russian", "russian"),
        ("Brazilian", "brazilian"),
    ] {
        assert_eq!(tag(t), Some(id), "lidraughts {t:?}");
    }
    // PlayStrategy's Variant tags (its site names) and keys.
    for (t, id) in [
        ("International", "international"),
        ("draughtsFromPosition", "international"),
        ("BRKTHRU", "breakthrough"),
        ("Pool", "pool"),
        ("Spanish", "spanish"),
        ("American/English", "english"),
        ("english", "english"),
    ] {
        assert_eq!(tag(t), Some(id), "PlayStrategy {t:?}");
    }
    // pydraughts' variant names.
    for (t, id) in [
        ("standard", "international"),
        ("from position", "international"),
        ("american", "english"),
        ("american pool", "pool"),
        ("frysk!", "frysk"),
        ("italian", "italian"),
        ("turkish", "turkish"),
    ] {
        assert_eq!(tag(t), Some(id), "pydraughts {t:?}");
    }
}

#[test]
fn antidraughts_has_lidraughts_game_type() {
    let v = arbiter_rules::variant("antidraughts").unwrap();
    assert_eq!(v.game_type_number(), Some(98));
    assert_eq!(
        arbiter_rules::catalogue::variant_for_game_type(98).map(Variant::id),
        Some("antidraughts")
    );
}
