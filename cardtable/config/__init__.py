"""The table configuration: one TOML file describes a table. This package owns reading it and
saying everything that is wrong with it at once, and what the table needs to start:

- :mod:`~cardtable.config.sections`: every section of the file, in reading order. Each package
  exports its own (:class:`config_kit.section.Section`: a name, a parser, a typed spec, what this
  machine must hold for it); the application's own are in :mod:`~cardtable.config.app_sections`.
- :mod:`~cardtable.config.check`: runs them all; the checked :class:`TableConfig` holds each
  section's spec (``config[VISION]``), the controller's setup, and what checking loaded (the
  calibration, the tag registry), so ``cardtable run`` reads nothing twice.
- :mod:`~cardtable.config.example`: ``cardtable config example``, a commented config for a game.
- :mod:`~cardtable.config.doctor`: ``cardtable doctor``, whether this machine is ready for the table.

The typed reads every section is written with live below all packages, in :mod:`config_kit.reads`.
"""

from cardtable.config.app_sections import DEFAULT_JOURNAL
from cardtable.config.check import (ConfigCheck, ConfigError, TableConfig, check_config, check_files, check_values,
                                    load_config, read_toml)

__all__ = ["DEFAULT_JOURNAL", "ConfigCheck", "ConfigError", "TableConfig", "check_config", "check_files",
           "check_values", "load_config", "read_toml"]
