//! One declarative macro for the unit enums that have a fixed wire name per variant: each name is
//! written once, and `as_str`, `parse` and `ALL` are generated from it.

/// Declares a unit enum whose variants each have one exact string form.
///
/// ```ignore
/// string_enum! {
///     /// What the end user did in the dialog.
///     #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
///     pub enum Action {
///         Accepted => "ACCEPTED",
///         Declined => "DECLINED",
///     }
/// }
/// ```
///
/// generates the enum as written plus `pub const ALL: [Self; N]` (every variant, in declaration
/// order), `pub const fn as_str(self) -> &'static str` and `pub fn parse(text: &str) -> Option<Self>`
/// (an exact, case-sensitive match). Other methods go in an ordinary `impl` block beside it.
macro_rules! string_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$variant_meta:meta])* $variant:ident => $text:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $( $(#[$variant_meta])* $variant, )+
        }

        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: [Self; [$($text),+].len()] = [$(Self::$variant),+];

            /// The stable string form.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( Self::$variant => $text, )+
                }
            }

            /// The variant whose string form is exactly `text`.
            pub fn parse(text: &str) -> Option<Self> {
                match text {
                    $( $text => Some(Self::$variant), )+
                    _ => None,
                }
            }
        }
    };
}

#[cfg(test)]
#[allow(unreachable_pub)] // the generated methods are `pub`; the test enum is private
mod tests {
    string_enum! {
        /// A test enum.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        enum Colour {
            /// The first.
            Red => "RED",
            Green => "green",
            DarkBlue => "DARK_BLUE",
        }
    }

    #[test]
    fn every_variant_round_trips_and_unknown_text_is_none() {
        assert_eq!(Colour::ALL, [Colour::Red, Colour::Green, Colour::DarkBlue]);
        for colour in Colour::ALL {
            assert_eq!(Colour::parse(colour.as_str()), Some(colour));
        }
        assert_eq!(Colour::Green.as_str(), "green");
        assert_eq!(Colour::parse("BLUE"), None);
        assert_eq!(Colour::parse("red"), None);
        assert_eq!(Colour::parse(""), None);
    }

    #[test]
    fn as_str_is_const() {
        const NAME: &str = Colour::DarkBlue.as_str();
        assert_eq!(NAME, "DARK_BLUE");
    }
}
