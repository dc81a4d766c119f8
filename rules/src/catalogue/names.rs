//! Variants by the names other texts give them: a PDN `GameType` number or `Variant` tag, a
//! name a client writes.

use super::variants;
use crate::notation::pdn::PdnGame;
use crate::variant::Variant;

/// Why a game's variant cannot be chosen.
#[derive(Clone, Debug)]
pub enum VariantChoice {
    Found(&'static Variant),
    /// A GameType (or Variant tag) this service does not support.
    Unsupported(String),
    /// Neither tag is present and no default was given.
    Missing,
}

/// The variant of a PDN GameType number (PDN 3.0), read from the catalogue's own GameType tags.
pub fn variant_for_game_type(number: u32) -> Option<&'static Variant> {
    variants()
        .iter()
        .find(|v| v.game_type_number() == Some(number))
}

/// The variant a PDN `Variant` tag names: a variant id, or one of the names other software
/// writes ([`crate::variant::Spec::variant_tags`]), compared without regard to case, spaces,
/// `_` and `-`.
pub fn variant_for_tag(value: &str) -> Option<&'static Variant> {
    let key = |s: &str| -> String {
        s.chars()
            .filter(|c| !matches!(c, ' ' | '_' | '-'))
            .flat_map(char::to_lowercase)
            .collect()
    };
    let wanted = key(value);
    if wanted.is_empty() {
        return None;
    }
    variants()
        .iter()
        .find(|v| key(v.id()) == wanted || v.spec().variant_tags.iter().any(|t| key(t) == wanted))
}

/// The variant a client names (a URL, a query parameter, the command line): its id, in any
/// case, or a name other programs give it (a [`crate::variant::Spec::variant_tags`] entry:
/// lidraughts' `standard`, `Frysk!`...), compared as [`variant_for_tag`] compares them.
pub fn variant_named(name: &str) -> Option<&'static Variant> {
    super::variant(name)
        .or_else(|| {
            variants()
                .iter()
                .find(|v| v.id().eq_ignore_ascii_case(name))
        })
        .or_else(|| variant_for_tag(name))
}

/// lidraughts' GameType for a game "from position": International rules from a set-up
/// position, unless the `Variant` tag names another variant.
pub const GAME_TYPE_FROM_POSITION: u32 = 99;

/// The variant of a game: the explicit choice if given, else its `GameType` tag, else its
/// `Variant` tag (lidraughts, PlayStrategy), else `None`. A `Variant` tag naming a variant on
/// the board of the GameType's variant is more precise than the number, which several
/// variants share (pydraughts writes 20 for Breakthrough and 40 for Frysk!; Killer and Sri
/// Lankan have no number of their own), so it wins.
pub fn choose_variant(game: &PdnGame, explicit: Option<&'static Variant>) -> VariantChoice {
    if let Some(v) = explicit {
        return VariantChoice::Found(v);
    }
    let named = game
        .tag("Variant")
        .map(|name| (name, variant_for_tag(name)));
    if let Some(gt) = game.tag("GameType") {
        let num = gt.split(',').next().unwrap_or("").trim();
        if num.parse::<u32>().ok() == Some(GAME_TYPE_FROM_POSITION) {
            return match named {
                Some((_, Some(by_name))) => VariantChoice::Found(by_name),
                Some((name, None)) => VariantChoice::Unsupported(format!("Variant \"{name}\"")),
                None => match super::variant("international") {
                    Some(v) => VariantChoice::Found(v),
                    None => VariantChoice::Unsupported(format!("GameType \"{gt}\"")),
                },
            };
        }
        return match num.parse::<u32>().ok().and_then(variant_for_game_type) {
            Some(by_number) => match named {
                Some((_, Some(by_name)))
                    if by_name.spec().width == by_number.spec().width
                        && by_name.spec().height == by_number.spec().height =>
                {
                    VariantChoice::Found(by_name)
                }
                _ => VariantChoice::Found(by_number),
            },
            None => VariantChoice::Unsupported(format!("GameType \"{gt}\"")),
        };
    }
    if let Some((name, by_name)) = named {
        return match by_name {
            Some(v) => VariantChoice::Found(v),
            None => VariantChoice::Unsupported(format!("Variant \"{name}\"")),
        };
    }
    VariantChoice::Missing
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_types_and_variant_tags_come_from_the_catalogue() {
        // Every GameType of the catalogue leads back to its variant, and no number is used
        // twice.
        for v in variants() {
            if let Some(n) = v.game_type_number() {
                assert_eq!(variant_for_game_type(n).map(Variant::id), Some(v.id()));
            }
            assert_eq!(variant_for_tag(v.id()).map(Variant::id), Some(v.id()));
        }
        let id = |n| variant_for_game_type(n).map(Variant::id);
        assert_eq!(
            [20, 21, 22, 23, 25, 26, 27, 28, 29, 31, 40].map(id),
            [
                "international",
                "english",
                "italian",
                "pool",
                "russian",
                "brazilian",
                "canadian",
                "portuguese",
                "czech",
                "thai",
                "frisian"
            ]
            .map(Some)
        );
        assert_eq!(id(99), None); // lidraughts' private "from position"
        let tag = |t| variant_for_tag(t).map(Variant::id);
        assert_eq!(tag("Standard"), Some("international"));
        assert_eq!(tag("American/English"), Some("english"));
        assert_eq!(tag("Russian"), Some("russian"));
        assert_eq!(tag("anti_checkers"), Some("anti-checkers"));
        assert_eq!(tag("Frysk!!"), None);
        assert_eq!(tag(""), None);
    }
}
