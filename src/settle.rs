//! Options given in layers — built-in defaults, the configuration file, the command
//! line, a request body — settled into one set of decided values. `clean` and
//! `validate` both take their options this way; the order of the layers, a layer's
//! preset before its own fields, and the check at the end are written here once.

/// One layer of options: every field optional, what is left out comes from below.
pub trait Layer: Default {
    /// The options the layer's named preset stands for, if it names one.
    fn preset(&self) -> Option<Self>;
}

/// Options with every value decided, built from the defaults up through the layers.
pub trait Settle: Default {
    type Layer: Layer;
    type Error;

    /// Override the values that `layer` sets.
    fn apply(&mut self, layer: &Self::Layer);

    /// Whether the settled values make sense together.
    fn check(&self) -> Result<(), Self::Error>;

    /// Apply `layers` in order over the defaults (a layer's preset before its
    /// fields), checking every value.
    fn from_layers<'a>(
        layers: impl IntoIterator<Item = &'a Self::Layer>,
    ) -> Result<Self, Self::Error>
    where
        Self::Layer: 'a,
    {
        let mut settled = Self::default();
        for layer in layers {
            if let Some(preset) = layer.preset() {
                settled.apply(&preset);
            }
            settled.apply(layer);
        }
        settled.check()?;
        Ok(settled)
    }

    /// A request's options settled over a service's defaults.
    fn over(defaults: &Self::Layer, request: Option<&Self::Layer>) -> Result<Self, Self::Error> {
        let none = Self::Layer::default();
        Self::from_layers([defaults, request.unwrap_or(&none)])
    }
}

/// Put `value` in `slot` when a layer sets it.
pub fn set<T>(slot: &mut T, value: Option<T>) {
    if let Some(value) = value {
        *slot = value;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Options {
        preset: bool,
        size: Option<u32>,
        name: Option<&'static str>,
    }

    impl Layer for Options {
        fn preset(&self) -> Option<Options> {
            self.preset.then(|| Options {
                size: Some(7),
                name: Some("preset"),
                ..Options::default()
            })
        }
    }

    #[derive(Debug, Default, PartialEq)]
    struct Decided {
        size: u32,
        name: &'static str,
    }

    impl Settle for Decided {
        type Layer = Options;
        type Error = String;
        fn apply(&mut self, layer: &Options) {
            set(&mut self.size, layer.size);
            set(&mut self.name, layer.name);
        }
        fn check(&self) -> Result<(), String> {
            if self.size > 10 {
                return Err(format!("size {} is above 10", self.size));
            }
            Ok(())
        }
    }

    #[test]
    fn later_layers_win_and_a_preset_comes_before_its_own_layer() {
        let config = Options {
            size: Some(3),
            name: Some("config"),
            ..Options::default()
        };
        let request = Options {
            preset: true,
            size: Some(5),
            ..Options::default()
        };
        let settled = Decided::from_layers([&config, &request]).unwrap();
        assert_eq!(
            settled,
            Decided {
                size: 5,
                name: "preset"
            }
        );
        assert_eq!(
            Decided::over(&config, None).unwrap(),
            Decided {
                size: 3,
                name: "config"
            }
        );
    }

    #[test]
    fn the_settled_values_are_checked() {
        let request = Options {
            size: Some(11),
            ..Options::default()
        };
        let err = Decided::over(&Options::default(), Some(&request)).unwrap_err();
        assert_eq!(err, "size 11 is above 10");
    }
}
