-- Projects the admin added (SPEC §10/§11) with one default workspace each, and broker settings
-- such as the saved YOLO policy.

CREATE TABLE project (
    id        TEXT    PRIMARY KEY,
    name      TEXT    NOT NULL,
    root      TEXT    NOT NULL UNIQUE,
    added_at  INTEGER NOT NULL
) STRICT;

CREATE TABLE workspace (
    id         TEXT    PRIMARY KEY,
    project_id TEXT    NOT NULL REFERENCES project (id) ON DELETE CASCADE,
    name       TEXT    NOT NULL,
    created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE broker_setting (
    name       TEXT    PRIMARY KEY,
    value      TEXT    NOT NULL,
    updated_at INTEGER NOT NULL
) STRICT;
