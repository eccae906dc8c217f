-- Editable settings sections (SPEC §10 Settings): one row per section that was ever changed. The
-- value is the section's full canonical JSON object; a missing row means the shipped defaults at
-- revision 1. revision is the compare-and-set counter behind settingsRevision "<section>:<n>".

CREATE TABLE setting_section (
    section    TEXT    PRIMARY KEY,
    value      TEXT    NOT NULL,
    revision   INTEGER NOT NULL CHECK (revision >= 2),
    updated_at INTEGER NOT NULL
) STRICT;
