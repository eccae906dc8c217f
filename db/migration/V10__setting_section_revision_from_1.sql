-- Settings sections become a Spring Data JDBC aggregate whose revision is its optimistic @Version
-- (ADR 0012). Spring Data inserts a new aggregate at version 1, so a section's first change stores
-- its defaults at revision 1 and then saves the change over them (revision 2) in one savepoint: the
-- revision may now be 1 in the table too. What a revision means is unchanged (a missing row is the
-- defaults at revision 1). SQLite cannot change a CHECK constraint in place: the table is rebuilt,
-- every row kept.
CREATE TABLE setting_section_v10 (
    section    TEXT    PRIMARY KEY,
    value      TEXT    NOT NULL,
    revision   INTEGER NOT NULL CHECK (revision >= 1),
    updated_at INTEGER NOT NULL
) STRICT;

INSERT INTO setting_section_v10 (section, value, revision, updated_at)
    SELECT section, value, revision, updated_at FROM setting_section;

DROP TABLE setting_section;

ALTER TABLE setting_section_v10 RENAME TO setting_section;
