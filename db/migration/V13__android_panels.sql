-- Android panels (lomi_android_open): the panel table gains the kind 'android'; its view names the device
-- ({"deviceId":…,"type":"android"}). SQLite cannot change a CHECK constraint in place, so the table is rebuilt
-- with every column it has (the same columns as V9; 'chat' is V9's kind, listed here so that V13 keeps it).
CREATE TABLE panel_v13 (
    id                  TEXT    PRIMARY KEY,
    workspace_id        TEXT    NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
    kind                TEXT    NOT NULL CHECK (kind IN ('scratch', 'terminal', 'editor', 'git', 'browser', 'chat', 'android')),
    title               TEXT    NOT NULL,
    terminal_session_id TEXT,
    owner_session       TEXT,
    profile             TEXT,
    cwd                 TEXT,
    document_id         TEXT,
    created_at          INTEGER NOT NULL,
    view                TEXT    CHECK ((kind IN ('git', 'chat', 'android')) = (view IS NOT NULL))
) STRICT;

INSERT INTO panel_v13 (id, workspace_id, kind, title, terminal_session_id, owner_session, profile, cwd, document_id, created_at, view)
    SELECT id, workspace_id, kind, title, terminal_session_id, owner_session, profile, cwd, document_id, created_at, view FROM panel;

DROP TABLE panel;

ALTER TABLE panel_v13 RENAME TO panel;
